"""Insights: a metric of the fact rows (projections/insights.py) grouped by one or two dimensions, each group with
its n, its value and a 95 % interval (Wilson for a rate, Student's t for a mean), small groups marked.

The arithmetic is plain Python over rows, so a reader of the exported records can redo it (tests do).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from projections import insights
from store.replica import ReadStore

METRICS = ("win_rate", "mean_rank", "mean_score", "length_moves", "length_seconds")
DIMENSIONS = ("seat", "seats", "edition", "month", "opening", "bot", "rating_band")
SMALL = 30  # a group of fewer rows is marked small: its interval is wide and its value easily moved
BAND = 5.0  # rating bands are this wide, in ordinal points (OpenSkill: a new player is at 0)
Z95 = 1.959964
# Student's t, two-sided 95 %, for 1 to 29 degrees of freedom (30 and more: the normal's 1.96 is within 2 %).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045)
PAGE = 2000


class Group(msgspec.Struct, frozen=True):
    """One group's answer: its dimension values, how many rows (matches, for a length), the value and its 95 %
    interval (None for a single row's mean), and whether the group is small."""

    group: dict[str, str]
    n: int
    value: float
    low: float | None
    high: float | None
    small: bool


def dimension(row: dict[str, Any], name: str) -> str:
    """A fact row's value of a dimension, as text (`bot`: the policy or `human`; `rating_band`: `lo..hi` or
    `unrated`; `opening`: `none` when the seat never decided)."""
    if name == "bot":
        return row["bot"] or "human"
    if name == "rating_band":
        rating = row["rating_before"]
        if rating is None:
            return "unrated"
        low = math.floor(rating / BAND) * BAND
        return f"{low:g}..{low + BAND:g}"
    value = row[name]
    return "none" if value is None else str(value)


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The Wilson score interval (95 %) of a proportion."""
    p = successes / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float]) -> tuple[float, float | None, float | None]:
    """The mean and its 95 % interval (Student's t; none for a single value)."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None, None
    deviation = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    t = T95[n - 2] if n - 1 < 30 else Z95
    half = t * deviation / math.sqrt(n)
    return mean, mean - half, mean + half


def _values(metric: str, rows: list[dict[str, Any]]) -> list[float]:
    """The values a metric averages over a group's rows (a length: one per match)."""
    if metric in ("length_moves", "length_seconds"):
        field = "moves" if metric == "length_moves" else "seconds"
        per_match = {row["match_id"]: row[field] for row in rows}
        return [float(v) for v in per_match.values() if v is not None]
    field = {"mean_rank": "rank", "mean_score": "score"}[metric]
    return [float(row[field]) for row in rows]


def measure(rows: Iterable[dict[str, Any]], metric: str, by: list[str], where: dict[str, str],
            player: str | None = None) -> list[Group]:
    """The metric of the rows that match `where` (dimension -> value) and `player`, grouped by `by`."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in rows:
        if player is not None and row["player"] != player:
            continue
        if any(dimension(row, name) != value for name, value in where.items()):
            continue
        groups.setdefault(tuple(dimension(row, name) for name in by), []).append(row)
    answer = []
    for key in sorted(groups):
        members = groups[key]
        if metric == "win_rate":
            n = len(members)
            wins = sum(1 for row in members if row["result"] == "win")
            low, high = wilson(wins, n)
            value: float = wins / n
            bounds: tuple[float | None, float | None] = (low, high)
        else:
            values = _values(metric, members)
            if not values:
                continue
            n = len(values)
            value, *rest = mean_interval(values)
            bounds = (rest[0], rest[1])
        answer.append(Group(group=dict(zip(by, key, strict=True)), n=n, value=value, low=bounds[0],
                            high=bounds[1], small=n < SMALL))
    return answer


class Insights:
    """The fact rows of the read models, read page by page."""

    def __init__(self, store: ReadStore, page: int = PAGE) -> None:
        self.store = store
        self.page = page

    def rows(self, games: Iterable[str]) -> Iterator[dict[str, Any]]:
        """Every fact row of these games."""
        for game in games:
            after: tuple[float, str] | None = None
            while True:
                found = self.store.docs(insights.NAME, insights.FACT, group=game, after=after, limit=self.page)
                yield from (row.doc for row in found)
                if len(found) < self.page:
                    break
                after = (found[-1].rank, found[-1].key)

    def answer(self, games: Iterable[str], metric: str, by: list[str], where: dict[str, str],
               player: str | None = None) -> list[Group]:
        """The metric of these games' rows, grouped and filtered."""
        return measure(self.rows(games), metric, by, where, player)


