"""The registered games, by slug and rules edition, for the services."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.catalog import by_slug, edition
from domain.codec import event_from_builtins
from domain.editions import UnknownEdition
from domain.engine import Event, Game

__all__ = ["UnknownEdition", "UnknownGame", "decode_events", "game_of"]


class UnknownGame(Exception):
    """No game is registered under this slug."""


def game_of(slug: str, rules_version: str | None = None) -> Game[Any]:
    """The registered game at edition `rules_version` (None: its current edition, for new matches); raises
    UnknownGame, or UnknownEdition for an edition this release does not have. A match is always played, viewed and
    verified under its own edition: pass its `rules_version`."""
    game = by_slug(slug) if rules_version is None else edition(slug, rules_version)
    if game is None:
        raise UnknownGame(slug)
    return game


def decode_events(game: Game[Any], payloads: Sequence[dict[str, Any]]) -> list[Event]:
    """Stored event payloads back into typed events."""
    return [event_from_builtins(game, payload) for payload in payloads]
