"""What differs between the SQL databases in the SQL the adapters share (store/sql.py, store/sql_read_models.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Dialect:
    """What differs between PostgreSQL and SQLite in the shared SQL."""

    param: str  # "%s" or "?"
    json_number: str  # SQL of a numeric field of a read model's `doc`, with {field} in it
    lock_row: str  # suffix that locks a read model's checkpoint row (" FOR UPDATE" or "")
    encode: Callable[[Any], Any]  # a JSON document as the driver takes it
    decode: Callable[[Any], Any]  # a JSON document as the driver returns it
    stamp: Callable[[Any], str]  # a stored time as the store's ISO 8601 string
    time: Callable[[datetime], Any]  # a time as the driver takes it
    now: Callable[[], Any]  # the current time as the driver takes it
    seats_player: str  # SQL that is true when the match seats a player (by handle identity), one placeholder for it
    player: Callable[[str], Any]  # the parameter of `seats_player`
    # SQL that holds a lock named by its one text parameter until the transaction ends, so transactions that count
    # and then write under one name take turns; "" where a write transaction already excludes every other writer
    lock_name: str = ""
    # A FROM item of the rows of one JSON array parameter, each row's array as `value` (its items `value->>0`...):
    # a batch of rows sent as one statement instead of one a row; "" where statements cost no round trip (SQLite)
    json_rows: str = ""
    # Whether the database takes a list as one array parameter (PostgreSQL): then `one_of` and `each_of` are one
    # statement text whatever the list's length, which psycopg converts and PostgreSQL plans once, not a placeholder
    # per value (psycopg splits such a text in Python, ≈ 5-10 µs a placeholder: an export page's proof nodes are
    # ≈ 800 pairs, ≈ 1,600 placeholders).
    arrays: bool = False
    # Whether TRUNCATE empties tables (PostgreSQL): at once, whatever their size, and firing no DELETE trigger (a
    # reset of tables whose triggers keep others must empty those too); else DELETE, row by row through the triggers
    truncate: bool = False

    def sql(self, text: str) -> str:
        """`text` with `?` placeholders in this dialect."""
        return text.replace("?", self.param)

    def emptying(self, tables: Sequence[str]) -> list[str]:
        """The statements that empty `tables`, in their order where it matters (DELETE: each table's triggers run
        before the next is emptied); one TRUNCATE of them all where the store truncates."""
        if self.truncate:
            return [f"TRUNCATE {', '.join(tables)}"]
        return [f"DELETE FROM {table}" for table in tables]

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """SQL (`?` placeholders) that is true when `column` is one of `values` (not empty), and its parameters."""
        if self.arrays:
            return f"{column} = ANY(?)", [list(values)]
        return f"{column} IN ({', '.join('?' for _ in values)})", list(values)

    def each_of(self, table: str, columns: str, keys: dict[str, str], wanted: Sequence[tuple[Any, ...]],
                order: str | None = None) -> tuple[str, list[Any]]:
        """A SELECT (`?` placeholders) of `columns` of the rows of `table` whose `keys` columns (name: SQL type) hold
        one of the `wanted` tuples (not empty), each tuple's rows together and in `order` (None: a tuple has one row at
        most), and its parameters.

        On PostgreSQL the tuples are arrays and each one's rows are a subquery of their own: one index scan a tuple
        (an export page's 100 matches of 18,000 events: ≈ 4 ms, where `= ANY` over the table was a sequential scan of
        every event, ≈ 11 ms, and growing with the table; its 800 proof nodes: ≈ 1 ms against 6 ms as a hash join).
        The subquery's ORDER BY (by the first key when there is no `order`) keeps PostgreSQL from flattening it into a
        join again."""
        names = list(keys)
        if self.arrays:
            arrays = ", ".join(f"?::{kind}[]" for kind in keys.values())
            aliases = ", ".join(f"w{i}" for i in range(len(names)))
            match = " AND ".join(f"{table}.{name} = wanted.w{i}" for i, name in enumerate(names))
            return (f"SELECT picked.* FROM unnest({arrays}) AS wanted({aliases}) CROSS JOIN LATERAL "
                    f"(SELECT {columns} FROM {table} WHERE {match} ORDER BY {order or names[0]}) AS picked",
                    [list(values) for values in zip(*dict.fromkeys(wanted), strict=True)])
        if len(names) == 1:
            where, params = self.one_of(names[0], [values[0] for values in wanted])
        else:
            where = " OR ".join(["(" + " AND ".join(f"{name} = ?" for name in names) + ")"] * len(wanted))
            params = [value for values in wanted for value in values]
        ordered = "" if order is None else f" ORDER BY {', '.join(names)}, {order}"
        return f"SELECT {columns} FROM {table} WHERE {where}{ordered}", params
