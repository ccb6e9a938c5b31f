"""The insights rollups: the additive sums of the fact rows per game, value of one to three dimension columns (in
`insight_rollups`) or of all seven (in `insight_cells`) and `reps`, kept by the projection's batch so that an insight
naming at most three dimensions (and no player) sums a few hundred rows instead of every fact row of its game, and a
wider one the cells of all seven, fewer and narrower than the rows. One SQL shape for both dialects and both tables.

Every sum is additive (how many rows, their wins, and per averaged column the count, sum and sum of squares of its
non-NULL values), so a batch adds its new rows' contributions and subtracts those of the rows it replaces or deletes;
a cell whose rows are all gone is deleted. `rebuild` computes every cell from the fact rows alone, as a check of the
running sums (tests compare the two) and after a bulk load of facts (bench/insights_scale.py).

A cell's identity is the canonical text of its dimension values and `reps` (NULL is a value there, which a unique
constraint over the nullable columns would not see): in `insight_rollups` that text beside the set's name (`dims`),
in `insight_cells`, whose cells all name the seven, the text's 16-byte digest (`digest`: two of a game's n cells
share one, and are summed as one, with odds of about n² / 2^129, below 10^-20 at 10^9 cells), so a question naming
four or more dimensions scans only those cells, and narrower ones (migrations postgres 0021, sqlite 0020).

The cells of all seven grow with the months the data spans. The database itself keeps, from them, the cells of a few
more sets (`insight_derived_cells`, `DERIVED`): the six dimensions but the month (bounded by those six's values
whatever the span), for a question naming four or more dimensions but not the month; each set of four holding the
month, for a question naming the month and three others; and each set of five holding the month but not both the
opening and the band, for one naming the month and four others. Triggers on `insight_cells` add each of its changes
to them (migrations postgres 0022 and 0024, sqlite 0021 and 0024), so no batch writes them and every writer of
`insight_cells` keeps them right."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations
from typing import Any

import msgspec

from store.dialect import Dialect
from store.read_models import FactQuery, FactSums

# The fact columns a question can group or filter by (service/reads/insights.py COLUMN), in one fixed order.
DIMENSION_COLUMNS = ("edition", "seats", "seat", "month", "opening", "bot", "band")
MOST = 3  # every set of up to three dimensions is kept (63 sets of the seven), and the set of all seven
AVERAGED = ("rank", "score", "moves", "seconds")  # the fact columns a metric averages
WHOLE = frozenset({"rank", "moves"})  # their sums are whole numbers (exact)
SUMS = ("facts", "wins", *(f"{part}_{column}" for column in AVERAGED for part in ("n", "sum", "sq")))


def digest(text: str) -> bytes:
    """A cell's compact identity: the first 16 bytes of the SHA-256 of its canonical text (UTF-8), as PostgreSQL's
    `substring(sha256(convert_to(cell, 'UTF8')) FROM 1 FOR 16)` gives it (migration 0021 moved cells with that)."""
    return hashlib.sha256(text.encode()).digest()[:16]


@dataclass(frozen=True)
class Cells:
    """A table of cells: its name, the dimension sets it keeps, and whether a cell is named by its set and canonical
    text (`dims`, `cell` text) or, the set being one, by the text's digest alone (`cell` bytes)."""

    table: str
    sets: tuple[tuple[str, ...], ...]
    digested: bool

    @property
    def identity(self) -> tuple[str, ...]:
        """The columns naming a cell (the table's primary key)."""
        return ("game", "cell") if self.digested else ("game", "dims", "cell")

    @property
    def key_columns(self) -> tuple[str, ...]:
        """The columns a cell's key fills: its identity, each dimension's value and `reps`."""
        return (*self.identity, *DIMENSION_COLUMNS, "reps")

    def key(self, game: str, columns: Sequence[str], values: Sequence[Any], reps: int) -> list[Any]:
        """A cell's key columns' values (each dimension's value None outside the set)."""
        named = dict(zip(columns, values, strict=True))
        text = msgspec.json.encode([*values, reps]).decode()
        identity = [game, digest(text)] if self.digested else [game, ",".join(columns), text]
        return [*identity, *(named.get(c) for c in DIMENSION_COLUMNS), reps]


UP_TO_MOST = tuple(c for size in range(1, MOST + 1) for c in combinations(DIMENSION_COLUMNS, size))
ROLLUPS = Cells("insight_rollups", UP_TO_MOST, digested=False)
CELLS = Cells("insight_cells", (DIMENSION_COLUMNS,), digested=True)
TABLES = (ROLLUPS, CELLS)  # the tables the projection's batches write
TIMELESS = tuple(c for c in DIMENSION_COLUMNS if c != "month")  # the six but the month
MONTH_FOURS = tuple(tuple(c for c in DIMENSION_COLUMNS if c in ("month", *three))  # each set of four holding the month
                    for three in combinations(TIMELESS, 3))
# Each set of five holding the month but not both the opening and the band (nine): those two have the most values, and
# a set with both has nearly as many cells as all seven (at 10^6 matches 79,000-127,000 against 222,829; the nine
# 11,000-48,000), so those six are not kept.
MONTH_FIVES = tuple(tuple(c for c in DIMENSION_COLUMNS if c in ("month", *four))
                    for four in combinations(TIMELESS, 4) if not {"opening", "band"} <= set(four))
# Kept by the database from `insight_cells` (its triggers name a cell by the JSON text of its values), for the sets its
# migrations list in `insight_derived_sets` (a test holds the two lists equal): read only here.
DERIVED = Cells("insight_derived_cells", (TIMELESS, *MONTH_FOURS, *MONTH_FIVES), digested=False)
KEPT_TABLES = tuple(table.table for table in (*TABLES, DERIVED))  # emptied in this order: the derived cells last

Changes = dict[Cells, dict[tuple[Any, ...], list[Any]]]  # per table, per cell: its key columns, then each sum's change


def covering(columns: Iterable[str], one_month: bool = False) -> tuple[str, ...] | None:
    """The dimension set whose cells answer a question naming these columns (`game` is in every one): the set of
    exactly those up to three, or four or five with the month (five: not both the opening and the band); else the six
    but the month when the month is not named; else the set of all seven (its cells are at most as many as the fact
    rows, and narrower); None for a column that is no dimension. With `one_month` (the question filters the month to
    one value and does not group by it) a question naming four or more reads that month's cells of all seven, found
    by their index on the month: at 10^6 matches over 24 months ≈ 9,300, where a set holding the month is read whole
    (up to ≈ 48,000 for a set of five: 20-30 ms against 8 ms on PostgreSQL, 55-71 against 9 on SQLite)."""
    named = set(columns) - {"game"}
    if not named or not named <= set(DIMENSION_COLUMNS):
        return None
    exactly = tuple(c for c in DIMENSION_COLUMNS if c in named)
    if len(named) > MOST and one_month:
        return DIMENSION_COLUMNS
    if len(named) <= MOST or exactly in MONTH_FOURS or exactly in MONTH_FIVES:
        return exactly
    return DIMENSION_COLUMNS if "month" in named else TIMELESS


def _value(column: str, value: Any) -> Any:
    """A dimension value in one form whatever store it was read from (a band is a float)."""
    return float(value) if column == "band" and value is not None else value


def _contribution(row: dict[str, Any], sign: int) -> list[Any]:
    """A fact row's part of each sum (negated with `sign` -1)."""
    parts: list[Any] = [sign, sign if row["result"] == "win" else 0]
    for column in AVERAGED:
        value = row[column]
        zero = 0 if column in WHOLE else 0.0
        parts += [0, zero, zero] if value is None else [sign, sign * value, sign * value * value]
    return parts


def deltas(removed: Iterable[dict[str, Any]], added: Iterable[dict[str, Any]]) -> Changes:
    """Per table and cell, its key columns' values followed by the change of each sum, for fact rows leaving and
    entering."""
    found: Changes = {table: {} for table in TABLES}
    for rows, sign in ((removed, -1), (added, 1)):
        for row in rows:
            parts = _contribution(row, sign)
            for table, kept in found.items():
                for columns in table.sets:
                    key = table.key(row["game"], columns, [_value(c, row[c]) for c in columns], row["reps"])
                    _summed_into(kept, table, key, parts)
    return found


def _summed_into(kept: dict[tuple[Any, ...], list[Any]], table: Cells, key: list[Any], parts: list[Any]) -> None:
    """Add `parts` (each sum's change) to the cell of `key` (its key columns) in `kept`, the first time its row."""
    cell = tuple(key[:len(table.identity)])
    held = kept.get(cell)
    if held is None:
        kept[cell] = [*key, *parts]
    else:
        for i, part in enumerate(parts, start=len(key)):
            held[i] += part


def apply(cursor: Any, dialect: Dialect, changes: Changes) -> None:
    """Add the changes to the stored sums, in the caller's transaction; drop the cells left without rows."""
    for table, kept in changes.items():
        width = len(table.key_columns)
        _add(cursor, dialect, table, [row for row in kept.values() if any(row[width:])])


def _add(cursor: Any, dialect: Dialect, table: Cells, moved: list[list[Any]]) -> None:
    """Add each row's sums (after its key columns) to its cell's, one row a cell; drop the cells left without rows.
    Where statements are round trips (`Dialect.json_rows`), the rows are one statement and the deletes another, not
    one a cell (a finished match moves 64 cells a seat), and `insight_cells`' triggers run once for all of them."""
    if not moved:
        return
    width, named = len(table.key_columns), len(table.identity)
    emptied = [row[:named] for row in moved if row[width] < 0]
    where = f"({', '.join(table.identity)})"
    if dialect.json_rows:
        cursor.execute(_adding(dialect, table, json=True), (dialect.encode([_json(row) for row in moved]),))
        if emptied:
            cursor.execute(dialect.sql(f"DELETE FROM {table.table} WHERE {where} IN (SELECT "
                                       f"{_read(table, table.identity)} FROM {dialect.json_rows}) AND facts = 0"),
                           (dialect.encode([_json(row) for row in emptied]),))
        return
    cursor.executemany(_adding(dialect, table), moved)
    if emptied:
        cursor.executemany(dialect.sql(
            f"DELETE FROM {table.table} WHERE {' AND '.join(f'{c} = ?' for c in table.identity)} AND facts = 0"),
            [tuple(row) for row in emptied])


def _json(row: Sequence[Any]) -> list[Any]:
    """A row of key columns and sums as a JSON array (a digest as hex)."""
    return [value.hex() if isinstance(value, bytes) else value for value in row]


def _read(table: Cells, columns: Sequence[str]) -> str:
    """The SQL reading `columns` (a prefix of the key columns, then the sums) from a JSON array row `value`, each as
    its column's type."""
    return ", ".join(f"{_typed(table, column, f'value->>{i}')}" for i, column in enumerate(columns))


def _typed(table: Cells, column: str, text: str) -> str:
    """A JSON row item's text as the column's type."""
    if column == "cell" and table.digested:
        return f"decode({text}, 'hex')"
    if column in ("game", "dims", "cell", "edition", "month", "opening", "bot"):
        return text
    part, _, averaged = column.partition("_")
    floating = column == "band" or (part in ("sum", "sq") and averaged not in WHOLE)
    return f"CAST({text} AS {'double precision' if floating else 'bigint'})"


def _adding(dialect: Dialect, table: Cells, *, json: bool = False) -> str:
    """The statement adding one cell's changes to its sums (inserting the cell when it is new); with `json`, every
    cell of one JSON array parameter (`Dialect.json_rows`)."""
    columns = (*table.key_columns, *SUMS)
    added = ", ".join(f"{name} = {_sum(table.table, name)}" for name in SUMS)
    values = (f"SELECT {_read(table, columns)} FROM {dialect.json_rows}" if json
              else f"VALUES ({', '.join('?' for _ in columns)})")
    return dialect.sql(f"INSERT INTO {table.table} ({', '.join(columns)}) {values} "
                       f"ON CONFLICT ({', '.join(table.identity)}) DO UPDATE SET {added}")


def _sum(table: str, name: str) -> str:
    """A sum plus its change; a float sum left with no values is set to 0 (not the last digits of its history)."""
    added = f"{table}.{name} + excluded.{name}"
    part, _, column = name.partition("_")
    if part in ("sum", "sq") and column not in WHOLE:
        return f"CASE WHEN {table}.n_{column} + excluded.n_{column} = 0 THEN 0 ELSE {added} END"
    return added


def reset(conn: Any, dialect: Dialect) -> None:
    """Drop every cell of every table (the facts are gone too), `insight_derived_cells` with the cells it follows: all
    at once where the store truncates (the triggers do not fire: at 10^6 matches 1 s, not the 63 s of deleting
    through them); else the cells of all seven first, whose triggers leave the derived cells empty already."""
    for statement in dialect.emptying(KEPT_TABLES):
        conn.execute(statement)


def aggregates(column: str, whole: bool) -> str:
    """The count, sum and sum of squares of a column's non-NULL values, in SQL (a whole column's squares in BIGINT:
    an INTEGER's square may not fit its type)."""
    square = f"CAST({column} AS BIGINT) * {column}" if whole else f"{column} * {column}"
    return f"count({column}), coalesce(sum({column}), 0), coalesce(sum({square}), 0)"


def rebuild(conn: Any, dialect: Dialect) -> None:
    """Every cell of every table again from the fact rows alone, in the caller's transaction: the cells of all seven
    from the rows, then every set of up to three from those cells (the same sums: they add up; a float's last digits
    may differ with the order, as a batch's do), about one cell per 13 rows, so each set's GROUP BY reads the cells,
    not the rows; `insight_derived_cells` by the database, as the cells of all seven go in."""
    reset(conn, dialect)
    fill(conn, dialect, CELLS, "insight_facts")
    fill(conn, dialect, ROLLUPS, CELLS.table)


def fill(conn: Any, dialect: Dialect, table: Cells, source: str) -> None:
    """Add the cells of a table's sets (one GROUP BY per set) to what it holds, summed from `source`: the fact rows
    (`insight_facts`) or the cells of all seven (`insight_cells`, whose sums are the same columns)."""
    if source == "insight_facts":
        sums = ", ".join(["count(*)", "sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END)",
                          *(aggregates(column, column in WHOLE) for column in AVERAGED)])
    else:
        sums = ", ".join(f"sum({name})" for name in SUMS)
    for columns in table.sets:
        listed = ", ".join(columns)
        rows = conn.execute(f"SELECT game, {listed}, reps, {sums} FROM {source} "
                            f"GROUP BY game, {listed}, reps").fetchall()
        width = len(columns)
        cells: dict[tuple[Any, ...], list[Any]] = {}
        for row in rows:  # groups the store tells apart but whose cells read the same are one cell
            key = table.key(row[0], columns, [_value(c, v) for c, v in zip(columns, row[1:1 + width], strict=True)],
                            row[1 + width])
            _summed_into(cells, table, key, [number(v) for v in row[2 + width:]])
        _add(conn.cursor(), dialect, table, list(cells.values()))


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
    table = next(table for table in (CELLS, DERIVED, ROLLUPS) if columns in table.sets)
    if "dims" in table.identity:
        where.append("dims = ?")
        params.append(",".join(columns))
    value = question.value
    measured = "sum(facts), 0, 0" if value is None else f"sum(n_{value}), sum(sum_{value}), sum(sq_{value})"
    by = ", ".join(question.by)
    sql = (f"SELECT {by}, sum(facts), sum(wins), {measured} FROM {table.table} WHERE {' AND '.join(where)} "
           f"GROUP BY {by}")
    width = len(question.by)
    return [FactSums(group=tuple(_value(c, v) for c, v in zip(question.by, row[:width], strict=True)),
                     rows=number(row[width]), wins=number(row[width + 1]), n=number(row[width + 2]),
                     total=number(row[width + 3]), squares=number(row[width + 4]))
            for row in conn.execute(dialect.sql(sql), params).fetchall()]
