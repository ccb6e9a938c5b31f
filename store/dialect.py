"""What differs between the SQL databases in the SQL the adapters share (store/sql.py, store/sql_read_models.py)."""

from __future__ import annotations

from collections.abc import Callable
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

    def sql(self, text: str) -> str:
        """`text` with `?` placeholders in this dialect."""
        return text.replace("?", self.param)
