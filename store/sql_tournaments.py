"""The tournaments' half of the SQL adapters (store/tournaments.py): one SQL shape for both dialects.

JSON and times are kept as text (the canonical encoding, the store's ISO form), so what was hashed is what is read.
Appends are conditional on the row's version: of two appends at one version, exactly one commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import msgspec

from ledger.chain import GENESIS
from ledger.events import NewEvent, StoredEvent, build_events, check_events
from store.base import ConflictError, iso, utc_now, with_positions
from store.dialect import Dialect
from store.tournaments import (
    NewTournament,
    TooManyRunning,
    TournamentLink,
    TournamentNotFound,
    TournamentRecord,
    status_after,
)

_COLUMNS = ("id, game, format, owner, visibility, seed, token_secret, places, status, version, head_hash, created_at, "
            "updated_at")
_EVENT_COLUMNS = "tournament_id, version, type, payload, recorded_at, prev_hash, hash"


def chained(tournament_id: str, version: int, head: str, at: str,
            payloads: Sequence[dict[str, Any]]) -> list[StoredEvent]:
    """Events chained after (version, head) as a match's are (`build_events`: the tournament's id for the match id,
    no seat, no command); a tournament event's position is its version."""
    built = build_events(tournament_id, version, head, at, check_events([NewEvent(p["type"], p) for p in payloads]),
                         None, None, None)
    return list(with_positions(built, [e.version for e in built]))


class SqlTournaments:
    """Tournament rows and streams over the connections an adapter holds (mixed into `store.sql.SqlStore`)."""

    dialect: Dialect

    def _reading(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def create_tournament(self, tournament: NewTournament, payload: dict[str, Any]) -> TournamentRecord:
        """Insert the row and event 1 in one transaction."""
        now = iso(utc_now())
        events = chained(tournament.id, 0, GENESIS, now, [payload])
        record = TournamentRecord(**msgspec.structs.asdict(tournament), status="open", version=1,
                                  head_hash=events[-1].hash, created_at=now, updated_at=now)
        with self._transaction() as conn:
            conn.execute(self.dialect.sql(f"INSERT INTO tournaments ({_COLUMNS}) VALUES "
                                          f"({', '.join(['?'] * 13)})"), _row_params(record))
            self._insert(conn, events)
        return record

    def append_tournament(self, tournament_id: str, expected_version: int,
                          payloads: Sequence[dict[str, Any]], *, running_cap: int | None = None) -> list[StoredEvent]:
        """Append events at expected_version+1.., conditional on the row's version; ConflictError otherwise. A start
        under `running_cap` counts the owner's running tournaments under a lock named by the owner (PostgreSQL; in
        SQLite the write transaction excludes every other), so two starts never both pass one count."""
        d = self.dialect
        with self._transaction() as conn:
            row = conn.execute(d.sql(f"SELECT version, head_hash, status, owner FROM tournaments WHERE id = ?"
                                     f"{d.lock_row}"), (tournament_id,)).fetchone()
            if row is None:
                raise TournamentNotFound(tournament_id)
            version, head, status, owner = int(row[0]), row[1], row[2], row[3]
            if version != expected_version:
                raise ConflictError(tournament_id, expected_version, version)
            starts = status != "running" and status_after(payloads, status) == "running"
            if starts and running_cap is not None and owner is not None:
                self._check_running(conn, owner, running_cap)
            now = iso(utc_now())
            events = chained(tournament_id, version, head, now, payloads)
            conn.execute(d.sql("UPDATE tournaments SET version = ?, head_hash = ?, status = ?, updated_at = ? "
                               "WHERE id = ? AND version = ?"),
                         (events[-1].version, events[-1].hash, status_after(payloads, status), now, tournament_id,
                          version))
            self._insert(conn, events)
        return events

    def _check_running(self, conn: Any, owner: str, cap: int) -> None:
        """TooManyRunning unless `owner` has fewer than `cap` tournaments running, counted under the owner's lock."""
        if self.dialect.lock_name:
            conn.execute(self.dialect.lock_name, (f"turnstile/tournaments-running/{owner}",))
        (running,) = conn.execute(self.dialect.sql("SELECT count(*) FROM tournaments WHERE owner = ? AND "
                                                   "status = 'running'"), (owner,)).fetchone()
        if int(running) >= cap:
            raise TooManyRunning(owner, int(running))

    def _insert(self, conn: Any, events: list[StoredEvent]) -> None:
        conn.cursor().executemany(
            self.dialect.sql(f"INSERT INTO tournament_events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"),
            [(e.match_id, e.version, e.type, msgspec.json.encode(e.payload).decode(), e.recorded_at, e.prev_hash,
              e.hash) for e in events])

    def tournament_with_events(self, tournament_id: str,
                               from_version: int = 1) -> tuple[TournamentRecord, list[StoredEvent]]:
        """The row and its events from `from_version` up to the row's version (TournamentNotFound). Events up to
        the version the row was read at, never one appended since: the two reads need not share a snapshot."""
        d = self.dialect
        with self._reading() as conn:
            row = conn.execute(d.sql(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?"), (tournament_id,)).fetchone()
            if row is None:
                raise TournamentNotFound(tournament_id)
            record = _record(row)
            rows = conn.execute(d.sql(f"SELECT {_EVENT_COLUMNS} FROM tournament_events WHERE tournament_id = ? AND "
                                      "version >= ? AND version <= ? ORDER BY version"),
                                (tournament_id, from_version, record.version)).fetchall()
        return record, [_event(r) for r in rows]

    def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        """The row, or None."""
        with self._reading() as conn:
            row = conn.execute(self.dialect.sql(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?"),
                               (tournament_id,)).fetchone()
        return None if row is None else _record(row)

    def list_tournaments(self, *, reader: str | None, mine: bool = False, game: str | None = None,
                         status: str | None = None, after: tuple[str, str] | None = None,
                         limit: int = 50) -> list[TournamentRecord]:
        """Newest first: the public ones and `reader`'s own (`mine`: its own only)."""
        where, params = (["owner = ?"], [reader]) if mine else (["(visibility = 'public' OR owner = ?)"], [reader])
        for column, value in (("game", game), ("status", status)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if after is not None:
            where.append("(created_at < ? OR (created_at = ? AND id < ?))")
            params.extend([after[0], after[0], after[1]])
        sql = (f"SELECT {_COLUMNS} FROM tournaments WHERE {' AND '.join(where)} "
               "ORDER BY created_at DESC, id DESC LIMIT ?")
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql(sql), (*params, limit)).fetchall()
        return [_record(r) for r in rows]

    def running_tournaments(self, limit: int = 100) -> list[str]:
        """Ids of the tournaments being played, oldest change first."""
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql("SELECT id FROM tournaments WHERE status = 'running' "
                                                 "ORDER BY updated_at LIMIT ?"), (limit,)).fetchall()
        return [r[0] for r in rows]

    def link_tournament_match(self, match_id: str, tournament_id: str, round: int, table: int) -> None:
        """Name the tournament, round and table of a match about to be created (a repeat changes nothing)."""
        with self._transaction() as conn:
            conn.execute(self.dialect.sql("INSERT INTO tournament_matches (match_id, tournament_id, round, "
                                          "table_number) VALUES (?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING"),
                         (match_id, tournament_id, round, table))

    def dealing_tournament_matches(self, tournament_id: str) -> list[tuple[str, int]]:
        """(match id, round) of each match opened for the tournament that is still `dealing`."""
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql(
                "SELECT l.match_id, l.round FROM tournament_matches l JOIN matches m ON m.id = l.match_id "
                "WHERE l.tournament_id = ? AND m.status = 'dealing' ORDER BY l.round, l.match_id"),
                (tournament_id,)).fetchall()
        return [(r[0], int(r[1])) for r in rows]

    def orphaned_dealing_matches(self, limit: int = 100) -> list[tuple[str, str]]:
        """(match id, tournament id) of each match still `dealing` of a tournament that has finished."""
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql(
                "SELECT l.match_id, l.tournament_id FROM matches m JOIN tournament_matches l ON l.match_id = m.id "
                "JOIN tournaments t ON t.id = l.tournament_id WHERE m.status = 'dealing' AND t.status = 'finished' "
                "ORDER BY l.match_id LIMIT ?"), (limit,)).fetchall()
        return [(r[0], r[1]) for r in rows]

    def tournament_link(self, match_id: str) -> TournamentLink | None:
        """The tournament a match was opened for, or None."""
        with self._reading() as conn:
            row = conn.execute(self.dialect.sql(
                "SELECT l.tournament_id, l.round, l.table_number, t.owner, t.token_secret FROM tournament_matches l "
                "JOIN tournaments t ON t.id = l.tournament_id WHERE l.match_id = ?"), (match_id,)).fetchone()
        return None if row is None else TournamentLink(row[0], int(row[1]), int(row[2]), row[3], row[4])


def _row_params(record: TournamentRecord) -> tuple[Any, ...]:
    return (record.id, record.game, record.format, record.owner, record.visibility, record.seed, record.token_secret,
            msgspec.json.encode(record.places).decode(), record.status, record.version, record.head_hash,
            record.created_at, record.updated_at)


def _record(row: tuple[Any, ...]) -> TournamentRecord:
    (id_, game, format_, owner, visibility, seed, token_secret, places, status, version, head, created,
     updated) = row
    return TournamentRecord(id=id_, game=game, format=format_, owner=owner, visibility=visibility, seed=seed,
                            token_secret=token_secret, places=msgspec.json.decode(places), status=status,
                            version=int(version), head_hash=head, created_at=created, updated_at=updated)


def _event(row: tuple[Any, ...]) -> StoredEvent:
    tournament_id, version, type_, payload, recorded_at, prev_hash, hash_ = row
    return StoredEvent(tournament_id, int(version), int(version), type_, msgspec.json.decode(payload), None, None,
                       None, recorded_at, prev_hash, hash_)
