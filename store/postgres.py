"""PostgreSQL adapter: psycopg 3 with a connection pool, jsonb documents, timestamptz times.

Appends to different matches commit concurrently: there is no store-wide lock. An append is one statement
(on an autocommit connection, so one round trip and atomic): it moves the match row from the expected version,
records the command id and inserts the events, or does nothing when the version moved on.

Positions come from an identity column, which is assigned at INSERT, not at COMMIT, so a reader of "after
position P" could see P+2 commit before P+1 and pass over P+1 for good. Instead of serialising appends, each
event records its transaction id (`xid`, a xid8), and `read_all` returns only events of transactions older than
every transaction that could still add one: the horizon is the oldest transaction in progress in the reader's
snapshot, leaving out those that `pg_stat_activity` shows working in other databases of the cluster (they cannot
write our events; a transaction it cannot place, e.g. one that ended a moment ago, still counts). Events are read
in (xid, position) order: no transaction can still commit below the horizon, so that order is final when read.
A long write transaction in this database (a projection batch, say) holds readers back until it ends; moves are
never held back. Nor do appends notify in their own transaction (PostgreSQL serialises notifying commits on one
lock): the store announces committed appends from a thread of its own (store/announce.py).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any

import msgspec
import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.types.json import Jsonb, set_json_dumps, set_json_loads
from psycopg_pool import ConnectionPool

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
from store.announce import Announcer
from store.async_connections import AsyncConnections
from store.base import (
    AppendResult,
    ConflictError,
    MatchExists,
    MatchNotFound,
    RecordCorrupt,
    Snapshot,
    StoreUnavailable,
    appended,
    iso,
    replayed,
    utc_now,
    with_positions,
)
from store.deadline import watched
from store.dialect import Dialect
from store.exports import ExportSpan
from store.sql import EVENT_COLUMNS, INSERT_MATCH, MATCH_COLUMN_COUNT, MATCH_COLUMNS, SqlStore

# The NOTIFY channel on which the store announces which matches moved, after their appends commit
# (store/announce.py; heard by api/listener.py).
CHANNEL = "turnstile_moves"
# An arbitrary constant ("TS" + purpose) naming the advisory lock that serialises migrations.
MIGRATE_LOCK = 0x5453_0002
# A request's connection is cut this long after its statement timeout (the server's own cancel comes first).
DEADLINE_MARGIN_S = 2.0

# Events below this transaction horizon are final: every transaction that could still add one is younger. The
# horizon is the oldest transaction in progress, unless pg_stat_activity places it in another database (xid8 values
# are matched to its 32-bit backend_xid by their low 32 bits: running transactions are never 2^31 apart).
_HORIZON_XID = (
    "coalesce((SELECT min(running) FROM pg_snapshot_xip(pg_current_snapshot()) AS running "
    "WHERE mod(running::text::bigint, 4294967296) NOT IN (SELECT backend_xid::text::bigint FROM pg_stat_activity "
    "WHERE datname IS DISTINCT FROM current_database() AND backend_xid IS NOT NULL)), "
    "pg_snapshot_xmax(pg_current_snapshot()))"
)
_HORIZON = f"xid < {_HORIZON_XID}"
# (xid, position) of the event at a position; ('0', 0) before the first (rows older than the xid column have 0).
_CURSOR = "(coalesce((SELECT xid FROM events WHERE position = %(after)s), '0'::xid8), %(after)s::bigint)"
# The same with `?` placeholders (the position twice), for the SQL shared with SQLite (store/sql_exports.py).
_AT = "(coalesce((SELECT x.xid FROM events x WHERE x.position = ?), '0'::xid8), ?::bigint)"


def _stamp(moment: datetime | str) -> str:
    """A timestamptz as the store's ISO form; one the query already wrote so (`_EXPORT_EVENT_COLUMNS`) as it is."""
    return moment if type(moment) is str else iso(moment)  # type: ignore[arg-type]


# The events' columns as the bulk export reads them: `recorded_at` written by the server in the store's ISO form
# (`iso`: microseconds always, UTC, "Z"), which saves formatting thousands of datetimes a page in Python.
_EXPORT_EVENT_COLUMNS = EVENT_COLUMNS.replace(
    "recorded_at", "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')")

DIALECT = Dialect(
    param="%s",
    json_number="(doc->>'{field}')::float8",
    lock_row=" FOR UPDATE",  # concurrent workers of one projection take turns, never fold a batch twice
    encode=Jsonb,
    decode=lambda doc: doc,  # jsonb arrives decoded (see _configure)
    stamp=_stamp,
    time=lambda moment: moment,
    now=utc_now,
    seats_player="seats @> %s",  # served by the GIN (jsonb_path_ops) index
    player=lambda player: Jsonb([{"identity": identity(player)}]),
    lock_name="SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
    json_rows="jsonb_array_elements(%s::jsonb) AS r(value)",
    arrays=True,
    truncate=True,
)
# Events go in as one JSON array of rows, whatever their number (`jsonb_to_recordset`): one statement text for
# appends of any size (psycopg converts it once and PostgreSQL prepares it once), and the rows become one parameter
# in one msgspec call, not twelve parameters an event (psycopg adapts those one by one in Python).
_INSERT_EVENTS = (
    "INSERT INTO events (match_id, recorded_at, version, type, payload, public_payload, seat, command, command_id, "
    "commitment, prev_hash, hash) "
    "SELECT %s, %s::timestamptz, new.* FROM jsonb_to_recordset(%s::jsonb) AS new(version int, type text, "
    "payload jsonb, public_payload jsonb, seat int, command jsonb, command_id text, commitment text, prev_hash text, "
    "hash text)"
)

# The sequencer's leaves and nodes, each batch one JSON array of rows (a node's hash in hex).
_INSERT_LEAVES = (
    "INSERT INTO log_leaves (idx, match_id, version, hash, position) SELECT (r->>0)::bigint, r->>1, (r->>2)::int, "
    "r->>3, (r->>4)::bigint FROM jsonb_array_elements(%s::jsonb) AS r"
)
_INSERT_NODES = (
    "INSERT INTO log_nodes (level, idx, hash) SELECT (r->>0)::int, (r->>1)::bigint, decode(r->>2, 'hex') "
    "FROM jsonb_array_elements(%s::jsonb) AS r"
)


def _command_recorded_meanwhile(exc: errors.UniqueViolation) -> bool:
    """Whether an append failed because its command id was recorded meanwhile (a concurrent retry): it then wrote
    nothing, and is answered with the original, like any replay."""
    return exc.diag.constraint_name == "commands_pkey"


def _positions(rows: list[tuple[int, int]]) -> list[int]:
    """The positions an append's (version, position) rows gave its events, in version order."""
    return [position for _, position in sorted(rows)]


def _configure(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> None:
    # msgspec is ~2x faster than the json module both ways; jsonb comes back as plain dicts.
    set_json_dumps(msgspec.json.encode, conn)
    set_json_loads(msgspec.json.decode, conn)


def with_setting(conninfo: str, name: str, value: str) -> str:
    """`conninfo` with a server setting for every session (added to the options it may already carry)."""
    params = conninfo_to_dict(conninfo)
    params["options"] = f"{params.get('options') or ''} -c {name}={value}".strip()
    return make_conninfo("", **params)


def read_only(conninfo: str) -> str:
    """`conninfo` with every transaction read-only: a write sent to a replica by mistake fails at once, not on a
    standby's refusal (or worse, on a writable copy)."""
    return with_setting(conninfo, "default_transaction_read_only", "on")


_CREATE_SQL = f"{_INSERT_EVENTS} RETURNING version, position"
_MATCH_ROW = f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = %s"
_EVENTS_AFTER = f"SELECT {EVENT_COLUMNS} FROM events WHERE match_id = %s AND version > %s ORDER BY version"
# The two above as one statement (one snapshot, no pipeline): the match's columns on every row, then an event's, or
# NULLs when no event follows `after_version` (a cached match that is current gets one row and no event).
_MATCH_WITH_EVENTS_AFTER = (
    f"SELECT m.*, e.* FROM (SELECT {MATCH_COLUMNS} FROM matches WHERE id = %s) AS m LEFT JOIN LATERAL "
    f"(SELECT {EVENT_COLUMNS} FROM events WHERE match_id = m.id AND version > %s AND version <= m.version) AS e "
    "ON true ORDER BY e.version"
)

_APPEND_SQL = (
    # An append as one atomic statement: move the row from the expected version, record the command, insert. When
    # the row is not at the expected version, `moved` is empty and nothing is written (no rows come back). A command
    # id already used on the match violates the commands primary key, and the whole statement fails.
    "WITH moved AS (UPDATE matches SET version = %s, head_hash = %s, updated_at = %s, "
    "status = coalesce(%s::text, status), "
    "seats = coalesce(%s::jsonb, seats), "
    # The sweep's hint: none once ended, else the earlier of the row's and this append's (LEAST skips NULLs).
    "due_at = CASE WHEN %s THEN NULL ELSE LEAST(due_at, %s::timestamptz) END "
    "WHERE id = %s AND version = %s AND head_hash = %s "
    # Never extend a chain cut short: the event at the expected version must be the recorded head.
    "AND EXISTS (SELECT 1 FROM events WHERE match_id = %s AND version = %s AND hash = %s) "
    "RETURNING id), "
    "command AS (INSERT INTO commands (match_id, command_id, first_version, last_version) "
    "SELECT id, %s, %s, %s FROM moved WHERE %s::text IS NOT NULL), "
    f"appended AS ({_INSERT_EVENTS} WHERE EXISTS (SELECT 1 FROM moved) RETURNING version, position) "
    "SELECT version, position FROM appended"
)


def _event_params(built: Sequence[StoredEvent], now: datetime) -> list[Any]:
    """The parameters of `_INSERT_EVENTS`: the match, the time and the rows (a JSON null is SQL's NULL)."""
    # `now` is the datetime behind every event's recorded_at string (hashed); timestamptz keeps its µs.
    return [built[0].match_id, now, Jsonb([
        {"version": e.version, "type": e.type, "payload": e.payload, "public_payload": e.public_payload,
         "seat": e.seat, "command": e.command, "command_id": e.command_id, "commitment": e.commitment,
         "prev_hash": e.prev_hash, "hash": e.hash} for e in built])]


class PostgresStore(SqlStore):
    """EventStore on PostgreSQL; `conninfo` is a libpq URL or key=value string."""

    dialect = DIALECT
    schema_folder = "postgres"
    export_event_columns = _EXPORT_EVENT_COLUMNS
    log_lock = " FOR UPDATE SKIP LOCKED"  # one sequencer at a time across every process; the others pass
    # Run first in migrations and projection batches: background work is not held to the requests' statement timeout.
    unbounded = "SET LOCAL statement_timeout = 0"

    def __init__(self, conninfo: str, *, min_size: int = 1, max_size: int = 10, timeout_s: float = 15.0,
                 statement_timeout_s: float = 0.0) -> None:
        """`statement_timeout_s` > 0: every statement is cancelled past it, raising `psycopg.errors.QueryCanceled`
        (the transaction it was part of writes nothing), but those of migrations and projection batches
        (`unbounded`)."""
        if statement_timeout_s > 0:
            conninfo = with_setting(conninfo, "statement_timeout", f"{max(1, round(statement_timeout_s * 1000))}ms")
        self._conninfo = conninfo
        # A server that does not answer at all (stalled, or a network holding packets) never delivers the statement
        # timeout's cancel: a connection still in use this much later is cut (store/deadline.py).
        self._deadline_s = statement_timeout_s + DEADLINE_MARGIN_S if statement_timeout_s > 0 else 0.0
        try:  # one plain connection first: a wrong URL or missing database is said at once, not after the timeout
            psycopg.connect(conninfo, connect_timeout=max(1, int(timeout_s))).close()
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot open the PostgreSQL store: {str(exc).strip()}") from None
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
        self._announcer = Announcer(lambda: psycopg.connect(conninfo, autocommit=True,
                                                            connect_timeout=max(1, int(timeout_s))), CHANNEL)
        self._async = AsyncConnections(conninfo, _configure, keep=max_size, timeout_s=timeout_s,
                                       deadline_s=self._deadline_s)
        try:
            self._migrate()
        except BaseException:
            self._pool.close()
            raise

    @classmethod
    def read_replica(cls, conninfo: str, *, timeout_s: float = 1.0, max_size: int = 10) -> PostgresStore:
        """A store on a read replica of the primary's database: every transaction read-only, no migrations (the
        primary's schema arrives by replication), and nothing waited for here (a replica down at start is read
        around, and its pool connects when it comes back)."""
        store = cls.__new__(cls)
        store._conninfo = conninfo
        store._deadline_s = 0.0  # a hung replica costs a timeout in ReplicaReads, then is read around
        store._pool = ConnectionPool(
            read_only(conninfo), min_size=1, max_size=max_size, timeout=timeout_s, configure=_configure,
            check=ConnectionPool.check_connection,  # a replica restarted meanwhile: a fresh connection, not an error
            kwargs={"autocommit": True, "connect_timeout": max(2, int(timeout_s))},
            name="turnstile-replica", open=True)
        store._announcer = Announcer(lambda: None, CHANNEL)  # never used: a replica takes no appends
        store._async = AsyncConnections(read_only(conninfo), _configure, keep=max_size, timeout_s=timeout_s)
        return store

    # ---- plumbing --------------------------------------------------------------------------------

    def _migrate(self) -> None:
        with self._background_transaction() as conn:  # a migration of a large table takes what it takes
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


    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, cut if still in use past the deadline (store/deadline.py)."""
        with self._pool.connection() as conn, watched(conn, self._deadline_s):
            yield conn

    def _reading(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        return self._connection()  # autocommit: reads need no transaction

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        with self._connection() as conn, conn.transaction():
            yield conn

    @contextmanager
    def _background_transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A transaction held to neither the statement timeout nor the deadline: migrations, projection batches."""
        with self._pool.connection() as conn, conn.transaction():
            conn.execute(self.unbounded)
            yield conn

    # ---- writes ----------------------------------------------------------------------------------

    def create_match(self, match: NewMatch, events: Sequence[NewEvent], *,
                     due_in_s: float | None = None, command_id: str | None = None) -> AppendResult:
        """Insert the match row and its first events 1..n in one transaction; a taken id -> MatchExists."""
        checked = check_events(events)
        now = utc_now()
        built = build_events(match.id, 0, GENESIS, iso(now), checked, None, None, None)
        try:
            # Pipeline: BEGIN, both INSERTs and COMMIT go out together: one round trip.
            with self._connection() as conn, conn.pipeline(), conn.transaction():
                conn.execute(DIALECT.sql(INSERT_MATCH),
                             (*self.match_params(match, first_status(checked), len(built), now, built[-1].hash),
                              self.due_param(now, due_in_s, ends_match(checked))))
                self.link_rematch(conn, match)
                cur = conn.execute(_CREATE_SQL, _event_params(built, now))
                if command_id is not None:
                    conn.execute("INSERT INTO commands (match_id, command_id, first_version, last_version) "
                                 "VALUES (%s, %s, %s, %s)", (match.id, command_id, 1, len(built)))
        except errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "matches_pkey":
                raise MatchExists(match.id) from None
            raise
        self._announcer.moved(match.id)
        return appended(with_positions(built, _positions(cur.fetchall())), duplicate=False)

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
        """Append events at expected_version+1.. atomically; a replayed command id returns the original.

        With `head_hash` (the hash of event `expected_version`, e.g. from a cached state) the append is one
        round trip; without it the row is read first.
        """
        checked = check_events(events)
        command = None if command is None else clean_json(command, "command")
        with self._connection() as conn:
            if head_hash is None:
                row = conn.execute("SELECT version, head_hash FROM matches WHERE id = %s", (match_id,)).fetchone()
                if row is None:
                    raise MatchNotFound(match_id)
                if row[0] != expected_version:
                    return self._not_appended(conn, match_id, expected_version, seat, command, command_id)
                head_hash = str(row[1])
            built, params = self._appending(match_id, expected_version, head_hash, checked, seat, command,
                                            command_id, seats, due_in_s)
            try:
                positions = _positions(conn.execute(_APPEND_SQL, params).fetchall())
            except errors.UniqueViolation as exc:
                if not _command_recorded_meanwhile(exc):
                    raise
                positions = []
            if not positions:
                return self._not_appended(conn, match_id, expected_version, seat, command, command_id)
        self._announcer.moved(match_id)  # after the commit: listeners that read now find the events
        return appended(with_positions(built, positions), duplicate=False)

    async def append_async(
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
        """`append` on the caller's event loop: the same statement on an async connection. What is not the common
        case (no head hash, nothing appended) is `append`'s own path, on a worker thread."""
        if head_hash is None:
            return await asyncio.to_thread(functools.partial(
                self.append, match_id, expected_version, events, seat=seat, command=command, command_id=command_id,
                seats=seats, due_in_s=due_in_s))
        checked = check_events(events)
        command = None if command is None else clean_json(command, "command")
        built, params = self._appending(match_id, expected_version, head_hash, checked, seat, command, command_id,
                                        seats, due_in_s)
        try:
            async with self._async.connection() as conn:
                cur = await conn.execute(_APPEND_SQL, params)
                positions = _positions(await cur.fetchall())
        except errors.UniqueViolation as exc:
            if not _command_recorded_meanwhile(exc):
                raise
            positions = []
        if not positions:
            return await asyncio.to_thread(self._why_not_appended, match_id, expected_version, seat, command,
                                           command_id)
        self._announcer.moved(match_id)
        return appended(with_positions(built, positions), duplicate=False)

    def _appending(self, match_id: str, expected_version: int, head_hash: str, checked: Sequence[NewEvent],
                   seat: int | None, command: dict[str, Any] | None, command_id: str | None,
                   seats: Sequence[SeatRecord] | None, due_in_s: float | None) -> tuple[list[StoredEvent], list[Any]]:
        """The events an append stores, chained on `head_hash`, and the parameters of `_APPEND_SQL` storing them."""
        now = utc_now()
        built = build_events(match_id, expected_version, head_hash, iso(now), checked, seat, command, command_id)
        last, ends = built[-1], ends_match(checked)
        return built, [last.version, last.hash, now, status_after(checked),
                       None if seats is None else self.seats_param(seats), ends, self.due_param(now, due_in_s, ends),
                       match_id, expected_version, head_hash, match_id, expected_version, head_hash,
                       command_id, built[0].version, last.version, command_id, *_event_params(built, now)]

    def _why_not_appended(self, match_id: str, expected_version: int, seat: int | None,
                          command: dict[str, Any] | None, command_id: str | None) -> AppendResult:
        with self._connection() as conn:
            return self._not_appended(conn, match_id, expected_version, seat, command, command_id)

    def _not_appended(self, conn: psycopg.Connection[Any], match_id: str, expected_version: int, seat: int | None,
                      command: dict[str, Any] | None, command_id: str | None) -> AppendResult:
        """Why an append wrote nothing: its command id was already recorded (the original), or a conflict."""
        row = conn.execute(
            "SELECT m.version, c.first_version, c.last_version FROM matches m "
            "LEFT JOIN commands c ON c.match_id = m.id AND c.command_id = %s WHERE m.id = %s",
            (command_id, match_id),
        ).fetchone()
        if row is None:
            raise MatchNotFound(match_id)
        version, first, last = row
        if first is not None and command_id is not None:
            return replayed(self._read_match(conn, match_id, first, last), command_id, seat, command)
        if version == expected_version:  # the version matched, so the head did not: the chain was cut or spliced
            raise RecordCorrupt(match_id, f"the stored events do not end at the head recorded for version {version}")
        raise ConflictError(match_id, expected_version, version)

    def _log_entries(self, conn: Any, after: int, limit: int) -> list[tuple[str, int, str, int]]:
        return conn.execute(f"SELECT match_id, version, hash, position FROM events WHERE (xid, position) > {_CURSOR} "
                            f"AND {_HORIZON} ORDER BY xid, position LIMIT %(limit)s",
                            {"after": after, "limit": limit}).fetchall()  # type: ignore[no-any-return]

    def _ended_after(self, after: int) -> tuple[str, list[Any], str]:
        """The export's `match.ended` events after the one at `after` in read_all's order: (xid, position) below
        the horizon, so an export resumed from a position never passes over a match that finished committing late."""
        return f"(events.xid, events.position) > {_AT} AND events.{_HORIZON}", [after, after], \
            "events.xid, events.position"

    def _at_most_few(self, conn: Any, rows: str, value: Any) -> bool:
        return False  # the planner weighs a game's or player's matches itself (its statistics, the GIN index's)

    def _ended_up_to(self, last: int) -> tuple[str, list[Any]]:
        return f"(events.xid, events.position) <= {_AT}", [last, last]

    def _ended_unsettled(self, after: int, settled: int) -> tuple[str, list[Any]]:
        """The events after the one at `after` whose transaction had not ended below the horizon `settled`: one
        keyset from the later of the two (a row of scalars, which the (xid, position) index takes as its start)."""
        at_xid, horizon = "coalesce((SELECT x.xid FROM events x WHERE x.position = ?), '0'::xid8)", "?::text::xid8"
        start = f"(greatest({at_xid}, {horizon}), CASE WHEN {at_xid} >= {horizon} THEN ?::bigint ELSE -1 END)"
        return f"(events.xid, events.position) > {start} AND events.{_HORIZON}", \
            [after, str(settled), after, str(settled), after]

    def _span_of(self, times: list[str], params: list[Any], after: int) -> ExportSpan:
        """The span below the horizon, in one statement (one snapshot): the ended events in the time range (a range
        scan of `events_ended_time_idx`, which carries their (xid, position); the cursor is applied to what it gives,
        so that it never becomes a scan of the log order instead), the first and last of them after the cursor, and
        the ended event just before that first (the cursor to start from)."""
        sql = (f"WITH settled AS MATERIALIZED (SELECT {_HORIZON_XID} AS xid), "
               "inside AS MATERIALIZED (SELECT xid, position FROM events WHERE type = 'match.ended' AND "
               f"{' AND '.join(times)} AND xid < (SELECT xid FROM settled)), "
               f"later AS MATERIALIZED (SELECT xid, position FROM inside WHERE (xid, position) > {_AT}), "
               "first AS MATERIALIZED (SELECT xid, position FROM later ORDER BY xid, position LIMIT 1) "
               "SELECT settled.xid::text, (SELECT position FROM later ORDER BY xid DESC, position DESC LIMIT 1), "
               "(SELECT position FROM first), (SELECT e.position FROM events e WHERE e.type = 'match.ended' "
               "AND (e.xid, e.position) < ((SELECT xid FROM first), (SELECT position FROM first)) "
               "ORDER BY e.xid DESC, e.position DESC LIMIT 1) FROM settled")
        with self._reading() as conn:
            row = conn.execute(self.dialect.sql(sql), [*params, after, after]).fetchone()
        assert row is not None  # one row: FROM the one-row `settled`
        settled, last, first, before = row
        if first is None:
            return ExportSpan(after, None, int(settled))
        return ExportSpan(0 if before is None else int(before), int(last), int(settled))

    def _insert_log(self, conn: Any, leaves: list[tuple[Any, ...]], nodes: list[tuple[Any, ...]]) -> None:
        """The sequencer's rows as two statements of one JSON parameter each, whatever the batch (psycopg dumps
        arrays element by element in Python; one JSON document is one msgspec call)."""
        conn.execute(_INSERT_LEAVES, [Jsonb(leaves)])
        if nodes:  # one leaf appended at an even index makes no node above level 0
            conn.execute(_INSERT_NODES, [Jsonb([(level, idx, digest.hex()) for level, idx, digest in nodes])])

    # ---- reads -----------------------------------------------------------------------------------

    def match_with_events(self, match_id: str, after_version: int = 0) -> tuple[MatchRecord, list[StoredEvent]]:
        """The match row and its events after `after_version` up to the row's version, in one round trip."""
        with self._connection() as conn:
            with conn.pipeline():
                # The row is read first, so the events (a later snapshot) hold at least every version up to its own.
                row_cursor = conn.execute(_MATCH_ROW, (match_id,))
                events_cursor = conn.execute(_EVENTS_AFTER, (match_id, after_version))
            # Fetched once the pipeline has synced: fetching inside it would wait for the results, then again
            # for the sync (two round trips instead of one).
            row = row_cursor.fetchone()
            rows = events_cursor.fetchall()
        return self._match_and_events(match_id, row, rows)

    async def match_with_events_async(self, match_id: str,
                                      after_version: int = 0) -> tuple[MatchRecord, list[StoredEvent]]:
        """`match_with_events` on the caller's event loop (an async connection), in one statement: no pipeline to
        enter and leave, which costs this path (usually no event to read) more than the query."""
        async with self._async.connection() as conn:
            rows = await (await conn.execute(_MATCH_WITH_EVENTS_AFTER, (match_id, after_version))).fetchall()
        if not rows:
            raise MatchNotFound(match_id)
        split = MATCH_COLUMN_COUNT
        return self.match_of(rows[0][:split]), [self.event_of(r[split:]) for r in rows if r[split] is not None]

    def _match_and_events(self, match_id: str, row: tuple[Any, ...] | None,
                          rows: list[tuple[Any, ...]]) -> tuple[MatchRecord, list[StoredEvent]]:
        """The match row and its events up to the row's version (the events were read after the row)."""
        if row is None:
            raise MatchNotFound(match_id)
        record = self.match_of(row)
        return record, [self.event_of(r) for r in rows if r[1] <= record.version]

    def match_with_snapshot(self, match_id: str,
                            fingerprint: str) -> tuple[MatchRecord, Snapshot | None, list[StoredEvent]]:
        """The match row, its snapshot if saved with `fingerprint`, and its events from the snapshot's version (from
        the first without one) up to the row's version, in one round trip (a second only when a snapshot is saved
        between its two statements)."""
        with self._connection() as conn:
            with conn.pipeline():
                # The row and its snapshot in one statement (a snapshot is saved after its append commits, so it
                # is never past the row), then the events from the snapshot's version as that statement finds it.
                row_cursor = conn.execute(
                    f"SELECT m.*, s.version, s.fingerprint, s.head_hash, s.state FROM (SELECT {MATCH_COLUMNS} FROM "
                    "matches WHERE id = %s) AS m LEFT JOIN snapshots AS s ON s.match_id = m.id AND s.fingerprint = %s",
                    (match_id, fingerprint),
                )
                events_cursor = conn.execute(
                    f"SELECT {EVENT_COLUMNS} FROM events WHERE match_id = %s AND version >= coalesce((SELECT "
                    "version FROM snapshots WHERE match_id = %s AND fingerprint = %s), 1) ORDER BY version",
                    (match_id, match_id, fingerprint),
                )
            row, rows = row_cursor.fetchone(), events_cursor.fetchall()
            if row is None:
                raise MatchNotFound(match_id)
            record = self.match_of(row[:MATCH_COLUMN_COUNT])
            snapshot = None if row[MATCH_COLUMN_COUNT] is None else self.snapshot_of(row[MATCH_COLUMN_COUNT:])
            return record, *self.snapshot_and_events(conn, record, snapshot, [self.event_of(r) for r in rows])

    def read_all(self, after_position: int = 0, limit: int = 500, *, owner: str | None = None) -> list[StoredEvent]:
        """The global log after the event at `after_position`, in (transaction, position) order, below the horizon."""
        mine = "" if owner is None else " AND match_id IN (SELECT id FROM matches WHERE owner = %(owner)s)"
        with self._connection() as conn:
            cur = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE (xid, position) > {_CURSOR} AND {_HORIZON}{mine} "
                "ORDER BY xid, position LIMIT %(limit)s",
                {"after": after_position, "limit": limit, "owner": owner},
            )
            return [self.event_of(r) for r in cur.fetchall()]  # fetchall: rows built in one call, not one by one

    def head_position(self) -> int:
        """The position of the last event read_all can return now (0 when the log is empty)."""
        with self._connection() as conn:
            row = conn.execute(
                f"SELECT position FROM events WHERE {_HORIZON} ORDER BY xid DESC, position DESC LIMIT 1"
            ).fetchone()
        return 0 if row is None else int(row[0])

    def events_after(self, position: int) -> int:
        """How many events read_all would still return after the event at `position`."""
        with self._connection() as conn:
            row = conn.execute(
                f"SELECT count(*) FROM events WHERE (xid, position) > {_CURSOR} AND {_HORIZON}", {"after": position}
            ).fetchone()
        assert row is not None
        return int(row[0])

    def log_reached(self, at: int, target: int) -> bool:
        """Whether a reader that has read up to position `at` has read the event at position `target`."""
        with self._connection() as conn:
            found = dict(conn.execute(
                "SELECT position, xid::text FROM events WHERE position = ANY(%s)", ([at, target],)
            ).fetchall())
        if target not in found:  # no such event (an aborted transaction's position): compare numbers
            return at >= target
        return (int(found.get(at, 0)), at) >= (int(found[target]), target)

    async def moves(self) -> AsyncIterator[str]:
        """The ids of matches as other processes append to them (LISTEN on CHANNEL), until cancelled."""
        async with await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            async for note in conn.notifies():
                for match_id in note.payload.split(","):  # an announcement names every match moved meanwhile
                    yield match_id

    def close(self) -> None:
        """Send the moves not yet announced, release connections; the store is unusable afterwards."""
        self._announcer.close()
        self._async.close()
        self._pool.close()
