"""SQLite adapter: the embedded default. One connection, one lock, `BEGIN IMMEDIATE` for every write.

SQLite has a single writer anyway, so one connection guarded by a lock loses little and keeps
`:memory:` (which exists only inside its connection) identical to a file. Because a write holds the
database's write lock from before it reads the head position until it commits, positions commit in
order and read_all can never pass over a late commit.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import msgspec

from domain.handles import identity
from ledger.chain import GENESIS
from ledger.events import (
    MatchRecord,
    NewEvent,
    NewMatch,
    SeatRecord,
    StoredEvent,
    build_events,
    check_events,
    clean_json,
    ends_match,
    first_status,
    status_after,
)
from store import migrations
from store import sql_insight_rollups as rollups
from store.base import (
    AppendResult,
    ConflictError,
    MatchExists,
    MatchNotFound,
    RecordCorrupt,
    Snapshot,
    appended,
    iso,
    replayed,
    utc_now,
    with_positions,
)
from store.dialect import Dialect
from store.sql import EVENT_COLUMNS, INSERT_MATCH, MATCH_COLUMNS, SNAPSHOT_COLUMNS, SqlStore

DIALECT = Dialect(
    param="?",
    json_number="CAST(json_extract(doc, '$.{field}') AS REAL)",
    lock_row="",  # BEGIN IMMEDIATE already holds the database's write lock
    encode=lambda doc: msgspec.json.encode(doc).decode(),
    decode=msgspec.json.decode,
    stamp=str,
    time=iso,  # fixed-width ISO text sorts as the times do
    now=lambda: iso(utc_now()),
    # A lookup of (identity, match) in match_players (migration 0022) for each match a query walks: never the
    # query's driver, which would read all of a common player's matches and sort them (an IN list would also be
    # built from all of them first); a player in few matches has them read first instead (`_player_first`).
    seats_player="EXISTS (SELECT 1 FROM match_players WHERE identity = ? AND match_id = matches.id)",
    player=identity,
    lock_name="",  # BEGIN IMMEDIATE: one writer at a time, every process of the file included
)
_encode = msgspec.json.encode


class SqliteStore(SqlStore):
    """EventStore on a SQLite file (WAL) or `:memory:`."""

    dialect = DIALECT
    schema_folder = "sqlite"
    one_writer = True

    def __init__(self, path: str, *, busy_timeout_s: float = 10.0) -> None:
        # Reads take the lock too: on one shared connection, a read would otherwise see another thread's
        # uncommitted (and possibly rolled-back) write.
        self._lock = threading.RLock()
        # isolation_level=None: no implicit transactions; we issue BEGIN IMMEDIATE / COMMIT ourselves.
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=busy_timeout_s)
        if path != ":memory:":
            self._enable_wal(busy_timeout_s)
        self._conn.execute("PRAGMA synchronous=FULL")  # an acknowledged append survives power loss
        # A handle's identity (domain/handles.py) for SQL: migration 0018 gives each stored seat its player's.
        self._conn.create_function("turnstile_identity", 1, identity, deterministic=True)
        # An insights cell's digest (store/sql_insight_rollups.py): migration 0020 names the cells it moves with it.
        self._conn.create_function("turnstile_cell_digest", 1, rollups.digest, deterministic=True)
        # Migrations run with foreign keys off: rebuilding a referenced table (SQLite's way to change a CHECK) needs
        # it, and a check after them proves no reference was left dangling.
        self._migrate()
        self._conn.execute("PRAGMA foreign_keys=ON")

    # ---- plumbing --------------------------------------------------------------------------------

    def _enable_wal(self, timeout_s: float) -> None:
        # Switching to WAL needs a moment of exclusive access and ignores the busy timeout: when several
        # processes open a new file at once, all but one see "database is locked" and simply try again.
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                self._conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            # IMMEDIATE takes the write lock now, so what we read below cannot change before COMMIT.
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    def _migrate(self) -> None:
        with self._write() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            done = {n for (n,) in conn.execute("SELECT number FROM schema_migrations")}
            for step in migrations.load("sqlite"):
                if step.number in done:
                    continue
                for statement in _statements(step.sql):
                    conn.execute(statement)
                if conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                    raise RuntimeError(f"sqlite migration {step.number} left a dangling reference")
                conn.execute(
                    "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)",
                    (step.number, step.name, iso(utc_now())),
                )

    def _insert_events(self, conn: sqlite3.Connection, built: Sequence[StoredEvent]) -> tuple[StoredEvent, ...]:
        (head,) = conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()
        stored = with_positions(built, range(head + 1, head + 1 + len(built)))
        conn.executemany(
            f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    e.match_id, e.version, e.position, e.type, _encode(e.payload), e.seat, _text(e.command),
                    e.command_id, e.recorded_at, e.prev_hash, e.hash, _text(e.public_payload), e.commitment,
                )
                for e in stored
            ],
        )
        return stored

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._conn

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._write()

    # ---- writes ----------------------------------------------------------------------------------

    def create_match(self, match: NewMatch, events: Sequence[NewEvent], *,
                     due_in_s: float | None = None, command_id: str | None = None) -> AppendResult:
        """Insert the match row and its first events 1..n in one transaction; a taken id -> MatchExists."""
        checked = check_events(events)
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM matches WHERE id = ?", (match.id,)).fetchone():
                raise MatchExists(match.id)
            moment = utc_now()
            now = iso(moment)
            built = build_events(match.id, 0, GENESIS, now, checked, None, None, None)
            conn.execute(INSERT_MATCH,
                         (*self.match_params(match, first_status(checked), len(built), now, built[-1].hash),
                          self.due_param(moment, due_in_s, ends_match(checked))))
            self.link_rematch(conn, match)
            stored = self._insert_events(conn, built)
            if command_id is not None:
                self._record_command(conn, match.id, command_id, stored)
        return appended(stored, duplicate=False)

    def append(
        self,
        match_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        seat: int | None,
        command: dict[str, Any] | None,
        command_id: str | None,
        head_hash: str | None = None,
        seats: Sequence[SeatRecord] | None = None,
        due_in_s: float | None = None,
    ) -> AppendResult:
        """Append events at expected_version+1.. atomically; a replayed command id returns the original."""
        checked = check_events(events)
        command = None if command is None else clean_json(command, "command")
        with self._write() as conn:
            row = conn.execute("SELECT version, head_hash FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise MatchNotFound(match_id)
            if command_id is not None:
                original = self._command_events(conn, match_id, command_id)
                if original:
                    return replayed(original, command_id, seat, command)
            version, head = row
            if version != expected_version:
                raise ConflictError(match_id, expected_version, version)
            last = conn.execute("SELECT hash FROM events WHERE match_id = ? AND version = ?", (match_id, version))
            if last.fetchone() != (head,):  # never extend a chain cut short or spliced
                raise RecordCorrupt(match_id, f"the stored events do not end at the head of version {version}")
            moment = utc_now()
            now = iso(moment)
            built = build_events(match_id, version, head, now, checked, seat, command, command_id)
            stored = self._insert_events(conn, built)
            due = self.due_param(moment, due_in_s, ends_match(checked))
            conn.execute(
                "UPDATE matches SET version = ?, head_hash = ?, updated_at = ?, "
                "status = coalesce(?, status), "
                # The sweep's hint: none once ended, else the earlier of the row's and this append's (SQLite's
                # two-argument min() is NULL when either is, hence the coalesce).
                "seats = coalesce(?, seats), due_at = CASE WHEN ? THEN NULL ELSE coalesce(min(due_at, ?), due_at, ?) "
                "END WHERE id = ?",
                (stored[-1].version, stored[-1].hash, now, status_after(checked),
                 None if seats is None else self.seats_param(seats), ends_match(checked), due, due, match_id),
            )
            if command_id is not None:
                self._record_command(conn, match_id, command_id, stored)
        return appended(stored, duplicate=False)

    @staticmethod
    def _record_command(conn: sqlite3.Connection, match_id: str, command_id: str,
                        stored: Sequence[StoredEvent]) -> None:
        """The command id an append's (or a creation's) events were written under, for retries to find."""
        conn.execute("INSERT INTO commands (match_id, command_id, first_version, last_version) VALUES (?, ?, ?, ?)",
                     (match_id, command_id, stored[0].version, stored[-1].version))

    # ---- reads -----------------------------------------------------------------------------------

    def match_with_events(self, match_id: str, after_version: int = 0) -> tuple[MatchRecord, list[StoredEvent]]:
        """The match row and its events after `after_version` up to the row's version (one read under the lock)."""
        with self._lock:
            row = self._conn.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise MatchNotFound(match_id)
            return self.match_of(row), self._read_match(self._conn, match_id, after_version + 1, None)

    async def match_with_events_async(self, match_id: str,
                                      after_version: int = 0) -> tuple[MatchRecord, list[StoredEvent]]:
        """`match_with_events` on a worker thread (SQLite's driver has no async side)."""
        return await asyncio.to_thread(self.match_with_events, match_id, after_version)

    async def append_async(self, match_id: str, expected_version: int, events: Sequence[NewEvent], *,
                           seat: int | None, command: dict[str, Any] | None, command_id: str | None,
                           head_hash: str | None = None, seats: Sequence[SeatRecord] | None = None,
                           due_in_s: float | None = None) -> AppendResult:
        """`append` on a worker thread."""
        return await asyncio.to_thread(functools.partial(
            self.append, match_id, expected_version, events, seat=seat, command=command, command_id=command_id,
            head_hash=head_hash, seats=seats, due_in_s=due_in_s))

    def match_with_snapshot(self, match_id: str,
                            fingerprint: str) -> tuple[MatchRecord, Snapshot | None, list[StoredEvent]]:
        """The match row, its snapshot if saved with `fingerprint`, and its events from the snapshot's version (from
        the first without one) up to the row's version (one read under the lock)."""
        with self._lock:
            row = self._conn.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise MatchNotFound(match_id)
            found = self._conn.execute(f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE match_id = ? AND "
                                       "fingerprint = ?", (match_id, fingerprint)).fetchone()
            record, snapshot = self.match_of(row), None if found is None else self.snapshot_of(found)
            return record, *self.snapshot_and_events(self._conn, record, snapshot, [])

    def read_all(self, after_position: int = 0, limit: int = 500, *, owner: str | None = None) -> list[StoredEvent]:
        """The global log after a position, in position order (commit order: SQLite has one writer at a time)."""
        mine = "" if owner is None else " AND match_id IN (SELECT id FROM matches WHERE owner = ?)"
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE position > ?{mine} ORDER BY position LIMIT ?",
                (after_position, *(() if owner is None else (owner,)), limit),
            ).fetchall()
        return [self.event_of(r) for r in rows]

    def head_position(self) -> int:
        """The position of the last event read_all can return now (0 when the log is empty)."""
        with self._lock:
            (head,) = self._conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()
        return int(head)

    def events_after(self, position: int) -> int:
        """How many events read_all would still return after the event at `position`."""
        with self._lock:
            (count,) = self._conn.execute("SELECT count(*) FROM events WHERE position > ?", (position,)).fetchone()
        return int(count)

    def log_reached(self, at: int, target: int) -> bool:
        """Whether a reader that has read up to position `at` has read the event at position `target`."""
        return at >= target

    def close(self) -> None:
        """Release connections; the store is unusable afterwards."""
        with self._lock:
            self._conn.close()


def _text(value: Any) -> str | None:
    return None if value is None else _encode(value).decode()


def _statements(script: str) -> Iterator[str]:
    """Split a SQL script into complete statements (trigger bodies contain semicolons)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending.strip()
            pending = ""
    if pending.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in pending.splitlines()
    ):
        raise ValueError(f"incomplete SQL statement in migration: {pending[:80]!r}")
