"""The event store's vocabulary: records, errors and the `EventStore` protocol both adapters fulfil."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

import msgspec

from store.chain import canonical, canonical_event_hash


class NewEvent(msgspec.Struct, frozen=True):
    """An event the match service asks to append; `payload` is the event's JSON object (with its `type`)."""

    type: str
    payload: dict[str, Any]


class StoredEvent(msgspec.Struct, frozen=True):
    """An event as recorded: its place in its match (`version`) and in the global log (`position`)."""

    match_id: str
    version: int
    position: int
    type: str
    payload: dict[str, Any]
    seat: int | None
    command: dict[str, Any] | None
    command_id: str | None
    recorded_at: str
    prev_hash: str
    hash: str


class SeatRecord(msgspec.Struct, frozen=True):
    """A seat of a match: who holds it and the hash of the token that authorises its moves."""

    seat: int
    player: str
    token_hash: str


class MatchRecord(msgspec.Struct, frozen=True):
    """A match row. `version`, `status`, `head_hash`, `created_at`, `updated_at` are owned by the store."""

    id: str
    game: str
    rules_version: str
    seats: tuple[SeatRecord, ...]
    options: dict[str, Any]
    seed: str
    seed_commitment: str
    status: str  # "active" | "finished"
    version: int
    created_at: str
    updated_at: str
    head_hash: str


class AppendResult(msgspec.Struct, frozen=True):
    """What one append wrote: the match's new version, the last position, and the events themselves."""

    match_id: str
    version: int
    position: int
    events: tuple[StoredEvent, ...]
    duplicate: bool


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


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


class IdempotencyMismatch(StoreError):
    """The command id was already used on this match for a different command."""

    def __init__(self, match_id: str, command_id: str) -> None:
        super().__init__(f"match {match_id}: command id {command_id!r} was used for a different command")
        self.match_id = match_id
        self.command_id = command_id


@runtime_checkable
class EventStore(Protocol):
    """An append-only, hash-chained event store of matches; every method is thread-safe and synchronous."""

    def create_match(self, match: MatchRecord, events: Sequence[NewEvent]) -> AppendResult:
        """Insert the match row and its first events 1..n in one transaction; a taken id -> MatchExists."""
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
    ) -> AppendResult:
        """Append events at expected_version+1.. atomically; a replayed command id returns the original."""
        ...

    def read_match(self, match_id: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
        """Events of one match with from_version <= version <= to_version, in version order."""
        ...

    def read_all(self, after_position: int = 0, limit: int = 500) -> list[StoredEvent]:
        """The global log after a position, in position order; never passes over a late commit."""
        ...

    def head_position(self) -> int:
        """The highest position read_all can return now (0 when the log is empty)."""
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
        after: tuple[datetime, str] | None = None,
        limit: int = 50,
    ) -> list[MatchRecord]:
        """Matches newest first by (created_at, id); `after` is the `match_key` to continue after (no match need
        have it)."""
        ...

    def find_command(self, match_id: str, command_id: str) -> AppendResult | None:
        """The result of an earlier append with this command id (duplicate=True), or None."""
        ...

    def create_app_key(self, name: str, key_hash: str) -> None:
        """Record an app key by its hash; re-creating the same (name, hash) is harmless."""
        ...

    def app_key_name(self, key_hash: str) -> str | None:
        """The name of the app key with this hash, or None."""
        ...

    def close(self) -> None:
        """Release connections; the store is unusable afterwards."""
        ...


# ---- helpers shared by the adapters -------------------------------------------------------------


def utc_now() -> datetime:
    """The current UTC time at microsecond precision (what both databases keep)."""
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """Format a time as the store's one ISO 8601 UTC form, e.g. 2026-11-23T09:00:00.123456Z."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def match_key(match: MatchRecord) -> tuple[datetime, str]:
    """Where a match sits in the order of `list_matches`: (created_at, id)."""
    return datetime.fromisoformat(match.created_at), match.id


def clean_json(value: Any, what: str) -> Any:
    """Canonical JSON data for storage; refuses what either database would alter or reject."""
    try:
        data = canonical(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what}: {exc}") from None
    # PostgreSQL's jsonb cannot hold U+0000; refuse it in both adapters so they behave the same.
    # The encoded text is a cheap pre-filter; only a hit pays for the exact walk.
    if b"\\u0000" in msgspec.json.encode(data) and has_nul(data):
        raise ValueError(f"{what}: strings may not contain U+0000")
    return data


def has_nul(value: Any) -> bool:
    """True when a string anywhere in JSON data (a key or a value) contains U+0000."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_nul(v) for v in value)
    return False


def check_events(events: Sequence[NewEvent]) -> list[dict[str, Any]]:
    """Validate new events and return their canonical payloads."""
    if not events:
        raise ValueError("an append needs at least one event")
    payloads = []
    for event in events:
        payload = clean_json(event.payload, f"event {event.type!r}")
        if not isinstance(payload, dict):
            raise ValueError(f"event {event.type!r}: payload must be a JSON object")
        if payload.get("type", event.type) != event.type:
            raise ValueError(f"event {event.type!r}: payload type {payload['type']!r} differs")
        payloads.append(payload)
    return payloads


def status_after(current: str, events: Sequence[NewEvent]) -> str:
    """A match is finished once any `match.ended` event is appended."""
    return "finished" if any(e.type == "match.ended" for e in events) else current


def build_events(
    match_id: str,
    version: int,
    head_hash: str,
    recorded_at: str,
    events: Sequence[NewEvent],
    payloads: Sequence[dict[str, Any]],
    seat: int | None,
    command: dict[str, Any] | None,
    command_id: str | None,
) -> list[StoredEvent]:
    """Chain new events after (version, head_hash); positions are 0 until the adapter assigns them."""
    built = []
    prev = head_hash
    for offset, (event, payload) in enumerate(zip(events, payloads, strict=True), start=1):
        # payloads and command come canonical from check_events / clean_json.
        digest = canonical_event_hash(
            prev, match_id, version + offset, event.type, payload, seat, command, recorded_at
        )
        built.append(
            StoredEvent(
                match_id, version + offset, 0, event.type, payload, seat, command, command_id,
                recorded_at, prev, digest,
            )
        )
        prev = digest
    return built


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
