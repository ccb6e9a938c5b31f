"""Leaderboards by period, seat count and edition (issue 42), computed from the insights fact rows.

Such a board ranks players by the rating they gained in the matches in scope: the rated matches of the game that
ended in the period (`week`: the last 7 days, `month`: the last 30 days, `all`: ever), with that many seats and of
that edition. A match's gain is the player's conservative rating (mu - 3 sigma) after it less the one before it,
both held by the match's fact row, so every row read answers alone (a board read while matches fold is each row's
truth); the rating shown is the one after the player's latest rated match. Ties go by handle. Only what
the facts count counts: public matches of a server seed played to a result (a private match never moves a board).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from service.reads.insights import Insights
from store.replica import ReadStore

PERIODS = {"week": timedelta(days=7), "month": timedelta(days=30)}


@dataclass(frozen=True)
class Scope:
    """Which matches a board counts: ended at `since` or later (None: ever), with `seats` seats, of `edition`."""

    since: str | None = None  # an ISO 8601 UTC instant, compared with the facts' `ended_at` (same format)
    seats: int | None = None
    edition: str | None = None

    def holds(self, row: dict[str, Any]) -> bool:
        """Whether a fact row is in scope."""
        return (self.since is None or row["ended_at"] >= self.since) \
            and (self.seats is None or row["seats"] == self.seats) \
            and (self.edition is None or row["edition"] == self.edition)


@dataclass(frozen=True)
class Standing:
    """A player's place on a period board: rating gained in scope, matches and wins in scope, rating now."""

    player: str
    gained: float
    matches: int
    wins: int
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def order(self) -> tuple[float, str]:
        """The board's order (and its cursor's keyset): most gained first, then by handle."""
        return (-self.gained, self.player)


def since(period: str, now: datetime) -> str | None:
    """The first instant of a period ending `now`, as the facts write instants; None for `all`."""
    span = PERIODS.get(period)
    if span is None:
        return None
    return (now - span).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def standings(rows: Iterable[dict[str, Any]], scope: Scope, min_matches: int) -> list[Standing]:
    """Every player with at least `min_matches` rated matches in scope, best first."""
    latest: dict[str, dict[str, Any]] = {}
    counted: dict[str, list[tuple[dict[str, Any], float]]] = defaultdict(list)
    for row in rows:
        if row["rating_before"] is None:
            continue
        player = row["player"]
        if player not in latest or row["position"] > latest[player]["position"]:
            latest[player] = row
        if scope.holds(row):
            counted[player].append((row, row["mu_after"] - 3 * row["sigma_after"] - row["rating_before"]))
    board = [Standing(player=player, gained=sum(g for _, g in mine), matches=len(mine),
                      wins=sum(1 for r, _ in mine if r["result"] == "win"), mu=latest[player]["mu_after"],
                      sigma=latest[player]["sigma_after"])
             for player, mine in counted.items() if mine and len(mine) >= min_matches]
    return sorted(board, key=Standing.order)


def period_board(store: ReadStore, game: str, scope: Scope, min_matches: int) -> list[Standing]:
    """The board of a game's matches in scope, read from the insights facts."""
    return standings(Insights(store).rows([game]), scope, min_matches)
