"""Reading the projections' read models: leaderboards, player and game statistics, projection status.

Every answer says the global position its projection is folded up to; a caller may ask for data at least as fresh
as a position it saw (a move's `position`) and waits briefly for the workers to get there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.handles import identity
from projections import game_stats, player_stats, ratings
from projections.catalog import PROJECTIONS
from service.errors import ServiceError
from service.ops import metrics
from store.base import utc_now
from store.read_models import Checkpoint, DocRow
from store.replica import ReadStore

WAIT_SECONDS = 2.0
log = logging.getLogger("turnstile.statistics")


class NotYet(ServiceError):
    """A projection has not folded the log as far as asked, even after a short wait."""

    code, kind = "not-yet", "conflict"
    fields = {"position": "position"}

    def __init__(self, position: int, wanted: int) -> None:
        super().__init__(f"statistics are folded up to position {position}, not yet {wanted}; retry shortly")
        self.position = position
        self.wanted = wanted


class UnknownPlayer(ServiceError):
    """No finished match of this player has been folded."""

    code, kind = "unknown-player", "not-found"
    detail = "no finished match of {e.args[0]!r} has been folded yet"


@dataclass(frozen=True)
class ProjectionState:
    """How far a projection has folded the log, how far behind the head it is, and the error it stopped on."""

    name: str
    version: int
    checkpoint: Checkpoint | None
    lag: int


class Statistics:
    """The read models of one store (a replica's, with `primary` to fall back on)."""

    def __init__(self, store: ReadStore, *, wait_seconds: float = WAIT_SECONDS,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 primary: Statistics | None = None, now: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self.wait_seconds = wait_seconds
        self.clock = clock
        self.sleep = sleep
        self.primary = primary
        self.now = now  # the wall clock a period board ends at

    def fresh(self, projection: str, min_position: int | None) -> tuple[Statistics, int]:
        """The statistics to answer from and their projection's position, at least `min_position`: the replica's
        when it gets there within its wait, else the primary's (which waits as long as ever; NotYet after)."""
        if self.primary is None or min_position is None:
            return self, self.position(projection, min_position)
        try:
            return self, self.position(projection, min_position)
        except NotYet as behind:
            # The caller saw this position (its own move, say): the primary is where it is sure to be folded.
            log.info("replica folded %s up to %s, not %s: reading the primary", projection, behind.position,
                     min_position)
            metrics.REPLICA_FALLBACKS.labels("min-position").inc()
            return self.primary, self.primary.position(projection, min_position)

    def position(self, projection: str, min_position: int | None) -> int:
        """The projection's position, after waiting briefly for `min_position`; NotYet if still behind."""
        deadline = self.clock() + self.wait_seconds
        while True:
            position = next((c.position for c in self.store.checkpoints() if c.projection == projection), 0)
            if min_position is None or self.store.log_reached(position, min_position):
                return position
            if self.clock() >= deadline:
                raise NotYet(position, min_position)
            self.sleep(0.05)

    def leaderboard(self, game: str, min_matches: int, after: tuple[float, str] | None,
                    limit: int) -> list[DocRow]:
        """Rating documents of a game, best conservative rating first, with at least `min_matches` rated;
        `after` is the (ordinal, player) to go on after."""
        keyset = None if after is None else (after[0], ratings.rating_key(game, after[1]))
        return self.store.docs(ratings.NAME, ratings.RATING, group=game, min_field=("matches", min_matches),
                               after=keyset, limit=limit)

    def ratings_of(self, game: str, players: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The rating documents of these players in a game (one read each; the unrated are left out)."""
        out = {}
        for player in players:
            rows = self.store.docs(ratings.NAME, ratings.RATING, key=ratings.rating_key(game, player), limit=1)
            if rows:
                out[player] = rows[0].doc
        return out

    def player_games(self, player: str) -> tuple[str, dict[str, int]]:
        """The player's handle as first seen (any spelling of it finds them) and how many finished matches of each
        game they have; UnknownPlayer if none was folded."""
        rows = self.store.docs(player_stats.NAME, player_stats.PLAYER, key=identity(player), limit=1)
        if not rows:
            raise UnknownPlayer(player)
        return str(rows[0].doc["player"]), dict(rows[0].doc["games"])

    def player_stats(self, player: str) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
        """Per game the player's statistics and rating document (None when not rated), by game."""
        rows = self.store.docs(player_stats.NAME, player_stats.STATS, group=identity(player), limit=200)
        if not rows:
            raise UnknownPlayer(player)
        out = []
        for row in sorted(rows, key=lambda r: r.doc["game"]):
            rated = self.store.docs(ratings.NAME, ratings.RATING, key=ratings.rating_key(row.doc["game"], player),
                                    limit=1)
            out.append((row.doc, rated[0].doc if rated else None))
        return out

    def game_stats(self, game: str) -> dict[str, Any]:
        """A game's statistics document (an empty one before any match of it was folded)."""
        rows = self.store.docs(game_stats.NAME, game_stats.GAME, key=game, limit=1)
        return rows[0].doc if rows else game_stats.empty(game)

    def projections(self) -> tuple[int, list[ProjectionState]]:
        """The head of the log, and each projection's state."""
        head = self.store.head_position()
        found = {c.projection: c for c in self.store.checkpoints()}
        states = []
        for projection in PROJECTIONS:
            checkpoint = found.get(projection.name)
            states.append(ProjectionState(name=projection.name, version=projection.version, checkpoint=checkpoint,
                                          lag=self.store.events_after(checkpoint.position if checkpoint else 0)))
        return head, states
