"""A stream's events as recorded: the new events a decision brings, the stored ones with their place in the hash
chain, the match row they belong to, and the pure helpers that check and chain them before any store sees them.

The store adapters persist exactly these; the verifiers read them back. Nothing here touches a database."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from ledger.chain import SCHEME_COMMITTED, canonical, canonical_event_hash, committed_event_hash, unopened


class NewEvent(msgspec.Struct, frozen=True):
    """An event the match service asks to append; `payload` is the event's JSON object (with its `type`).

    Scheme 2 events also carry `public`, the event as a spectator may see it (None: the payload itself), and
    `commitment`, the salted hash of the full event and its command (see ledger/chain.py); the chain hash then
    covers only those, so it can be published while the event's hidden parts stay secret.
    """

    type: str
    payload: dict[str, Any]
    public: dict[str, Any] | None = None
    commitment: str | None = None


# gc=False: it holds only strings, numbers and JSON data (no cycle), and an export makes thousands a page; left
# out of the collector's counts, they no longer bring on collections that walk them (issue 42).
class StoredEvent(msgspec.Struct, frozen=True, gc=False):
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
    (tests and teaching only: never rated). `scheme` is the record scheme of its hash chain (ledger/chain.py).
    `owner` is the app whose key created it; `visibility` who may list and read it (see service/matches/access.py).
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


def commitment_break(seed: str, events: Sequence[StoredEvent]) -> str | None:
    """Why `events` are not the events sealed under `seed` (the seed that salts the match's commitments), if so: the
    first whose commitment does not open to its stored full payload and command. Only whoever holds the seed can ask
    this while a match is played (the server, an operator's audit); the hash covers only the public form and the
    commitment, so without it a hidden part or a command edited in storage goes unseen until the end."""
    version = unopened(seed, events)
    if version is None:
        return None
    return f"event {version}'s stored payload or command is not the one its commitment was made to"
