"""What both SQL adapters share: one SQL shape for reads, snapshots, app keys, read models and webhooks, two dialects.

An adapter (store/postgres.py, store/sqlite.py) subclasses `SqlStore` and keeps only what differs: how it holds
connections (`_reading`, `_transaction`), its migrations, and its writes of events (append, create_match) with
the guard each database needs so readers of the global log never pass over a late commit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timedelta
from typing import Any

import msgspec

from domain.handles import identity
from ledger.events import MatchRecord, NewMatch, SeatRecord, StoredEvent, clean_json
from store import sql_facts
from store.base import KEY_ID_LENGTH, AppendResult, AppKey, MatchNotFound, RematchExists, Snapshot, StoreError, appended
from store.dialect import Dialect
from store.read_models import Checkpoint, DocRow, FactQuery, FactSums
from store.sql_exports import SqlExports
from store.sql_read_models import SqlBatch, all_checkpoints, open_batch, query_docs, reset
from store.sql_tournaments import SqlTournaments
from store.sql_transparency import SqlTransparency
from store.sql_webhooks import SqlWebhooks

EVENT_COLUMNS = (
    "match_id, version, position, type, payload, seat, command, command_id, recorded_at, prev_hash, hash, "
    "public_payload, commitment"
)
MATCH_COLUMNS = (
    "id, game, rules_version, seats, options, seed, seed_commitment, seed_source, client_entropy, server_seed, "
    "scheme, owner, visibility, status, version, created_at, updated_at, head_hash, rematch_of, rematch"
)

MATCH_COLUMN_COUNT = MATCH_COLUMNS.count(",") + 1
# A new match row (MATCH_COLUMNS, then the deadline sweep's `due_at` hint), `?` placeholders (Dialect.sql).
INSERT_MATCH = f"INSERT INTO matches ({MATCH_COLUMNS}, due_at) VALUES ({', '.join(['?'] * (MATCH_COLUMN_COUNT + 1))})"

SNAPSHOT_COLUMNS = "version, fingerprint, head_hash, state"


_seats = msgspec.convert


class SqlStore(SqlWebhooks, SqlTransparency, SqlTournaments, SqlExports):
    """The reads every SQL adapter does the same way, over the connections its subclass holds (and the webhooks' and
    the transparency log's)."""

    dialect: Dialect
    match_columns = MATCH_COLUMNS
    event_columns = EVENT_COLUMNS
    export_event_columns = EVENT_COLUMNS
    schema_folder: str  # the folder of store/migrations this adapter's schema comes from
    # Whether a write transaction holds the database's only write lock (SQLite): then a projection batch makes moves
    # wait behind it, and the in-process runner keeps its batches small (service/reads/notify.py).
    one_writer = False

    def _reading(self) -> AbstractContextManager[Any]:
        """A connection for reads."""
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Any]:
        """A connection inside a transaction that commits on success and rolls back on error."""
        raise NotImplementedError

    def _background_transaction(self) -> AbstractContextManager[Any]:
        """A transaction not held to the requests' bounds (statement timeout, deadline): a projection batch (a
        projection whose version changed deletes all of its documents in one statement)."""
        return self._transaction()

    # ---- rows ------------------------------------------------------------------------------------

    def event_of(self, row: tuple[Any, ...]) -> StoredEvent:
        """An events row (EVENT_COLUMNS) as a StoredEvent."""
        d = self.dialect
        (match_id, version, position, type_, payload, seat, command, command_id, recorded_at, prev_hash, hash_,
         public_payload, commitment) = row
        public = None if public_payload is None else d.decode(public_payload)
        return StoredEvent(match_id, version, position, type_, d.decode(payload), seat,
                           None if command is None else d.decode(command), command_id, d.stamp(recorded_at),
                           prev_hash, hash_, public_payload=public, commitment=commitment)

    def match_of(self, row: tuple[Any, ...]) -> MatchRecord:
        """A matches row (MATCH_COLUMNS) as a MatchRecord."""
        d = self.dialect
        (id_, game, rules, seats, options, seed, commitment, source, entropy, server_seed, scheme, owner, visibility,
         status, version, created, updated, head, rematch_of, rematch) = row
        return MatchRecord(
            id=id_, game=game, rules_version=rules, seats=_seats(d.decode(seats), tuple[SeatRecord, ...]),
            options=d.decode(options), seed=seed, seed_commitment=commitment, seed_source=source,
            client_entropy=entropy, server_seed=server_seed, scheme=scheme, owner=owner, visibility=visibility,
            status=status, version=version, created_at=d.stamp(created), updated_at=d.stamp(updated), head_hash=head,
            rematch_of=rematch_of, rematch=rematch,
        )

    def match_params(self, match: NewMatch, status: str, version: int, now: Any, head: str) -> tuple[Any, ...]:
        """The parameters of an INSERT of MATCH_COLUMNS for a new match."""
        d = self.dialect
        return (match.id, match.game, match.rules_version, self.seats_param(match.seats),
                d.encode(clean_json(match.options, "options")), match.seed, match.seed_commitment, match.seed_source,
                match.client_entropy, match.server_seed, match.scheme, match.owner, match.visibility, status, version,
                now, now, head, match.rematch_of, None)

    def seats_param(self, seats: Sequence[SeatRecord]) -> Any:
        """The seats column's value for these seats, each with the `identity` of its player (domain/handles.py), the
        form `list_matches(player=...)` finds them by: "Ada" and "ada" are one player there, as everywhere."""
        rows = [{**msgspec.to_builtins(seat), "identity": identity(seat.player)} for seat in seats]
        return self.dialect.encode(clean_json(rows, "seats"))

    def link_rematch(self, conn: Any, match: NewMatch) -> None:
        """Within a new match's creating transaction: name it as the rematch of the match it replays, once."""
        if match.rematch_of is None:
            return
        linked = conn.execute(self.dialect.sql("UPDATE matches SET rematch = ? WHERE id = ? AND rematch IS NULL "
                                               "RETURNING id"), (match.id, match.rematch_of)).fetchone()
        if linked is None:
            row = conn.execute(self.dialect.sql("SELECT rematch FROM matches WHERE id = ?"),
                               (match.rematch_of,)).fetchone()
            if row is None:
                raise MatchNotFound(match.rematch_of)
            raise RematchExists(match.rematch_of, row[0])

    # ---- events and matches ----------------------------------------------------------------------

    def _read_match(self, conn: Any, match_id: str, lo: int, hi: int | None) -> list[StoredEvent]:
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE match_id = ? AND version >= ?"
        params: list[Any] = [match_id, lo]
        if hi is not None:
            sql += " AND version <= ?"
            params.append(hi)
        rows = conn.execute(self.dialect.sql(sql + " ORDER BY version"), params).fetchall()  # built in one call
        return [self.event_of(r) for r in rows]

    def _command_events(self, conn: Any, match_id: str, command_id: str) -> list[StoredEvent]:
        row = conn.execute(self.dialect.sql(
            "SELECT first_version, last_version FROM commands WHERE match_id = ? AND command_id = ?"),
            (match_id, command_id)).fetchone()
        return [] if row is None else self._read_match(conn, match_id, row[0], row[1])

    def read_match(self, match_id: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
        """Events of one match with from_version <= version <= to_version, in version order."""
        with self._reading() as conn:
            return self._read_match(conn, match_id, from_version, to_version)

    def get_match(self, match_id: str) -> MatchRecord | None:
        """The match row, or None."""
        with self._reading() as conn:
            row = conn.execute(self.dialect.sql(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?"),
                               (match_id,)).fetchone()
        return None if row is None else self.match_of(row)

    def list_matches(self, *, game: str | None = None, player: str | None = None, status: str | None = None,
                     visibility: str | None = None, owner: str | None = None,
                     after: tuple[datetime, str] | None = None, limit: int = 50) -> list[MatchRecord]:
        """Matches newest first by (created_at, id); `after` is the `match_key` to continue after."""
        d = self.dialect
        where: list[str] = []
        params: list[Any] = []
        for condition, value in (("game = ?", game), ("status = ?", status), ("visibility = ?", visibility),
                                 ("owner = ?", owner)):
            if value is not None:
                where.append(condition)
                params.append(value)
        if player is not None:
            where.append(d.seats_player)
            params.append(d.player(player))
        if after is not None:
            where.append("(created_at, id) < (?, ?)")  # a keyset, served by the (created_at, id) indexes
            params += [d.time(after[0]), after[1]]
        with self._reading() as conn:
            first = None if player is None else self._player_first(conn, player)  # a player in few: theirs first
            if first is not None:
                where, params = [*first.where, *where], [*first.params, *params]
            sql = f"SELECT {MATCH_COLUMNS} FROM {'matches' if first is None else first.matches}"
            if where:
                sql += " WHERE " + " AND ".join(where)
            rows = conn.execute(d.sql(sql + " ORDER BY created_at DESC, id DESC LIMIT ?"), [*params, limit])
            return [self.match_of(r) for r in rows.fetchall()]

    def find_command(self, match_id: str, command_id: str) -> AppendResult | None:
        """The result of an earlier append with this command id (duplicate=True), or None."""
        with self._reading() as conn:
            original = self._command_events(conn, match_id, command_id)
        return appended(original, duplicate=True) if original else None

    # ---- the deadline sweep's hints (service/matches/deadlines.py) ---------------------------------------

    def due_param(self, now: datetime, due_in_s: float | None, ended: bool) -> Any:
        """The `due_at` candidate of a write recorded at `now` (None: none), as the driver takes it."""
        return None if due_in_s is None or ended else self.dialect.time(now + timedelta(seconds=due_in_s))

    def due_matches(self, now: datetime, limit: int = 200,
                    after: tuple[datetime, str] | None = None) -> list[tuple[datetime, str]]:
        """(due_at, id) of the matches due at `now`, earliest first, after `after`: read from the partial index."""
        d = self.dialect
        sql = "SELECT due_at, id FROM matches WHERE due_at IS NOT NULL AND due_at <= ?"
        params: list[Any] = [d.time(now)]
        if after is not None:
            sql += " AND (due_at, id) > (?, ?)"
            params += [d.time(after[0]), after[1]]
        with self._reading() as conn:
            rows = conn.execute(d.sql(sql + " ORDER BY due_at, id LIMIT ?"), [*params, limit]).fetchall()
        return [(datetime.fromisoformat(d.stamp(due)), id_) for due, id_ in rows]

    def set_due(self, match_id: str, version: int, due_at: datetime | None) -> bool:
        """Set the match's `due_at` hint if its row is still at `version`; True when set."""
        d = self.dialect
        with self._transaction() as conn:
            row = conn.execute(d.sql("UPDATE matches SET due_at = ? WHERE id = ? AND version = ? RETURNING id"),
                               (None if due_at is None else d.time(due_at), match_id, version)).fetchone()
        return row is not None

    # ---- snapshots (service/matches/snapshots.py) ----------------------------------------------------------

    @staticmethod
    def snapshot_of(row: tuple[Any, ...]) -> Snapshot:
        """A snapshots row (SNAPSHOT_COLUMNS) as a Snapshot."""
        return Snapshot(row[0], row[1], row[2], bytes(row[3]))

    def snapshot_and_events(self, conn: Any, record: MatchRecord, snapshot: Snapshot | None,
                            events: list[StoredEvent]) -> tuple[Snapshot | None, list[StoredEvent]]:
        """`match_with_snapshot`'s snapshot and events, from those read: the snapshot unless it is past the row (saved
        after an append the row read does not show), and the events from its version (from the first without one) up
        to the row's. When a snapshot saved between the reads left the events starting later, they are read again.
        """
        if snapshot is not None and snapshot.version > record.version:
            snapshot = None
        lo = 1 if snapshot is None else snapshot.version
        if not events or events[0].version > lo:
            events = self._read_match(conn, record.id, lo, record.version)
        return snapshot, [e for e in events if lo <= e.version <= record.version]

    def snapshot(self, match_id: str) -> Snapshot | None:
        """The match's saved snapshot (of any fingerprint), or None."""
        with self._reading() as conn:
            row = conn.execute(self.dialect.sql(f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE match_id = ?"),
                               (match_id,)).fetchone()
        return None if row is None else self.snapshot_of(row)

    def save_snapshot(self, match_id: str, snapshot: Snapshot, *, replace: bool = False) -> None:
        """Save the match's snapshot unless the saved one is as new or newer and of the same fingerprint (two
        processes saving at once keep the newer); `replace` saves it whatever is saved (that one did not fit)."""
        d = self.dialect
        keep = "" if replace else (" WHERE snapshots.version < excluded.version "
                                   "OR snapshots.fingerprint <> excluded.fingerprint")
        with self._transaction() as conn:
            conn.execute(d.sql(
                "INSERT INTO snapshots (match_id, version, fingerprint, head_hash, state, saved_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, "
                "fingerprint = excluded.fingerprint, head_hash = excluded.head_hash, state = excluded.state, "
                "saved_at = excluded.saved_at" + keep),
                (match_id, snapshot.version, snapshot.fingerprint, snapshot.head_hash, snapshot.state, d.now()))

    # ---- app keys --------------------------------------------------------------------------------

    def create_app_key(self, name: str, key_hash: str) -> None:
        """Record an app key by its hash; re-creating the same (name, hash) is harmless."""
        with self._transaction() as conn:
            conn.execute(self.dialect.sql("INSERT INTO app_keys (key_hash, name) VALUES (?, ?) ON CONFLICT DO NOTHING"),
                         (key_hash, name))
            stored = conn.execute(self.dialect.sql("SELECT name FROM app_keys WHERE key_hash = ?"),
                                  (key_hash,)).fetchone()
        if stored is None or stored[0] != name:
            raise StoreError(f"app key hash already belongs to {stored[0] if stored else None!r}")

    def app_key_name(self, key_hash: str) -> str | None:
        """The name of the app key with this hash, or None (also once it is revoked)."""
        with self._reading() as conn:
            row = conn.execute(self.dialect.sql("SELECT name FROM app_keys WHERE key_hash = ? AND revoked_at IS NULL"),
                               (key_hash,)).fetchone()
        return None if row is None else str(row[0])

    def app_key_used(self, key_hash: str) -> None:
        """Record that the key was used now."""
        with self._transaction() as conn:
            conn.execute(self.dialect.sql("UPDATE app_keys SET last_used_at = ? WHERE key_hash = ?"),
                         (self.dialect.now(), key_hash))

    def app_keys(self) -> list[AppKey]:
        """Every app key, oldest first: its id (a prefix of its hash), name and dates; never the key."""
        d = self.dialect
        with self._reading() as conn:
            rows = conn.execute("SELECT key_hash, name, created_at, last_used_at, revoked_at FROM app_keys "
                                "ORDER BY created_at, key_hash").fetchall()
        return [AppKey(id=row[0][:KEY_ID_LENGTH], name=row[1], created_at=d.stamp(row[2]),
                       last_used_at=d.stamp(row[3]) if row[3] is not None else None,
                       revoked_at=d.stamp(row[4]) if row[4] is not None else None) for row in rows]

    def revoke_app_keys(self, name_or_id: str) -> list[AppKey]:
        """Revoke the keys of the app named so, or else the one key whose id is this; the keys revoked now."""
        d = self.dialect
        with self._transaction() as conn:
            rows = conn.execute(d.sql("SELECT key_hash FROM app_keys WHERE revoked_at IS NULL AND name = ?"),
                                (name_or_id,)).fetchall()
            if not rows and len(name_or_id) >= KEY_ID_LENGTH:
                rows = conn.execute(d.sql("SELECT key_hash FROM app_keys WHERE revoked_at IS NULL AND "
                                          "substr(key_hash, 1, ?) = ?"), (len(name_or_id), name_or_id)).fetchall()
            for (key_hash,) in rows:
                conn.execute(d.sql("UPDATE app_keys SET revoked_at = ? WHERE key_hash = ?"), (d.now(), key_hash))
        revoked = {row[0][:KEY_ID_LENGTH] for row in rows}
        return [key for key in self.app_keys() if key.id in revoked]

    # ---- read models (store/read_models.py) ------------------------------------------------------

    @contextmanager
    def read_model_batch(self, projection: str, version: int) -> Iterator[SqlBatch]:
        """Lock the projection's checkpoint row for one batch (created at 0 if new); rolls back on error."""
        with self._background_transaction() as conn, open_batch(conn, self.dialect, projection, version) as batch:
            yield batch

    def schema_status(self) -> tuple[int, int]:
        """(migrations applied, migrations this code knows), in one cheap query."""
        from store import migrations

        with self._reading() as conn:
            row = conn.execute("SELECT count(*) FROM schema_migrations").fetchone()
        return int(row[0]), len(migrations.load(self.schema_folder))

    def checkpoints(self) -> list[Checkpoint]:
        """Every projection's checkpoint."""
        with self._reading() as conn:
            return all_checkpoints(conn, self.dialect)

    def reset_read_model(self, projection: str) -> None:
        """Drop a projection's documents and checkpoint."""
        with self._transaction() as conn:
            reset(conn, self.dialect, projection)

    def docs(self, projection: str, kind: str, *, key: str | None = None, group: str | None = None,
             min_field: tuple[str, float] | None = None, after: tuple[float, str] | None = None,
             limit: int = 100) -> list[DocRow]:
        """Documents of a kind, by key or group; ordered by rank descending then key (keyset `after`)."""
        with self._reading() as conn:
            return query_docs(conn, self.dialect, projection, kind, key=key, group=group, min_field=min_field,
                              after=after, limit=limit)

    def fact_sums(self, question: FactQuery) -> list[FactSums]:
        """Sums of the insights fact rows per group (SQL aggregates over their table)."""
        with self._reading() as conn:
            return sql_facts.sums(conn, self.dialect, question)
