"""Leaderboards by period, seat count and edition (issue 42), computed from the insights fact rows.

Such a board ranks players by the rating they gained in the matches in scope: the rated matches of the game that
ended in the period (`week`: the last 7 days, `month`: the last 30 days, `all`: ever), with that many seats and of
that edition. A match's gain is the player's conservative rating (mu - 3 sigma) after it less the one before it:
the fact rows hold each seat's rating before the match, so the rating after one match is the rating before the
player's next rated match of the game, or the player's rating now after their last. Ties go by handle. Only what
the facts count counts: public matches of a server seed played to a result (a private match never moves a board).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from projections import insights, ratings
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


def standings(rows: Iterable[dict[str, Any]], now: dict[str, tuple[float, float]], scope: Scope,
              min_matches: int) -> list[Standing]:
    """Every player with at least `min_matches` rated matches in scope, best first (`now`: each player's (mu, sigma)
    today, by handle)."""
    rated: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if row["rating_before"] is not None:
            rated[row["player"]].append(row)
    board = []
    for player, mine in rated.items():
        mine.sort(key=lambda r: r["position"])
        mu, sigma = now[player]
        afters = [r["rating_before"] for r in mine[1:]] + [mu - 3 * sigma]
        counted = [(r, after - r["rating_before"]) for r, after in zip(mine, afters, strict=True) if scope.holds(r)]
        if counted and len(counted) >= min_matches:
            board.append(Standing(player=player, gained=sum(g for _, g in counted), matches=len(counted),
                                  wins=sum(1 for r, _ in counted if r["result"] == "win"), mu=mu, sigma=sigma))
    return sorted(board, key=Standing.order)


def period_board(store: ReadStore, game: str, scope: Scope, min_matches: int) -> list[Standing]:
    """The board of a game's matches in scope, read from the insights projection (facts and its own ratings, folded
    together, so they agree at any position)."""
    rows = list(Insights(store).rows([game]))
    now = {}
    for player in {row["player"] for row in rows if row["rating_before"] is not None}:
        found = store.docs(insights.NAME, insights.RATING, key=ratings.rating_key(game, player), limit=1)
        now[player] = (found[0].doc["mu"], found[0].doc["sigma"])
    return standings(rows, now, scope, min_matches)
