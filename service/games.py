"""The registered games, by slug, for the services."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.catalog import by_slug
from domain.codec import event_from_builtins
from domain.engine import Event, Game


class UnknownGame(Exception):
    """No game is registered under this slug."""


def game_of(slug: str) -> Game[Any]:
    """The registered game, or UnknownGame."""
    game = by_slug(slug)
    if game is None:
        raise UnknownGame(slug)
    return game


def decode_events(game: Game[Any], payloads: Sequence[dict[str, Any]]) -> list[Event]:
    """Stored event payloads back into typed events."""
    return [event_from_builtins(game, payload) for payload in payloads]
