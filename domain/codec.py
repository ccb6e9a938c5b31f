"""JSON encoding and decoding of commands and events, with decoders built once per game."""

from __future__ import annotations

from functools import cache
from typing import Any, Union

import msgspec

from domain.engine import Command, Event, Game
from domain.lifecycle import LIFECYCLE_COMMANDS, LIFECYCLE_EVENTS, SERVICE_COMMANDS
from domain.upcasters import Upcaster, upcast


def event_types(game: Game[Any]) -> tuple[type[Event], ...]:
    """Every event type a match of `game` may hold."""
    return LIFECYCLE_EVENTS + game.event_types


def command_types(game: Game[Any]) -> tuple[type[Command], ...]:
    """Every command a seat of `game` may send."""
    return LIFECYCLE_COMMANDS + game.command_types


@cache
def _by_tag(types: tuple[type[Any], ...]) -> dict[Any, type[Any]]:
    """Each tagged type by its tag."""
    return {t.__struct_config__.tag: t for t in types}


def _convert(payload: Any, types: tuple[type[Any], ...]) -> Any:
    # msgspec.convert to a Union rebuilds its lookup on every call (≈ 38 µs here, most of a cold load's time);
    # to the one Struct the tag names it is ≈ 1 µs. Anything else goes through the Union, for its error message.
    tag = payload.get("type") if isinstance(payload, dict) else None
    kind = _by_tag(types).get(tag) if isinstance(tag, str) else None  # a tag of another type may be unhashable
    return msgspec.convert(payload, kind or Union[types], strict=False)  # type: ignore[arg-type]  # noqa: UP007


@cache
def upcasters_of(game: Game[Any]) -> dict[str, Upcaster]:
    """The upcasters the edition `game` plays declares (`Edition.upcasters`), by event type."""
    edition = next((e for e in game.editions if e.rules_version == game.rules_version), None)
    return {} if edition is None else dict(edition.upcasters)


def event_from_builtins(game: Game[Any], payload: dict[str, Any]) -> Event:
    """An event of `game` (at its rules edition) from its decoded JSON object, through the edition's upcasters."""
    upcasters = upcasters_of(game)
    if upcasters:
        payload = upcast(upcasters, payload)
    return _convert(payload, event_types(game))  # type: ignore[no-any-return]


def command_from_builtins(game: Game[Any], payload: dict[str, Any]) -> Command:
    """A recorded command of `game` (a seat's, or one the service took: a join) from its decoded JSON object;
    raises msgspec.ValidationError."""
    return _convert(payload, SERVICE_COMMANDS + command_types(game))  # type: ignore[no-any-return]


encode = msgspec.json.Encoder().encode
_decode_any = msgspec.json.Decoder().decode


def to_builtins(value: Any) -> Any:
    """A command, event or view exactly as it reads back from JSON (tuples become lists)."""
    return _decode_any(encode(value))
