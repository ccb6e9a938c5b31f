"""The event store's vocabulary: records, errors and the `EventStore` protocol both adapters fulfil."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

import msgspec

from ledger.chain import canonical
from ledger.events import MatchRecord, NewEvent, NewMatch, SeatRecord, StoredEvent, Visibility

KEY_ID_LENGTH = 12  # hex digits of a key's hash that name it to operators (the hash itself reveals nothing of the key)


class AppKey(msgspec.Struct, frozen=True):
    """An app key as operators see it: never the key, nor its whole hash."""

    id: str
    name: str
    created_at: str
    last_used_at: str | None
    revoked_at: str | None


class AppendResult(msgspec.Struct, frozen=True):
    """What one append wrote: the match's new version, the last position, and the events themselves."""

    match_id: str
    version: int
    position: int
    events: tuple[StoredEvent, ...]
    duplicate: bool


class Snapshot(msgspec.Struct, frozen=True):
    """A match's folded state as saved at `version` (service/matches/snapshots.py encodes and trusts it, or not).

    `head_hash` is the hash of the event at `version`; `fingerprint` names the rules code that folded `state`.
    """

    version: int
    fingerprint: str
    head_hash: str
    state: bytes


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or opened (wrong URL, server down, no such database)."""


class ConflictError(StoreError):
    """The match is not at the expected version: someone else appended first."""

    def __init__(self, match_id: str, expected: int, actual: int) -> None:
        super().__init__(f"match {match_id}: expected version {expected}, actual {actual}")
        self.match_id = match_id
        self.expected = expected
        self.actual = actual


class MatchNotFound(StoreError):
    """No match has this id."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id} not found")
        self.match_id = match_id


class MatchExists(StoreError):
    """`create_match` was given an id that is already taken."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id} already exists")
        self.match_id = match_id


class RecordCorrupt(StoreError):
    """A match's stored chain does not reach the head its row records: cut short, spliced or altered."""

    def __init__(self, match_id: str, reason: str) -> None:
        super().__init__(f"match {match_id}: the stored record is corrupt: {reason}")
        self.match_id = match_id
        self.reason = reason


class RematchExists(StoreError):
    """The match already has its rematch (`rematch`): a match is replayed once."""

    def __init__(self, match_id: str, rematch: str | None) -> None:
        super().__init__(f"match {match_id} already has a rematch: {rematch}")
        self.match_id = match_id
        self.rematch = rematch


class IdempotencyMismatch(StoreError):
    """The command id was already used on this match for a different command."""

    def __init__(self, match_id: str, command_id: str) -> None:
        super().__init__(f"match {match_id}: command id {command_id!r} was used for a different command")
        self.match_id = match_id
        self.command_id = command_id


@runtime_checkable
class EventStore(Protocol):
    """An append-only, hash-chained event store of matches; every method is thread-safe, and synchronous but for the
    `_async` twins of the two a move and a read of a cached match need (for callers on an event loop)."""

    def create_match(self, match: NewMatch, events: Sequence[NewEvent], *,
                     due_in_s: float | None = None, command_id: str | None = None) -> AppendResult:
        """Insert the match row and its first events 1..n in one transaction; a taken id -> MatchExists.

        A rematch (`match.rematch_of`) links the match it replays to itself in the same transaction, once:
        RematchExists (and nothing written) when that match already has one. `due_in_s`: the row's `due_at` hint
        (see `due_matches`) is the events' recorded time plus these seconds (None, or a finished match: no hint).
        `command_id`: the events are recorded under it, as an append's are (`find_command` finds them); unlike an
        append's, their own `command_id` and `command` stay empty, so the hashed record is as without it.
        """
        ...

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

        The command-id check is part of the append: a retry of a recorded command (whatever its expected version)
        gets the original result, never a conflict. `head_hash`, the hash of event `expected_version` when the
        caller knows it, lets an adapter skip reading the row. `seats` (a join) replaces the row's seats in the
        same transaction. The row's status follows the events: `match.started` makes it active, `match.ended`
        finished. So does its `due_at` hint: `match.ended` clears it; else `due_in_s` (seconds after the events'
        recorded time) is a candidate, and the row keeps the earlier of its hint and the candidate (None: the
        hint is left as it is).
        """
        ...

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
        """`append` for a caller on an event loop: the same answers and errors, and the loop is not held while the
        store works (PostgreSQL: an async connection; SQLite: a worker thread)."""
        ...

    def read_match(self, match_id: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
        """Events of one match with from_version <= version <= to_version, in version order."""
        ...

    def match_with_events(self, match_id: str, after_version: int = 0) -> tuple[MatchRecord, list[StoredEvent]]:
        """The match row and its events after `after_version` up to the row's version, in one round trip."""
        ...

    async def match_with_events_async(self, match_id: str,
                                      after_version: int = 0) -> tuple[MatchRecord, list[StoredEvent]]:
        """`match_with_events` for a caller on an event loop (the loop is not held while the store reads)."""
        ...

    def match_with_snapshot(self, match_id: str,
                            fingerprint: str) -> tuple[MatchRecord, Snapshot | None, list[StoredEvent]]:
        """The match row, its snapshot if saved with `fingerprint`, and its events from the snapshot's version (from
        the first without one) up to the row's version, in one round trip."""
        ...

    def snapshot(self, match_id: str) -> Snapshot | None:
        """The match's saved snapshot (of any fingerprint), or None."""
        ...

    def save_snapshot(self, match_id: str, snapshot: Snapshot, *, replace: bool = False) -> None:
        """Save the match's snapshot unless the saved one is as new or newer and of the same fingerprint (two
        processes saving at once keep the newer); `replace` saves it whatever is saved (that one did not fit)."""
        ...

    def read_all(self, after_position: int = 0, limit: int = 500, *, owner: str | None = None) -> list[StoredEvent]:
        """The global log after the event at `after_position` (0: the start), in log order (`owner`: only the
        events of that app's matches).

        Log order is commit order: it never passes over an event that commits late. On SQLite it is position
        order; on PostgreSQL it is (transaction, position) order, which can differ from position order between
        transactions that overlap, so resume from the last position read, never from a position's neighbour.
        """
        ...

    def head_position(self) -> int:
        """The position of the last event read_all can return now (0 when the log is empty)."""
        ...

    def events_after(self, position: int) -> int:
        """How many events read_all would still return after the event at `position` (a reader's lag)."""
        ...

    def log_reached(self, at: int, target: int) -> bool:
        """Whether a reader that has read up to position `at` has read the event at position `target`."""
        ...

    def get_match(self, match_id: str) -> MatchRecord | None:
        """The match row, or None."""
        ...

    def list_matches(
        self,
        *,
        game: str | None = None,
        player: str | None = None,
        status: str | None = None,
        visibility: Visibility | None = None,
        owner: str | None = None,
        after: tuple[datetime, str] | None = None,
        limit: int = 50,
    ) -> list[MatchRecord]:
        """Matches newest first by (created_at, id); `after` is the `match_key` to continue after (no match need
        have it)."""
        ...

    def find_command(self, match_id: str, command_id: str) -> AppendResult | None:
        """The result of an earlier append with this command id (duplicate=True), or None."""
        ...

    def due_matches(self, now: datetime, limit: int = 200,
                    after: tuple[datetime, str] | None = None) -> list[tuple[datetime, str]]:
        """(due_at, id) of the matches whose `due_at` hint is at or before `now`, earliest first (by due_at, id;
        `after`: the pair to continue after), from an index of the hinted rows only.

        `due_at` is the earliest time the deadline sweep (service/matches/deadlines.py) may have something to do for the
        match, never later than the truth: appends keep the earlier of the row's hint and their own (a seat still
        to move keeps its deadline), the sweep sets the exact one with `set_due`. NULL (never listed): nothing to
        do, no `move_deadline` nor `abandon_after`, or the match has ended.
        """
        ...

    def set_due(self, match_id: str, version: int, due_at: datetime | None) -> bool:
        """Set the match's `due_at` hint if its row is still at `version` (an append since then set its own); True
        when set."""
        ...

    def schema_status(self) -> tuple[int, int]:
        """(migrations applied, migrations this code knows): ready when equal; StoreError when unreachable."""
        ...

    def close(self) -> None:
        """Release connections; the store is unusable afterwards."""
        ...


@runtime_checkable
class AppKeyStore(Protocol):
    """App keys, apart from the events: recorded by hash, named, marked used, listed and revoked."""

    def create_app_key(self, name: str, key_hash: str) -> None:
        """Record an app key by its hash; re-creating the same (name, hash) is harmless."""
        ...

    def app_key_name(self, key_hash: str) -> str | None:
        """The name of the app key with this hash, or None (also once it is revoked)."""
        ...

    def app_key_used(self, key_hash: str) -> None:
        """Record that the key was used now."""
        ...

    def app_keys(self) -> list[AppKey]:
        """Every app key, oldest first: its id (a prefix of its hash), name and dates; never the key."""
        ...

    def revoke_app_keys(self, name_or_id: str) -> list[AppKey]:
        """Revoke the keys of the app named so, or else the one key whose id is this; the keys revoked now."""
        ...


@runtime_checkable
class MoveListener(Protocol):
    """A store that can say when other processes append (PostgreSQL's LISTEN): the live streams follow them."""

    def moves(self) -> AsyncIterator[str]:
        """The ids of matches as other processes append to them, until cancelled."""
        ...


# ---- helpers shared by the adapters -------------------------------------------------------------


def utc_now() -> datetime:
    """The current UTC time at microsecond precision (what both databases keep)."""
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """Format a time as the store's one ISO 8601 UTC form, e.g. 2026-11-23T09:00:00.123456Z."""
    # Runs for every event read: skipping a needless astimezone and strftime makes it 2.6 -> 1.7 us.
    if moment.utcoffset() != timedelta(0):  # naive (local) or another zone
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="microseconds")[:-6] + "Z"  # drop "+00:00"


def match_key(match: MatchRecord) -> tuple[datetime, str]:
    """Where a match sits in the order of `list_matches`: (created_at, id)."""
    return datetime.fromisoformat(match.created_at), match.id


def with_positions(events: Sequence[StoredEvent], positions: Sequence[int]) -> tuple[StoredEvent, ...]:
    """The built events with the positions the database assigned, in version order."""
    return tuple(msgspec.structs.replace(e, position=p) for e, p in zip(events, positions, strict=True))


def appended(events: Sequence[StoredEvent], duplicate: bool) -> AppendResult:
    """The AppendResult of one append's events (the last event gives version and position)."""
    last = events[-1]
    return AppendResult(last.match_id, last.version, last.position, tuple(events), duplicate)


def replayed(
    original: Sequence[StoredEvent], command_id: str, seat: int | None, command: dict[str, Any] | None
) -> AppendResult:
    """The original result of a retried command id, or IdempotencyMismatch if the request differs."""
    first = original[0]
    # Compare canonical forms: jsonb may have reordered keys or turned 2.0 into 2.
    if first.seat != seat or canonical(first.command) != canonical(command):
        raise IdempotencyMismatch(first.match_id, command_id)
    return appended(original, duplicate=True)
