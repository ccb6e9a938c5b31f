"""The one explicit list of games. Adding a game: its package, one line here, its tests."""

from __future__ import annotations

from typing import Any

from domain.engine import Game
from domain.games.expect_delays import GAME as EXPECT_DELAYS

GAMES: tuple[Game[Any], ...] = (
    EXPECT_DELAYS,
)


def by_slug(slug: str) -> Game[Any] | None:
    """The registered game named `slug`, or None."""
    return next((game for game in GAMES if game.slug == slug), None)
