"""A fresh event store of each kind per test, plus raw database access for the tests that need it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from store.base import EventStore
from store.factory import open_store
from store.sqlite import SqliteStore

KINDS = ["sqlite-memory", "sqlite-file", pytest.param("postgres", marks=pytest.mark.postgres)]

# Test-only DDL: makes inserting an event of type 'boom' fail inside the database, mid-append.
_BOOM = {
    "sqlite": "CREATE TRIGGER boom BEFORE INSERT ON events WHEN NEW.type = 'boom' "
    "BEGIN SELECT RAISE(ABORT, 'boom'); END",
    "postgres": "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN RAISE EXCEPTION 'boom'; END $$; "
    "CREATE TRIGGER boom BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.type = 'boom') EXECUTE FUNCTION boom()",
}
# Test-only DDL: a pause after each events INSERT, widening the gap between assigning positions and
# committing them, so an unguarded reader would reliably pass over a late commit.
_SLOW = (
    "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN PERFORM pg_sleep(random() * 0.003); RETURN NULL; END $$; "
    "CREATE TRIGGER slow AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION slow()"
)


class Harness:
    """One store under test, the URL it was opened from, and raw SQL on the same database."""

    def __init__(self, kind: str, url: str) -> None:
        self.kind = kind
        self.url = url
        self.store: EventStore = open_store(url)
        self._others: list[EventStore] = []

    def raw(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run SQL around the store (own connection), committing; driver errors propagate."""
        if self.kind == "sqlite-memory":
            # :memory: exists only inside the store's connection.
            assert isinstance(self.store, SqliteStore)
            with self.store._lock:
                return self.store._conn.execute(sql, params).fetchall()
        if self.kind == "sqlite-file":
            lite = sqlite3.connect(self.url.removeprefix("sqlite:///"), isolation_level=None)
            try:
                return lite.execute(sql, params).fetchall()
            finally:
                lite.close()
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            # Without parameters psycopg may send several ';'-separated statements at once.
            cur = conn.execute(sql.encode(), params or None)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []

    def make_boom_fail(self) -> None:
        """From now on, inserting an event of type 'boom' raises inside the database."""
        self.raw(_BOOM["postgres" if self.kind == "postgres" else "sqlite"])

    def slow_commits(self) -> None:
        """PostgreSQL only: pause between an events INSERT and its COMMIT."""
        if self.kind == "postgres":
            self.raw(_SLOW)

    def reopen(self) -> EventStore:
        """A second store on the same database (what another process would get)."""
        other = open_store(self.url)
        self._others.append(other)
        return other

    def close(self) -> None:
        for other in self._others:
            other.close()
        self.store.close()


@pytest.fixture(params=KINDS)
def harness(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Harness]:
    """A fresh, empty store of each kind: SQLite in memory, a SQLite file, a PostgreSQL schema."""
    kind = request.param
    if kind == "sqlite-memory":
        url = "sqlite:///:memory:"
    elif kind == "sqlite-file":
        url = f"sqlite:///{tmp_path / 'events.db'}"
    else:
        url = request.getfixturevalue("pg_clean_url")
    h = Harness(kind, url)
    try:
        yield h
    finally:
        h.close()


@pytest.fixture
def store(harness: Harness) -> EventStore:
    """The fresh store of the current kind."""
    return harness.store
