"""The insights rollups (`insight_rollups`): the additive sums of the fact rows per game, value of one to three
dimension columns (or of all seven) and `reps`, kept by the projection's batch so that an insight naming at most
three dimensions (and no player) sums a few hundred rows instead of every fact row of its game, and a wider one the
cells of all seven, fewer and narrower than the rows. One SQL shape for both dialects.

Every sum is additive (how many rows, their wins, and per averaged column the count, sum and sum of squares of its
non-NULL values), so a batch adds its new rows' contributions and subtracts those of the rows it replaces or deletes;
a cell whose rows are all gone is deleted. `rebuild` computes every cell from the fact rows alone, as a check of the
running sums (tests compare the two) and after a bulk load of facts (bench/insights_scale.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import combinations
from typing import Any

import msgspec

from store.dialect import Dialect
from store.read_models import FactQuery, FactSums

# The fact columns a question can group or filter by (service/reads/insights.py COLUMN), in one fixed order.
DIMENSION_COLUMNS = ("edition", "seats", "seat", "month", "opening", "bot", "band")
MOST = 3  # every set of up to three dimensions is kept (63 sets of the seven), and the set of all seven
SETS = (*(c for size in range(1, MOST + 1) for c in combinations(DIMENSION_COLUMNS, size)), DIMENSION_COLUMNS)
AVERAGED = ("rank", "score", "moves", "seconds")  # the fact columns a metric averages
WHOLE = frozenset({"rank", "moves"})  # their sums are whole numbers (exact)
SUMS = ("facts", "wins", *(f"{part}_{column}" for column in AVERAGED for part in ("n", "sum", "sq")))
KEY_COLUMNS = ("game", "dims", "cell", *DIMENSION_COLUMNS, "reps")

Cell = tuple[str, str, str]  # (game, dims, cell)


def covering(columns: Iterable[str]) -> tuple[str, ...] | None:
    """The dimension set whose rollup answers a question naming these columns (`game` is in every one): the set of
    exactly those up to three, else the set of all seven (its cells are at most as many as the fact rows, and
    narrower); None for a column that is no dimension."""
    named = set(columns) - {"game"}
    if not named or not named <= set(DIMENSION_COLUMNS):
        return None
    return tuple(c for c in DIMENSION_COLUMNS if c in named) if len(named) <= MOST else DIMENSION_COLUMNS


def _value(column: str, value: Any) -> Any:
    """A dimension value in one form whatever store it was read from (a band is a float)."""
    return float(value) if column == "band" and value is not None else value


def _key(game: str, columns: Sequence[str], values: Sequence[Any], reps: int) -> list[Any]:
    """A cell's key columns (KEY_COLUMNS): its game, dimension set and identity (the canonical text of its values and
    `reps`: NULL is a value here), each dimension's value (None outside the set) and `reps`."""
    named = dict(zip(columns, values, strict=True))
    return [game, ",".join(columns), msgspec.json.encode([*values, reps]).decode(),
            *(named.get(c) for c in DIMENSION_COLUMNS), reps]


def _contribution(row: dict[str, Any], sign: int) -> list[Any]:
    """A fact row's part of each sum (negated with `sign` -1)."""
    parts: list[Any] = [sign, sign if row["result"] == "win" else 0]
    for column in AVERAGED:
        value = row[column]
        zero = 0 if column in WHOLE else 0.0
        parts += [0, zero, zero] if value is None else [sign, sign * value, sign * value * value]
    return parts


def deltas(removed: Iterable[dict[str, Any]], added: Iterable[dict[str, Any]]) -> dict[Cell, list[Any]]:
    """Per cell, its key columns' values followed by the change of each sum, for fact rows leaving and entering."""
    found: dict[Cell, list[Any]] = {}
    for rows, sign in ((removed, -1), (added, 1)):
        for row in rows:
            parts = _contribution(row, sign)
            for columns in SETS:
                key = _key(row["game"], columns, [_value(c, row[c]) for c in columns], row["reps"])
                cell = (key[0], key[1], key[2])
                held = found.get(cell)
                if held is None:
                    found[cell] = [*key, *parts]
                else:
                    for i, part in enumerate(parts, start=len(KEY_COLUMNS)):
                        held[i] += part
    return found


def apply(cursor: Any, dialect: Dialect, changes: dict[Cell, list[Any]]) -> None:
    """Add the changes to the stored sums, in the caller's transaction; drop the cells left without rows."""
    width = len(KEY_COLUMNS)
    moved = [row for row in changes.values() if any(row[width:])]
    if not moved:
        return
    cursor.executemany(_adding(dialect), moved)
    emptied = [tuple(row[:3]) for row in moved if row[width] < 0]
    if emptied:
        cursor.executemany(dialect.sql(
            "DELETE FROM insight_rollups WHERE game = ? AND dims = ? AND cell = ? AND facts = 0"), emptied)


def _adding(dialect: Dialect) -> str:
    """The statement adding one cell's changes to its sums (inserting the cell when it is new)."""
    columns = (*KEY_COLUMNS, *SUMS)
    added = ", ".join(f"{name} = {_sum(name)}" for name in SUMS)
    return dialect.sql(f"INSERT INTO insight_rollups ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)}) "
                       f"ON CONFLICT (game, dims, cell) DO UPDATE SET {added}")


def _sum(name: str) -> str:
    """A sum plus its change; a float sum left with no values is set to 0 (not the last digits of its history)."""
    added = f"insight_rollups.{name} + excluded.{name}"
    part, _, column = name.partition("_")
    if part in ("sum", "sq") and column not in WHOLE:
        return f"CASE WHEN insight_rollups.n_{column} + excluded.n_{column} = 0 THEN 0 ELSE {added} END"
    return added


def reset(conn: Any) -> None:
    """Drop every cell (the facts are gone too)."""
    conn.execute("DELETE FROM insight_rollups")


def aggregates(column: str, whole: bool) -> str:
    """The count, sum and sum of squares of a column's non-NULL values, in SQL (a whole column's squares in BIGINT:
    an INTEGER's square may not fit its type)."""
    square = f"CAST({column} AS BIGINT) * {column}" if whole else f"{column} * {column}"
    return f"count({column}), coalesce(sum({column}), 0), coalesce(sum({square}), 0)"


def rebuild(conn: Any, dialect: Dialect) -> None:
    """Every cell again from the fact rows alone (one GROUP BY per dimension set), in the caller's transaction."""
    reset(conn)
    sums = ", ".join(["count(*)", "sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END)",
                      *(aggregates(column, column in WHOLE) for column in AVERAGED)])
    adding = _adding(dialect)
    for columns in SETS:
        listed = ", ".join(columns)
        rows = conn.execute(f"SELECT game, {listed}, reps, {sums} FROM insight_facts "
                            f"GROUP BY game, {listed}, reps").fetchall()
        width = len(columns)
        cells = [(*_key(row[0], columns, [_value(c, v) for c, v in zip(columns, row[1:1 + width], strict=True)],
                        row[1 + width]), *(number(v) for v in row[2 + width:])) for row in rows]
        if cells:  # added, not set: groups the store tells apart but whose cells read the same are one cell
            conn.cursor().executemany(adding, cells)


def number(value: Any) -> Any:
    """A sum as Python gives it: PostgreSQL sums bigints into numeric (Decimal); those are whole."""
    return int(value) if isinstance(value, Decimal) else value


def conditions(question: FactQuery) -> tuple[list[str], list[Any]]:
    """The WHERE clauses (and their parameters) of a question's games, filters and `reps`, as the fact rows and the
    rollups both have those columns; a player is the facts' alone."""
    where = [f"game IN ({', '.join('?' for _ in question.games)})"]
    params: list[Any] = list(question.games)
    for name, values, null in question.where:
        either = ([f"{name} IN ({', '.join('?' for _ in values)})"] if values else []) \
            + ([f"{name} IS NULL"] if null else [])
        where.append(f"({' OR '.join(either)})" if either else "1 = 0")
        params += values
    if question.reps is not None:
        where.append("(reps & ?) <> 0")
        params.append(question.reps)
    return where, params


def sums(conn: Any, dialect: Dialect, question: FactQuery, columns: tuple[str, ...]) -> list[FactSums]:
    """`question` answered from the rollup of `columns` (what `covering` chose for it): the same groups and sums as
    the fact rows give."""
    where, params = conditions(question)
    where.append("dims = ?")
    params.append(",".join(columns))
    value = question.value
    measured = "sum(facts), 0, 0" if value is None else f"sum(n_{value}), sum(sum_{value}), sum(sq_{value})"
    by = ", ".join(question.by)
    sql = (f"SELECT {by}, sum(facts), sum(wins), {measured} FROM insight_rollups WHERE {' AND '.join(where)} "
           f"GROUP BY {by}")
    width = len(question.by)
    return [FactSums(group=tuple(_value(c, v) for c, v in zip(question.by, row[:width], strict=True)),
                     rows=number(row[width]), wins=number(row[width + 1]), n=number(row[width + 2]),
                     total=number(row[width + 3]), squares=number(row[width + 4]))
            for row in conn.execute(dialect.sql(sql), params).fetchall()]
