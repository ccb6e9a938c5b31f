"""Events and commands from decoded JSON: by their tag's type (fast), with the Union's errors for anything else."""

from __future__ import annotations

from typing import Any, Union

import msgspec
import pytest

from domain import match
from domain.catalog import GAMES
from domain.codec import command_from_builtins, command_types, event_from_builtins, event_types
from domain.engine import Game


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_an_event_converts_to_what_the_union_gives(game: Game[Any]) -> None:
    events = match.open_match(game, ["ada", "grace", "alan"][:max(game.min_seats, 2)], None, "codec-seed",
                              seed_source="caller", client_entropy=None)
    for event in events:
        payload = msgspec.to_builtins(event)
        union = msgspec.convert(payload, Union[event_types(game)], strict=False)  # type: ignore[arg-type]  # noqa: UP007
        assert event_from_builtins(game, payload) == union == event


@pytest.mark.parametrize("payload", [{"type": "no-such-event"}, {"line": "U1"}, ["not", "an", "object"],
                                     {"type": ["a", "list"]}, {"type": {"an": "object"}}, {"type": 7}])
def test_anything_else_is_the_unions_validation_error(payload: Any) -> None:
    game = GAMES[0]
    with pytest.raises(msgspec.ValidationError):
        event_from_builtins(game, payload)
    with pytest.raises(msgspec.ValidationError):
        command_from_builtins(game, payload)


def test_a_command_with_a_field_it_does_not_know_is_refused() -> None:
    game = GAMES[0]
    resign = msgspec.to_builtins(command_types(game)[0]())
    assert command_from_builtins(game, resign) == command_types(game)[0]()
    with pytest.raises(msgspec.ValidationError):
        command_from_builtins(game, {**resign, "extra": 1})
