"""PostgreSQL adapter: psycopg 3 with a connection pool, jsonb documents, timestamptz times.

Positions come from an identity column, which is assigned at INSERT, not at COMMIT: unguarded, a
reader of "after position P" could see P+2 commit before P+1 and pass over P+1 for good. Every
transaction that inserts events therefore takes one transaction-scoped advisory lock just before its
INSERT and holds it to COMMIT, so positions become visible strictly in order (PostgreSQL makes a commit
visible before it releases the transaction's locks). The lock is taken last, after the per-match row
lock, the Python work (hashing) and the match-row UPDATE, so it covers only the events INSERT + COMMIT.
The cost: appends commit one at a time across the whole store (measured in bench/README.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from typing import Any

import msgspec
import psycopg
from psycopg import errors
from psycopg.types.json import Jsonb, set_json_dumps, set_json_loads
from psycopg_pool import ConnectionPool

from store import migrations
from store.base import (
    AppendResult,
    ConflictError,
    MatchExists,
    MatchNotFound,
    MatchRecord,
    NewEvent,
    SeatRecord,
    StoredEvent,
    StoreError,
    appended,
    build_events,
    check_events,
    clean_json,
    iso,
    replayed,
    status_after,
    utc_now,
    with_positions,
)
from store.chain import GENESIS
from store.read_models import Checkpoint, DocRow
from store.sql_read_models import Dialect, SqlBatch, all_checkpoints, open_batch, query_docs, reset

# Arbitrary constants ("TS" + purpose) naming the two advisory locks of this application.
APPEND_LOCK = 0x5453_0001
MIGRATE_LOCK = 0x5453_0002

_EVENT_COLUMNS = "match_id, version, position, type, payload, seat, command, command_id, recorded_at, prev_hash, hash"
_MATCH_COLUMNS = (
    "id, game, rules_version, seats, options, seed, seed_commitment, status, version, created_at, updated_at, head_hash"
)
_DIALECT = Dialect(
    param="%s",
    json_number="(doc->>'{field}')::float8",
    lock_row=" FOR UPDATE",  # concurrent workers of one projection take turns, never fold a batch twice
    encode=Jsonb,
    decode=lambda doc: doc,  # jsonb arrives decoded (see _configure)
    stamp=iso,
    now=utc_now,
)
_INSERT_COLUMNS = "match_id, version, type, payload, seat, command, command_id, recorded_at, prev_hash, hash"


def _configure(conn: psycopg.Connection[Any]) -> None:
    # msgspec is ~2x faster than the json module both ways; jsonb comes back as plain dicts.
    set_json_dumps(msgspec.json.encode, conn)
    set_json_loads(msgspec.json.decode, conn)


@lru_cache(maxsize=64)
def _insert_sql(rows: int) -> str:
    """One multi-row INSERT per append (one statement, one round trip), cached per row count."""
    values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"] * rows)
    return f"INSERT INTO events ({_INSERT_COLUMNS}) VALUES {values} RETURNING version, position"


class PostgresStore:
    """EventStore on PostgreSQL; `conninfo` is a libpq URL or key=value string."""

    def __init__(self, conninfo: str, *, min_size: int = 1, max_size: int = 10, timeout_s: float = 15.0) -> None:
        self._pool = ConnectionPool(
            conninfo,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout_s,
            kwargs={"autocommit": True},  # reads need no transaction; writes open one explicitly
            configure=_configure,
            name="turnstile-store",
            open=True,
        )
        try:
            self._migrate()
        except BaseException:
            self._pool.close()
            raise

    # ---- plumbing --------------------------------------------------------------------------------

    def _migrate(self) -> None:
        with self._pool.connection() as conn, conn.transaction():
            # Two processes opening at once: the second waits here, then finds nothing left to do.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATE_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(number integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {n for (n,) in conn.execute("SELECT number FROM schema_migrations")}
            for step in migrations.load("postgres"):
                if step.number not in done:
                    conn.execute(step.sql.encode())  # no parameters: may hold several statements
                    conn.execute(
                        "INSERT INTO schema_migrations (number, name) VALUES (%s, %s)", (step.number, step.name)
                    )

    @staticmethod
    def _insert_events(
        conn: psycopg.Connection[Any], built: Sequence[StoredEvent], now: datetime
    ) -> psycopg.Cursor[Any]:
        # `now` is the datetime behind every event's recorded_at string (hashed); timestamptz keeps its µs.
        params: list[Any] = []
        for e in built:
            params += [
                e.match_id, e.version, e.type, Jsonb(e.payload), e.seat,
                None if e.command is None else Jsonb(e.command), e.command_id,
                now, e.prev_hash, e.hash,
            ]
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (APPEND_LOCK,))
        return conn.execute(_insert_sql(len(built)), params)

    @staticmethod
    def _positions(cur: psycopg.Cursor[Any]) -> list[int]:
        return [position for _, position in sorted(cur.fetchall())]

    def _command_events(self, conn: psycopg.Connection[Any], match_id: str, command_id: str) -> list[StoredEvent]:
        row = conn.execute(
            "SELECT first_version, last_version FROM commands WHERE match_id = %s AND command_id = %s",
            (match_id, command_id),
        ).fetchone()
        return [] if row is None else self._read_match(conn, match_id, row[0], row[1])

    @staticmethod
    def _read_match(conn: psycopg.Connection[Any], match_id: str, lo: int, hi: int | None) -> list[StoredEvent]:
        if hi is None:
            cur = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE match_id = %s AND version >= %s ORDER BY version",
                (match_id, lo),
            )
        else:
            cur = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE match_id = %s AND version BETWEEN %s AND %s "
                "ORDER BY version",
                (match_id, lo, hi),
            )
        return [_event(r) for r in cur]

    # ---- writes ----------------------------------------------------------------------------------

    def create_match(self, match: MatchRecord, events: Sequence[NewEvent]) -> AppendResult:
        """Insert the match row and its first events 1..n in one transaction; a taken id -> MatchExists."""
        payloads = check_events(events)
        options = clean_json(match.options, "options")
        seats = clean_json(msgspec.to_builtins(match.seats), "seats")
        now = utc_now()
        built = build_events(match.id, 0, GENESIS, iso(now), events, payloads, None, None, None)
        try:
            # Pipeline: BEGIN, both INSERTs and COMMIT go out together: one round trip.
            with self._pool.connection() as conn, conn.pipeline(), conn.transaction():
                conn.execute(
                    f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (
                        match.id, match.game, match.rules_version, Jsonb(seats),
                        Jsonb(options), match.seed, match.seed_commitment, status_after("active", events),
                        len(built), now, now, built[-1].hash,
                    ),
                )
                cur = self._insert_events(conn, built, now)
        except errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "matches_pkey":
                raise MatchExists(match.id) from None
            raise
        return appended(with_positions(built, self._positions(cur)), duplicate=False)

    def append(
        self,
        match_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        seat: int | None,
        command: dict[str, Any] | None,
        command_id: str | None,
    ) -> AppendResult:
        """Append events at expected_version+1.. atomically; a replayed command id returns the original."""
        payloads = check_events(events)
        command = None if command is None else clean_json(command, "command")
        try:
            with self._pool.connection() as conn, conn.pipeline(), conn.transaction():
                # FOR UPDATE serialises appends to one match, so the version check and the command-id
                # check below stay true until COMMIT.
                row = conn.execute(
                    "SELECT m.version, m.head_hash, m.status, c.first_version, c.last_version FROM matches m "
                    "LEFT JOIN commands c ON c.match_id = m.id AND c.command_id = %s "
                    "WHERE m.id = %s FOR UPDATE OF m",
                    (command_id, match_id),
                ).fetchone()
                if row is None:
                    raise MatchNotFound(match_id)
                version, head_hash, status, first, last = row
                if first is not None and command_id is not None:
                    return replayed(self._read_match(conn, match_id, first, last), command_id, seat, command)
                if version != expected_version:
                    raise ConflictError(match_id, expected_version, version)
                now = utc_now()
                built = build_events(
                    match_id, version, head_hash, iso(now), events, payloads, seat, command, command_id
                )
                conn.execute(
                    "UPDATE matches SET version = %s, status = %s, head_hash = %s, updated_at = %s WHERE id = %s",
                    (built[-1].version, status_after(status, events), built[-1].hash, now, match_id),
                )
                if command_id is not None:
                    conn.execute(
                        "INSERT INTO commands (match_id, command_id, first_version, last_version) "
                        "VALUES (%s, %s, %s, %s)",
                        (match_id, command_id, built[0].version, built[-1].version),
                    )
                # Last, so the global append lock is held only for this INSERT and the COMMIT.
                cur = self._insert_events(conn, built, now)
        except errors.UniqueViolation:
            # Only reachable if the row lock above were bypassed; the database still forbids two writes.
            if command_id is not None and (found := self.find_command(match_id, command_id)) is not None:
                return replayed(found.events, command_id, seat, command)
            current = self.get_match(match_id)
            raise ConflictError(match_id, expected_version, current.version if current else -1) from None
        return appended(with_positions(built, self._positions(cur)), duplicate=False)

    def create_app_key(self, name: str, key_hash: str) -> None:
        """Record an app key by its hash; re-creating the same (name, hash) is harmless."""
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO app_keys (key_hash, name) VALUES (%s, %s) ON CONFLICT DO NOTHING", (key_hash, name)
            )
            stored = conn.execute("SELECT name FROM app_keys WHERE key_hash = %s", (key_hash,)).fetchone()
        if stored is None or stored[0] != name:
            raise StoreError(f"app key hash already belongs to {stored[0] if stored else None!r}")

    # ---- reads -----------------------------------------------------------------------------------

    def read_match(self, match_id: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
        """Events of one match with from_version <= version <= to_version, in version order."""
        with self._pool.connection() as conn:
            return self._read_match(conn, match_id, from_version, to_version)

    def read_all(self, after_position: int = 0, limit: int = 500) -> list[StoredEvent]:
        """The global log after a position, in position order; never passes over a late commit."""
        with self._pool.connection() as conn:
            cur = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > %s ORDER BY position LIMIT %s",
                (after_position, limit),
            )
            return [_event(r) for r in cur]

    def head_position(self) -> int:
        """The highest position read_all can return now (0 when the log is empty)."""
        with self._pool.connection() as conn:
            row = conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()
        assert row is not None
        return int(row[0])

    def get_match(self, match_id: str) -> MatchRecord | None:
        """The match row, or None."""
        with self._pool.connection() as conn:
            row = conn.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = %s", (match_id,)).fetchone()
        return None if row is None else _match(row)

    def list_matches(
        self,
        *,
        game: str | None = None,
        player: str | None = None,
        status: str | None = None,
        after: tuple[datetime, str] | None = None,
        limit: int = 50,
    ) -> list[MatchRecord]:
        """Matches newest first by (created_at, id); `after` is the `match_key` to continue after."""
        where: list[str] = []
        params: list[Any] = []
        if game is not None:
            where.append("game = %s")
            params.append(game)
        if status is not None:
            where.append("status = %s")
            params.append(status)
        if player is not None:
            where.append("seats @> %s")  # served by the GIN (jsonb_path_ops) index
            params.append(Jsonb([{"player": player}]))
        if after is not None:
            where.append("(created_at, id) < (%s, %s)")  # a keyset: served by the (created_at, id) indexes
            params += [after[0], after[1]]
        sql = f"SELECT {_MATCH_COLUMNS} FROM matches"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY created_at DESC, id DESC LIMIT %s"
        with self._pool.connection() as conn:
            rows = conn.execute(sql, [*params, limit]).fetchall()
        return [_match(r) for r in rows]

    def find_command(self, match_id: str, command_id: str) -> AppendResult | None:
        """The result of an earlier append with this command id (duplicate=True), or None."""
        with self._pool.connection() as conn:
            original = self._command_events(conn, match_id, command_id)
        return appended(original, duplicate=True) if original else None

    def app_key_name(self, key_hash: str) -> str | None:
        """The name of the app key with this hash, or None."""
        with self._pool.connection() as conn:
            row = conn.execute("SELECT name FROM app_keys WHERE key_hash = %s", (key_hash,)).fetchone()
        return None if row is None else str(row[0])

    # ---- read models (see store/read_models.py) ---------------------------------------------------

    @contextmanager
    def read_model_batch(self, projection: str, version: int) -> Iterator[SqlBatch]:
        """Lock the projection's checkpoint row (FOR UPDATE) for one batch; rolls back on error."""
        with (
            self._pool.connection() as conn,
            conn.transaction(),
            open_batch(conn, _DIALECT, projection, version) as batch,
        ):
            yield batch

    def checkpoints(self) -> list[Checkpoint]:
        """Every projection's checkpoint."""
        with self._pool.connection() as conn:
            return all_checkpoints(conn, _DIALECT)

    def reset_read_model(self, projection: str) -> None:
        """Drop a projection's documents and checkpoint."""
        with self._pool.connection() as conn, conn.transaction():
            reset(conn, _DIALECT, projection)

    def docs(self, projection: str, kind: str, *, key: str | None = None, group: str | None = None,
             min_field: tuple[str, float] | None = None, after: tuple[float, str] | None = None,
             limit: int = 100) -> list[DocRow]:
        """Documents of a kind, by key or group; ordered by rank descending then key."""
        with self._pool.connection() as conn:
            return query_docs(conn, _DIALECT, projection, kind, key=key, group=group, min_field=min_field,
                              after=after, limit=limit)

    def close(self) -> None:
        """Release connections; the store is unusable afterwards."""
        self._pool.close()


def _event(row: tuple[Any, ...]) -> StoredEvent:
    match_id, version, position, type_, payload, seat, command, command_id, recorded_at, prev_hash, hash_ = row
    return StoredEvent(
        match_id, version, position, type_, payload, seat, command, command_id, iso(recorded_at), prev_hash, hash_
    )


def _match(row: tuple[Any, ...]) -> MatchRecord:
    id_, game, rules, seats, options, seed, commitment, status, version, created, updated, head = row
    return MatchRecord(
        id_, game, rules, msgspec.convert(seats, tuple[SeatRecord, ...]), options, seed, commitment, status,
        version, iso(created), iso(updated), head,
    )
