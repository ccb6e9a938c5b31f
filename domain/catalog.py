"""The one explicit list of games, and of every rules edition each has released.

Adding a game: its package, one line in `PACKAGES`, its tests. `GAMES` holds each game at its current edition (what
new matches are created under); `edition(slug, rules_version)` gives the record of any released edition, which is
what every match is played, viewed and verified under.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.codec import event_from_builtins
from domain.editions import UnknownEdition, bind
from domain.engine import Event, Game
from domain.games.expect_delays import GAME as EXPECT_DELAYS
from domain.games.mass_transit import GAME as MASS_TRANSIT
from domain.games.metro_x import GAME as METRO_X
from domain.games.terminus import GAME as TERMINUS
from domain.games.touched_on import GAME as TOUCHED_ON

__all__ = ["EDITIONS", "GAMES", "PACKAGES", "UnknownEdition", "UnknownGame", "by_slug", "decode_events",
           "edition", "game_of"]

PACKAGES: tuple[Game[Any], ...] = (
    EXPECT_DELAYS,
    MASS_TRANSIT,
    METRO_X,
    TERMINUS,
    TOUCHED_ON,
)

# Every edition of every game, bound once (a Game is hashed by identity: decoders and caches key on it).
EDITIONS: dict[str, dict[str, Game[Any]]] = {
    game.slug: {e.rules_version: bind(game, e) for e in game.editions} for game in PACKAGES
}

GAMES: tuple[Game[Any], ...] = tuple(
    EDITIONS[game.slug][game.editions[-1].rules_version] for game in PACKAGES
)


def by_slug(slug: str) -> Game[Any] | None:
    """The registered game named `slug` at its current edition, or None."""
    return next((game for game in GAMES if game.slug == slug), None)


def edition(slug: str, rules_version: str) -> Game[Any] | None:
    """The game `slug` as its edition `rules_version` plays it; None when no game has that slug; raises
    UnknownEdition when the game has no such edition."""
    editions = EDITIONS.get(slug)
    if editions is None:
        return None
    found = editions.get(rules_version)
    if found is None:
        raise UnknownEdition(slug, rules_version, tuple(editions))
    return found


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
