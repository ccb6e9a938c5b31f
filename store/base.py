"""The event store's vocabulary: records, errors and the `EventStore` protocol both adapters fulfil."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, Protocol, runtime_checkable

import msgspec

from store.chain import SCHEME_COMMITTED, canonical, canonical_event_hash, committed_event_hash


class NewEvent(msgspec.Struct, frozen=True):
    """An event the match service asks to append; `payload` is the event's JSON object (with its `type`).

    Scheme 2 events also carry `public`, the event as a spectator may see it (None: the payload itself), and
    `commitment`, the salted hash of the full event and its command (see store/chain.py); the chain hash then
    covers only those, so it can be published while the event's hidden parts stay secret.
    """

    type: str
    payload: dict[str, Any]
    public: dict[str, Any] | None = None
    commitment: str | None = None


class StoredEvent(msgspec.Struct, frozen=True):
    """An event as recorded: its place in its match (`version`) and in the global log (`position`).

    `public_payload` is stored only where it differs from `payload`; `commitment` is None for scheme 1 events.
    """

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
    public_payload: dict[str, Any] | None = None
    commitment: str | None = None

    @property
    def public(self) -> dict[str, Any]:
        """The event as a spectator may see it while the match is played."""
        return self.payload if self.public_payload is None else self.public_payload


KEY_ID_LENGTH = 12  # hex digits of a key's hash that name it to operators (the hash itself reveals nothing of the key)


class AppKey(msgspec.Struct, frozen=True):
    """An app key as operators see it: never the key, nor its whole hash."""

    id: str
    name: str
    created_at: str
    last_used_at: str | None
    revoked_at: str | None


class SeatRecord(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat of a match: who holds it and the hash of the token that authorises its moves.

    An open seat has no player ("") and no token yet (""), but the hash of its join code; a bot's seat has no token.
    """

    seat: int
    player: str
    token_hash: str
    join_hash: str | None = None


SeedSource = Literal["server", "server+client", "caller", "server+seats"]
Visibility = Literal["public", "unlisted", "private"]


class NewMatch(msgspec.Struct, frozen=True, kw_only=True):
    """What the match service hands the store to open a match.

    `seed` drives every random outcome and stays secret until the end; `seed_source` says who chose it: the
    server alone, the server mixed with `client_entropy` (`seed` derived from `server_seed`), the server's part
    mixed with each seat's entropy (`server+seats`: `seed` and `server_seed` are the server's part, which salts the
    commitments; the deal's seed is derived from it and the seats' entropy in the events), or the caller
    (tests and teaching only: never rated). `scheme` is the record scheme of its hash chain (store/chain.py).
    `owner` is the app whose key created it; `visibility` who may list and read it (see service/access.py).
    """

    id: str
    game: str
    rules_version: str
    seats: tuple[SeatRecord, ...]
    options: dict[str, Any]
    seed: str
    seed_commitment: str
    seed_source: SeedSource = "server"
    client_entropy: str | None = None
    server_seed: str | None = None
    scheme: int = SCHEME_COMMITTED
    owner: str | None = None
    visibility: Visibility = "public"
    rematch_of: str | None = None  # the finished match this one replays; its row is linked back at creation


class MatchRecord(NewMatch, frozen=True, kw_only=True):
    """A match row: what the service asked for, plus what the store owns and keeps current with every append."""

    status: str  # "open" | "dealing" | "active" | "finished"
    version: int
    created_at: str
    updated_at: str
    head_hash: str
    rematch: str | None = None  # the match created as this one's rematch, once there is one


class AppendResult(msgspec.Struct, frozen=True):
    """What one append wrote: the match's new version, the last position, and the events themselves."""

    match_id: str
    version: int
    position: int
    events: tuple[StoredEvent, ...]
    duplicate: bool


class Snapshot(msgspec.Struct, frozen=True):
    """A match's folded state as saved at `version` (service/snapshots.py encodes and trusts it, or not).

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
                     due_in_s: float | None = None) -> AppendResult:
        """Insert the match row and its first events 1..n in one transaction; a taken id -> MatchExists.

        A rematch (`match.rematch_of`) links the match it replays to itself in the same transaction, once:
        RematchExists (and nothing written) when that match already has one. `due_in_s`: the row's `due_at` hint
        (see `due_matches`) is the events' recorded time plus these seconds (None, or a finished match: no hint).
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

        `due_at` is the earliest time the deadline sweep (service/deadlines.py) may have something to do for the
        match, never later than the truth: appends keep the earlier of the row's hint and their own (a seat still
        to move keeps its deadline), the sweep sets the exact one with `set_due`. NULL (never listed): nothing to
        do, no `move_deadline` nor `abandon_after`, or the match has ended.
        """
        ...

    def set_due(self, match_id: str, version: int, due_at: datetime | None) -> bool:
        """Set the match's `due_at` hint if its row is still at `version` (an append since then set its own); True
        when set."""
        ...

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

    def schema_status(self) -> tuple[int, int]:
        """(migrations applied, migrations this code knows): ready when equal; StoreError when unreachable."""
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
    # Runs for every event read: skipping a needless astimezone and strftime makes it 2.6 -> 1.7 us.
    if moment.utcoffset() != timedelta(0):  # naive (local) or another zone
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="microseconds")[:-6] + "Z"  # drop "+00:00"


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


def check_events(events: Sequence[NewEvent]) -> list[NewEvent]:
    """Validate new events; the same events with canonical payloads (`public` None where it equals the payload)."""
    if not events:
        raise ValueError("an append needs at least one event")
    checked = []
    for event in events:
        payload = _json_object(event.payload, event.type, "payload")
        # A public form that is the payload object itself says "nothing hidden": no second walk to compare them.
        public = None if event.public is None or event.public is event.payload else _json_object(
            event.public, event.type, "public form")
        if (event.public is None) != (event.commitment is None):
            raise ValueError(f"event {event.type!r}: a public form and a commitment go together")
        checked.append(NewEvent(event.type, payload, None if public == payload else public, event.commitment))
    return checked


def _json_object(value: Any, type_: str, what: str) -> dict[str, Any]:
    data = clean_json(value, f"event {type_!r}")
    if not isinstance(data, dict):
        raise ValueError(f"event {type_!r}: {what} must be a JSON object")
    if data.get("type", type_) != type_:
        raise ValueError(f"event {type_!r}: {what} type {data['type']!r} differs")
    return data


def ends_match(events: Sequence[NewEvent]) -> bool:
    """A match is finished once a `match.ended` event is appended."""
    return any(e.type == "match.ended" for e in events)


def status_after(events: Sequence[NewEvent]) -> str | None:
    """The row status appended events bring (None: unchanged): finished at `match.ended`; active once dealt
    (`match.entropy-closed`) or at `match.started`, unless it waits for its seats' entropy (dealing)."""
    if ends_match(events):
        return "finished"
    if any(e.type == "match.entropy-closed" for e in events):
        return "active"
    started = next((e for e in events if e.type == "match.started"), None)
    if started is None:
        return None
    return "dealing" if started.payload.get("options", {}).get("entropy") == "seats" else "active"


def first_status(events: Sequence[NewEvent]) -> str:
    """The status of a new match from its first events: open (seats to fill), dealing, active or finished."""
    return status_after(events) or "open"


def build_events(
    match_id: str,
    version: int,
    head_hash: str,
    recorded_at: str,
    events: Sequence[NewEvent],
    seat: int | None,
    command: dict[str, Any] | None,
    command_id: str | None,
) -> list[StoredEvent]:
    """Chain checked events after (version, head_hash); positions are 0 until the adapter assigns them."""
    built = []
    prev = head_hash
    for offset, event in enumerate(events, start=1):
        at = version + offset
        # payloads, public forms and command come canonical from check_events / clean_json.
        if event.commitment is None:
            digest = canonical_event_hash(prev, match_id, at, event.type, event.payload, seat, command, recorded_at)
        else:
            public = event.payload if event.public is None else event.public
            digest = committed_event_hash(prev, match_id, at, event.type, public, seat, event.commitment,
                                          recorded_at)
        built.append(StoredEvent(match_id, at, 0, event.type, event.payload, seat, command, command_id, recorded_at,
                                 prev, digest, public_payload=event.public, commitment=event.commitment))
        prev = digest
    return built


def chain_break(head_version: int, head_hash: str, start_version: int, start_hash: str,
                events: Sequence[StoredEvent]) -> str | None:
    """Why `events` (read after `start_version`, whose hash is `start_hash`) do not reach the recorded head, if so.

    A cheap continuity check (links and versions only, no rehashing) run whenever a match is folded from storage,
    so the server never serves or extends a record that was cut short or spliced.
    """
    prev_version, prev_hash = start_version, start_hash
    for event in events:
        if event.version != prev_version + 1:
            return f"event {prev_version + 1} is missing"
        if event.prev_hash != prev_hash:
            return f"event {event.version} does not link to event {prev_version}"
        prev_version, prev_hash = event.version, event.hash
    if prev_version != head_version:
        return f"the stored events end at version {prev_version}, the match row records version {head_version}"
    if prev_hash != head_hash:
        return f"the last stored event's hash is not the recorded head hash {head_hash[:12]}…"
    return None


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
