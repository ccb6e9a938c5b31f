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
    # Whether the database takes a list as one array parameter (PostgreSQL): then `one_of` and `pair_of` are one
    # statement text whatever the list's length, which psycopg converts and PostgreSQL plans once, not a placeholder
    # per value (psycopg splits such a text in Python, ≈ 5-10 µs a placeholder, and an export page's proof nodes are
    # ≈ 800 pairs: as an OR of pairs PostgreSQL took ≈ 40 ms to plan and run it, ≈ 10 ms as an array join).
    arrays: bool = False

    def sql(self, text: str) -> str:
        """`text` with `?` placeholders in this dialect."""
        return text.replace("?", self.param)

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """SQL (`?` placeholders) that is true when `column` is one of `values` (not empty), and its parameters."""
        if self.arrays:
            return f"{column} = ANY(?)", [list(values)]
        return f"{column} IN ({', '.join('?' for _ in values)})", list(values)

    def pair_of(self, columns: tuple[str, str], pairs: Sequence[tuple[int, int]]) -> tuple[str, list[Any]]:
        """SQL (`?` placeholders) that is true when the two integer `columns` are one of `pairs` (not empty), and its
        parameters."""
        first, second = columns
        if self.arrays:
            return (f"({first}, {second}) IN (SELECT * FROM unnest(?::bigint[], ?::bigint[]))",
                    [[a for a, _ in pairs], [b for _, b in pairs]])
        either = " OR ".join([f"({first} = ? AND {second} = ?)"] * len(pairs))
        return f"({either})", [n for pair in pairs for n in pair]
