"""Finished matches in bulk for the export benches: real records, written by COPY instead of one append at a time.

A few template matches are played through the match service (bench/export_rate.py's `fill`: nine in ten resigned at
once, one in ten a short played Expect Delays match) on a throwaway SQLite store. Each of the N matches is one of them
under an id and a time of its own: the same sealed events (payloads, public forms, commands, and the commitments,
which cover the seed, the version, the event and its command, not the match id), chained again under the new id and
times by the store's own pure code (`ledger.events.build_events`, append by append as the service made them). Every
record so made passes every check of the export and of `turnstile verify` (chain, hashes, commitments opened, rules
replayed under the seed); what clones share is their template's seed, seats and moves. The rows go into PostgreSQL by
COPY (SQLite: an INSERT run over a batch's rows), a transaction a batch of matches (so the log order (xid, position)
spans many transactions, as served), and the store's own sequencer then makes the transparency log and signs a
checkpoint (`Transparency.catch_up`).
"""

from __future__ import annotations

import itertools
import random
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from ledger.chain import GENESIS
from ledger.events import MatchRecord, NewEvent, StoredEvent, build_events
from store.base import iso
from store.factory import open_store
from store.sql import MATCH_COLUMNS, SqlStore

EVENT_COLUMNS = ("match_id, version, type, payload, seat, command, command_id, recorded_at, prev_hash, hash, "
                 "public_payload, commitment")
BATCH = 5000  # matches a COPY transaction
START = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Append:
    """One append of a template match: its events (sealed) and what they share (seat, command, command id, offset of
    its time from the match's start)."""

    events: list[NewEvent]
    seat: int | None
    command: dict[str, Any] | None
    command_id: str | None
    after: timedelta
    json: list[tuple[str, str | None]]  # each event's payload and public form as JSON text (written as they are)
    command_json: str | None


@dataclass(frozen=True)
class Template:
    """A finished match played by the service, as the appends that made it."""

    record: MatchRecord
    appends: list[Append]
    row: list[Any]  # its matches row's COPY values (MATCH_COLUMNS); id, times and head hash replaced per clone


def _text(value: Any) -> str | None:
    return None if value is None else msgspec.json.encode(value).decode()


def _appends(events: list[StoredEvent]) -> list[Append]:
    start = datetime.fromisoformat(events[0].recorded_at)
    groups = itertools.groupby(events, key=lambda e: (e.seat, e.command_id, e.recorded_at))
    appends = []
    for (seat, command_id, recorded_at), group in groups:
        run = list(group)
        appends.append(Append(
            events=[NewEvent(type=e.type, payload=e.payload, public=e.public_payload, commitment=e.commitment)
                    for e in run],
            seat=seat, command=run[0].command, command_id=command_id,
            after=datetime.fromisoformat(recorded_at) - start,
            json=[(_text(e.payload) or "", _text(e.public_payload)) for e in run], command_json=_text(run[0].command)))
    return appends


def templates(count: int, into: SqlStore) -> list[Template]:
    """`count` finished matches made by the match service (export_rate's mix), as templates; `into` gives the matches
    row's values as its dialect writes them."""
    from bench.export_rate import fill

    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/templates.db")
        try:
            fill(store, count)
            ids = [r.id for r in store.list_matches(limit=count)]
            made = [store.match_with_events(match_id) for match_id in ids]
        finally:
            store.close()
    out = []
    for record, events in made:
        assert record.status == "finished" and events, record.id
        row = [x.obj if hasattr(x, "obj") else x for x in  # psycopg's Jsonb: its JSON text below
               into.match_params(record, record.status, record.version, record.created_at, record.head_hash)]
        row = [_text(x) if isinstance(x, (dict, list)) else x for x in row]
        out.append(Template(record, _appends(events), row))
    return out


def clone(template: Template, match_id: str, start: datetime) -> tuple[list[Any], list[tuple[Any, ...]]]:
    """The matches row and the event rows (EVENT_COLUMNS) of `template` played again as `match_id` from `start`."""
    head, version, rows = GENESIS, 0, []
    for append in template.appends:
        at = iso(start + append.after)
        built = build_events(match_id, version, head, at, append.events, append.seat, append.command,
                             append.command_id)
        for event, (payload, public) in zip(built, append.json, strict=True):
            rows.append((match_id, event.version, event.type, payload, event.seat, append.command_json,
                         event.command_id, at, event.prev_hash, event.hash, public, event.commitment))
        head, version = built[-1].hash, built[-1].version
    match = list(template.row)
    match[0] = match_id
    match[15] = iso(start)  # created_at
    match[16] = rows[-1][7]  # updated_at: its last append's time
    match[17] = head
    return match, rows


def matches(templates_: list[Template], first: int, count: int) -> Iterator[tuple[list[Any], list[tuple[Any, ...]]]]:
    """Clones number `first` to `first + count - 1`, template after template, clone n starting n seconds after START
    (its id drawn from n: a store grown in steps gets the same matches as one filled at once)."""
    for n in range(first, first + count):
        match_id = str(uuid.UUID(int=random.Random(n).getrandbits(128), version=4))
        yield clone(templates_[n % len(templates_)], match_id, START + timedelta(seconds=n))


def load_matches(store: SqlStore, count: int, templates_: list[Template], first: int = 0) -> int:
    """Write `count` finished matches (clones `first`..) into a store, BATCH matches a transaction (PostgreSQL: by
    COPY; SQLite: one INSERT run over the batch's rows); the events written."""
    written = 0
    made = matches(templates_, first, count)
    while batch := list(itertools.islice(made, BATCH)):
        events = [row for _, rows in batch for row in rows]
        with store._transaction() as conn:
            if store.one_writer:  # SQLite: the rows' values are its own already (JSON and ISO text)
                conn.executemany(_insert("matches", MATCH_COLUMNS), [match for match, _ in batch])
                conn.executemany(_insert("events", EVENT_COLUMNS), events)
            else:
                _copy(conn, "matches", MATCH_COLUMNS, [match for match, _ in batch])
                _copy(conn, "events", EVENT_COLUMNS, events)
        written += len(events)
    return written


def _insert(table: str, columns: str) -> str:
    return f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' for _ in columns.split(','))})"


def _copy(conn: Any, table: str, columns: str, rows: list[Any]) -> None:
    with conn.cursor().copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
