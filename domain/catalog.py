"""The one explicit list of games. Adding a game: its package, one line here, its tests."""

from __future__ import annotations

from typing import Any

from domain.engine import Game
from domain.games.expect_delays import GAME as EXPECT_DELAYS
from domain.games.mass_transit import GAME as MASS_TRANSIT
from domain.games.metro_x import GAME as METRO_X
from domain.games.terminus import GAME as TERMINUS
from domain.games.touched_on import GAME as TOUCHED_ON

GAMES: tuple[Game[Any], ...] = (
    EXPECT_DELAYS,
    MASS_TRANSIT,
    METRO_X,
    TERMINUS,
    TOUCHED_ON,
)


def by_slug(slug: str) -> Game[Any] | None:
    """The registered game named `slug`, or None."""
    return next((game for game in GAMES if game.slug == slug), None)
