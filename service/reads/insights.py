"""Insights: a metric of the fact rows (projections/insights.py) grouped by one or two dimensions, each group with
its n, its value and a 95 % interval (Wilson for a rate, Student's t for a mean), small groups marked.

The store answers with SQL aggregates over its table of fact rows (store/sql_facts.py): per group the rows, their
wins, and the count, sum and sum of squares of the value averaged; the intervals are computed here from those alone
(`Insights.answer`). `measure` is the same arithmetic in plain Python over rows, the reference a reader of the
exported records can redo (tests compare the two).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from projections import insights
from store.read_models import FactQuery, FactSums
from store.replica import ReadStore

METRICS = ("win_rate", "mean_rank", "mean_score", "length_moves", "length_seconds")
DIMENSIONS = ("seat", "seats", "edition", "month", "opening", "bot", "rating_band")
SMALL = 30  # a group of fewer rows is marked small: its interval is wide and its value easily moved
BAND = insights.BAND  # rating bands are this wide, in ordinal points (OpenSkill: a new player is at 0)
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
    return insights.label(name, row)


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
    return _student(n, mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)))


def _student(n: int, mean: float, deviation: float) -> tuple[float, float, float]:
    t = T95[n - 2] if n - 1 < 30 else Z95
    half = t * deviation / math.sqrt(n)
    return mean, mean - half, mean + half


def sums_interval(n: int, total: float, squares: float) -> tuple[float, float | None, float | None]:
    """The same from the count, sum and sum of squares of the values (exact for whole numbers)."""
    mean = total / n
    if n < 2:
        return mean, None, None
    if isinstance(total, int) and isinstance(squares, int):
        variance = (n * squares - total * total) / (n * (n - 1))
    else:
        variance = max(0.0, (squares - total * total / n) / (n - 1))
    return _student(n, mean, math.sqrt(variance))


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


# The column of each dimension in the facts table, and what each SQL query sums per metric.
COLUMN = {"seat": "seat", "seats": "seats", "edition": "edition", "month": "month", "opening": "opening",
          "bot": "bot", "rating_band": "band"}
VALUE = {"win_rate": None, "mean_rank": "rank", "mean_score": "score", "length_moves": "moves",
         "length_seconds": "seconds"}
NUMBERED = ("seat", "seats")


def column_label(name: str, value: Any) -> str:
    """A dimension's column value as the text `dimension` gives."""
    if name == "rating_band":
        return insights.label(name, {"rating_before": value})  # a band's low end is in its own band
    return insights.label(name, {name: value})


def condition(name: str, value: str) -> tuple[str, tuple[Any, ...], bool]:
    """A filter `dimension == value` as (column, the values it may hold, whether NULL is one): every stored value
    whose text is `value`, none when no stored value can be written so."""
    column = COLUMN[name]
    if name in NUMBERED:
        try:
            number = int(value)
        except ValueError:
            return column, (), False
        return column, (number,) if str(number) == value else (), False
    if name == "rating_band":
        if value == "unrated":
            return column, (), True
        try:
            low = float(value.partition("..")[0])
        except ValueError:
            return column, (), False
        whole = not (low == 0 and math.copysign(1.0, low) < 0)  # bands start at +0.0, never -0.0
        return column, (low,) if whole and column_label(name, low) == value else (), False
    if name == "bot" and value == "human":
        return column, (value, ""), True
    return column, (value,), value == "none" and name != "bot"


def question(games: Iterable[str], metric: str, by: list[str], where: dict[str, str],
             player: str | None) -> FactQuery:
    """The aggregate a metric's answer needs: a length counts each match once per group, so unless `seat` is
    grouped or filtered (one row per match and group then) only the rows standing for their match are summed."""
    length = metric.startswith("length_")
    pinned = "seat" in by or "seat" in where
    reps = insights.subset({*by, *where, *(["player"] if player is not None else [])}) \
        if length and not pinned else None
    return FactQuery(games=tuple(games), by=tuple(COLUMN[name] for name in by),
                     where=tuple(condition(name, value) for name, value in sorted(where.items())),
                     player=player, reps=reps, value=VALUE[metric])


def groups_of(metric: str, by: list[str], found: list[FactSums]) -> list[Group]:
    """The answer from the aggregates alone: groups whose columns read the same are one (NULL and `none`)."""
    merged: dict[tuple[str, ...], list[Any]] = {}
    for sums in found:
        key = tuple(column_label(name, value) for name, value in zip(by, sums.group, strict=True))
        held = merged.setdefault(key, [0, 0, 0, 0, 0])
        for i, part in enumerate((sums.rows, sums.wins, sums.n, sums.total, sums.squares)):
            held[i] += part
    answer = []
    for key in sorted(merged):
        rows, wins, n, total, squares = merged[key]
        if metric == "win_rate":
            n, value = rows, wins / rows
            low, high = wilson(wins, rows)
            bounds: tuple[float | None, float | None] = (low, high)
        else:
            if not n:
                continue
            value, *rest = sums_interval(n, total, squares)
            bounds = (rest[0], rest[1])
        answer.append(Group(group=dict(zip(by, key, strict=True)), n=n, value=value, low=bounds[0],
                            high=bounds[1], small=n < SMALL))
    return answer


class Insights:
    """The fact rows of the read models: aggregated by the store, or read page by page."""

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
        """The metric of these games' rows, grouped and filtered (what `measure` gives for the same rows)."""
        return groups_of(metric, by, self.store.fact_sums(question(games, metric, by, where, player)))
