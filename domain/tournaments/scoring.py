"""What one table is worth: places, points and head-to-head scores (domain/tournaments/README.md, "Scoring").

- Points: a table of k entrants gives (k - place) / (k - 1) to the entrant in place `place` (1 best): a 2-seat win
  1, a loss 0. Entrants sharing a rank share its places: each gets the average of their points (a 2-seat draw ½).
- A forfeit (deadline, resignation, withdrawal) scores 0 for the forfeiter and a win (1) for every other entrant.
- Cooperative tables (Mass Transit): teams rank by the game's own result: won first, then Commuters home (`score`),
  then fewer turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from domain.engine import competition_ranks
from domain.tournaments.events import EntrantResult


def result_key(result: EntrantResult, cooperative: bool) -> tuple[bool, bool, float, int]:
    """Higher is better: no forfeit first, then (cooperative) won, Commuters home, fewer turns, or (competitive)
    the match's rank."""
    if cooperative:
        return (result.forfeit is None, bool(result.won), result.score, -(result.turns or 0))
    return (result.forfeit is None, True, float(-result.rank), 0)


def table_ranks(results: Sequence[EntrantResult], cooperative: bool) -> dict[int, int]:
    """Each entrant's rank at its table (1 best, shared ranks for ties; forfeiters last)."""
    ranks = competition_ranks([result_key(r, cooperative) for r in results])
    return {r.entrant: rank for r, rank in zip(results, ranks, strict=True)}


def finishing_order(table: Sequence[int], results: Sequence[EntrantResult], cooperative: bool) -> list[int]:
    """A table's entrants, best first, with no ties: level entrants in seat order (the better seed sits first).
    This is who goes on in a knockout, and the place `last-table-place` shows."""
    by_entrant = {r.entrant: r for r in results}
    return sorted(table, key=lambda e: (tuple(-x for x in result_key(by_entrant[e], cooperative)), table.index(e)))


def table_points(results: Sequence[EntrantResult], cooperative: bool) -> dict[int, Fraction]:
    """Each entrant's points from one finished table (rules in the module docstring)."""
    k = len(results)
    if k < 2:
        return {r.entrant: Fraction(0) for r in results}
    if any(r.forfeit for r in results):
        return {r.entrant: Fraction(0 if r.forfeit else 1) for r in results}
    ranks = table_ranks(results, cooperative)
    points: dict[int, Fraction] = {}
    for entrant, rank in ranks.items():
        sharing = sum(1 for other in ranks.values() if other == rank)
        places = range(rank, rank + sharing)
        points[entrant] = sum((Fraction(k - p, k - 1) for p in places), Fraction(0)) / sharing
    return points


def pairwise(results: Sequence[EntrantResult], cooperative: bool) -> dict[tuple[int, int], Fraction]:
    """(a, b) -> a's score against b at this table: 1 ahead, ½ level, 0 behind (a forfeit loses to the others, who
    are level with each other)."""
    if any(r.forfeit for r in results):
        ranks = {r.entrant: 2 if r.forfeit else 1 for r in results}
    else:
        ranks = table_ranks(results, cooperative)
    return {
        (a, b): Fraction(1) if ranks[a] < ranks[b] else Fraction(1, 2) if ranks[a] == ranks[b] else Fraction(0)
        for a in ranks for b in ranks if a != b
    }
