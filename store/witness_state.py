"""A witness's state (c2sp.org/tlog-witness): per log origin, the checkpoint it last cosigned, in SQLite or PostgreSQL.

One table, `witness_checkpoints` (origin, size, root, the cosigned note, when): its own database or schema, apart
from the event store's (a witness need not run beside a Turnstile server). The state only moves by a compare-and-swap
on the stored size and root (`UPDATE … WHERE origin = ? AND size = ? AND root = ?`, or an insert that does nothing
if a row appeared meanwhile), so two requests racing can never roll it back: the loser is told the size the winner
stored. Each call opens its own connection and commits before it returns (the spec: persist before answering).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from store.base import StoreUnavailable

# The migrations, in order; `witness_schema` remembers how many ran. Written once for both databases.
MIGRATIONS = (
    """CREATE TABLE IF NOT EXISTS witness_checkpoints (
        origin TEXT PRIMARY KEY,
        size BIGINT NOT NULL CHECK (size >= 0),
        root {blob} NOT NULL,
        note TEXT NOT NULL,
        cosigned_at BIGINT NOT NULL
    )""",
)


@dataclass(frozen=True)
class Cosigned:
    """The checkpoint a witness last cosigned for one log."""

    size: int
    root: bytes
    note: str
    cosigned_at: int


class WitnessState:
    """Per origin, the last cosigned checkpoint; moved only by compare-and-swap."""

    def __init__(self, url: str, *, busy_timeout_s: float = 10.0) -> None:
        scheme, sep, rest = url.partition("://")
        if scheme == "sqlite" and sep and rest.startswith("/") and rest not in ("/", "/:memory:"):
            path = rest[1:]
            self._connect: Callable[[], Any] = lambda: sqlite3.connect(path, timeout=busy_timeout_s)
            self._mark, blob = "?", "BLOB"
        elif scheme in ("postgresql", "postgres") and sep:
            import psycopg

            self._connect = lambda: psycopg.connect(url, connect_timeout=max(1, int(busy_timeout_s)))
            self._mark, blob = "%s", "BYTEA"
        else:
            raise StoreUnavailable(f"a witness state is sqlite:///path.db or postgresql://..., not {url!r}")
        self._migrate(blob)

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """A connection inside one transaction, committed on success; StoreUnavailable when it cannot open."""
        try:
            conn = self._connect()
        except Exception as exc:  # sqlite3.OperationalError, psycopg.OperationalError
            raise StoreUnavailable(f"the witness state cannot be opened: {exc}") from exc
        try:
            with conn:  # both drivers: commit on success, roll back on an exception
                yield conn
        finally:
            conn.close()

    def _sql(self, statement: str) -> str:
        return statement.replace("?", self._mark)

    def _migrate(self, blob: str) -> None:
        with self._tx() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS witness_schema (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM witness_schema").fetchone()
            done = row[0] if row else 0
            for migration in MIGRATIONS[done:]:
                conn.execute(migration.format(blob=blob))
            if row is None:
                conn.execute(self._sql("INSERT INTO witness_schema (version) VALUES (?)"), (len(MIGRATIONS),))
            elif done < len(MIGRATIONS):
                conn.execute(self._sql("UPDATE witness_schema SET version = ?"), (len(MIGRATIONS),))

    def latest(self, origin: str) -> Cosigned | None:
        """What was last cosigned for `origin`; None when nothing ever was (the spec's size 0)."""
        with self._tx() as conn:
            row = conn.execute(self._sql(
                "SELECT size, root, note, cosigned_at FROM witness_checkpoints WHERE origin = ?"), (origin,)).fetchone()
        return None if row is None else Cosigned(int(row[0]), bytes(row[1]), row[2], int(row[3]))

    def advance(self, origin: str, old: Cosigned | None, new: Cosigned) -> bool:
        """Store `new` for `origin` if what is stored is still `old` (None: nothing); False if another request moved
        it first (nothing is written then)."""
        with self._tx() as conn:
            if old is None:
                cursor = conn.execute(self._sql(
                    "INSERT INTO witness_checkpoints (origin, size, root, note, cosigned_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (origin) DO NOTHING"), (origin, new.size, new.root, new.note, new.cosigned_at))
            else:
                cursor = conn.execute(self._sql(
                    "UPDATE witness_checkpoints SET size = ?, root = ?, note = ?, cosigned_at = ? "
                    "WHERE origin = ? AND size = ? AND root = ?"),
                    (new.size, new.root, new.note, new.cosigned_at, origin, old.size, old.root))
            return bool(cursor.rowcount == 1)
