"""Hash chaining of a match's events: pure functions, importable by an independent verifier.

Each event's hash covers the previous event's hash and the event's own fields, so changing,
removing or reordering any recorded event breaks every hash after it. The hashed bytes are the
sorted-key JSON encoding of *decoded values*, never the bytes a database happened to keep:
PostgreSQL's jsonb reorders keys and rewrites numbers (`1e20` comes back as `100000000000000000000`,
`1.50` keeps its zero), so `canonical` first maps every integral float to an int.

Two schemes exist. Scheme 1 (matches recorded before commitments) hashes each event's full payload and
command, so the hash of an event with hidden cards must be withheld until the end: it could be brute-forced.
Scheme 2 (every new match) hashes only what a spectator may see: the event's public form and a salted
commitment to the full event and its command, `SHA-256(salt || JSON{"command", "event"})` with
`salt = HMAC-SHA256(seed, "turnstile/event-salt/<version>")`. Every hash can then be published at every
moment; once the seed is revealed, anyone derives the salts and opens every commitment.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Iterable
from typing import Any, Protocol

import msgspec

GENESIS = "0" * 64
_BLOCK = 64  # SHA-256's block size, in bytes: an HMAC key's length
SCHEME_FULL = 1  # hashes cover the full events: withheld while they could be brute-forced
SCHEME_COMMITTED = 2  # hashes cover public forms and salted commitments: public at every moment


def canonical(value: Any) -> Any:
    """Plain JSON data (dict/list/str/int/float/bool/None) whose encoding survives any JSON store."""
    # Exact-type checks first: this runs on every payload of every append, so the common cases are fast.
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError(f"object keys must be strings, not {type(key).__name__}")
            inner = type(item)  # a leaf that stays as it is needs no call (most of a payload's values)
            out[key] = item if inner is str or inner is int or inner is bool or item is None else canonical(item)
        return out
    if kind is list or kind is tuple:
        return [item if type(item) is str or type(item) is int or type(item) is bool or item is None
                else canonical(item) for item in value]
    if kind is float:
        if not math.isfinite(value):
            raise ValueError("NaN and infinities are not JSON")
        # An integral float may come back from jsonb as an int (1e20) and vice versa; one form for both.
        return int(value) if value.is_integer() else value
    # Subclasses, Structs, enums, datetimes...: msgspec knows their JSON form.
    builtin = msgspec.to_builtins(value)
    if type(builtin) is kind:
        raise TypeError(f"not JSON data: {kind.__name__}")
    return canonical(builtin)


def _float(text: str) -> Any:
    number = float(text)
    return int(number) if number.is_integer() else number


_canonical_decoder = msgspec.json.Decoder(float_hook=_float)


class _IntegralFloat:
    """What `canonical_json` reads an integral float back as: equal to nothing, so such a value takes the slow path
    (`canonical` writes it as an int, its own encoding as a float)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]


_INTEGRAL_FLOAT = _IntegralFloat()


def _float_unless_integral(text: str) -> Any:
    number = float(text)
    return _INTEGRAL_FLOAT if number.is_integer() else number


_read_back = msgspec.json.Decoder(float_hook=_float_unless_integral)
_sorted = msgspec.json.Encoder(order="sorted")


def canonical_json(value: Any) -> bytes:
    """The sorted-key JSON of `canonical(value)` (what the hashes cover), in C for JSON data without integral floats
    (every stored payload): the value's own encoding, once reading it back gives the value again. That fails for
    whatever `canonical` would write differently or refuse (an integral float, NaN or an infinity, a key that is no
    string, a tuple, an object msgspec converts), and those go through `canonical`."""
    try:
        encoded = _sorted.encode(value)
        if _read_back.decode(encoded) == value:
            return encoded
    except (TypeError, ValueError, OverflowError, RecursionError, msgspec.MsgspecError):  # canonical decides
        pass
    return _sorted.encode(canonical(value))


def canonical_of(value: Any) -> Any:
    """`canonical` of a value msgspec encodes with string keys only (a Struct, say): one encode and one decode in C,
    integral floats read back as ints. For the service's own events; data from elsewhere goes through `canonical`,
    which also refuses non-string keys and non-finite numbers."""
    return _canonical_decoder.decode(msgspec.json.encode(value))


def event_hash(
    prev_hash: str,
    match_id: str,
    version: int,
    type: str,
    payload: dict[str, Any],
    seat: int | None,
    command: dict[str, Any] | None,
    recorded_at: str,
) -> str:
    """sha256 hex of prev_hash + "\\n" + the sorted-key JSON of the event's canonical fields."""
    return canonical_event_hash(
        prev_hash, match_id, version, type, canonical(payload), seat, canonical(command), recorded_at
    )


def canonical_event_hash(
    prev_hash: str,
    match_id: str,
    version: int,
    type: str,
    payload: dict[str, Any],
    seat: int | None,
    command: dict[str, Any] | None,
    recorded_at: str,
) -> str:
    """event_hash for a payload and command that are already canonical (skips re-walking them)."""
    body = {
        "match_id": match_id,
        "version": version,
        "type": type,
        "payload": payload,
        "seat": seat,
        "command": command,
        "recorded_at": recorded_at,
    }
    return hashlib.sha256(prev_hash.encode() + b"\n" + msgspec.json.encode(body, order="sorted")).hexdigest()


def event_salt(seed: str, version: int) -> bytes:
    """The secret salt of event `version`'s commitment: derivable by anyone once the seed is revealed."""
    return hmac.new(seed.encode(), f"turnstile/event-salt/{version}".encode(), hashlib.sha256).digest()


def commitment(salt: bytes, payload: dict[str, Any], command: dict[str, Any] | None) -> str:
    """sha256 hex of salt + the sorted-key JSON of the full (canonical) event and the command behind it."""
    return _commitment(salt, _sorted.encode(payload), _sorted.encode(command))


def _commitment(salt: bytes, payload_json: bytes, command_json: bytes) -> str:
    """`commitment` of the event and command given as their sorted-key JSON."""
    # The sorted-key JSON of {"event": payload, "command": command}, spliced (the two keys in their sorted order).
    body = b"".join((b'\n{"command":', command_json, b',"event":', payload_json, b"}"))
    return hashlib.sha256(salt + body).hexdigest()


def committed_event_hash(
    prev_hash: str,
    match_id: str,
    version: int,
    type: str,
    public: dict[str, Any],
    seat: int | None,
    commitment: str,
    recorded_at: str,
) -> str:
    """Scheme 2: sha256 hex of prev_hash + "\\n" + the sorted-key JSON of the event's public fields and commitment.

    `public` is the event as a spectator sees it (canonical); nothing hidden enters except through `commitment`.
    """
    return _committed_hash(prev_hash, match_id, version, type, _sorted.encode(public), seat, commitment, recorded_at)


def _committed_hash(prev_hash: str, match_id: str, version: int, type: str, public_json: bytes, seat: int | None,
                    commitment: str, recorded_at: str) -> str:
    """`committed_event_hash` of the public form given as its sorted-key JSON (spliced in as it is)."""
    body = {
        "scheme": SCHEME_COMMITTED,
        "match_id": match_id,
        "version": version,
        "type": type,
        "public": msgspec.Raw(public_json),
        "seat": seat,
        "commitment": commitment,
        "recorded_at": recorded_at,
    }
    return hashlib.sha256(prev_hash.encode() + b"\n" + _sorted.encode(body)).hexdigest()


def opened_commitment(seed: str, version: int, payload: Any, command: Any) -> str:
    """The commitment event `version` of a match with this seed carries when `payload` and `command` are the full event
    and the command it was sealed with (ledger/sealing.py): what opening a commitment recomputes."""
    return _commitment(event_salt(seed, version), canonical_json(payload), canonical_json(command))


class ChainLink(Protocol):
    """What verify_chain reads of an event (a StoredEvent fits)."""

    @property
    def match_id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def payload(self) -> dict[str, Any]: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def command(self) -> dict[str, Any] | None: ...
    @property
    def recorded_at(self) -> str: ...
    @property
    def prev_hash(self) -> str: ...
    @property
    def hash(self) -> str: ...
    @property
    def public_payload(self) -> dict[str, Any] | None: ...
    @property
    def commitment(self) -> str | None: ...


def link_hash(event: ChainLink) -> str:
    """The hash an event should carry, by its scheme (a commitment means scheme 2)."""
    if event.commitment is not None:
        public = event.payload if event.public_payload is None else event.public_payload
        return _scheme2_hash(event, event.commitment, canonical_json(public))
    return event_hash(event.prev_hash, event.match_id, event.version, event.type, event.payload, event.seat,
                      event.command, event.recorded_at)


def _scheme2_hash(event: ChainLink, commitment: str, public_json: bytes) -> str:
    return _committed_hash(event.prev_hash, event.match_id, event.version, event.type, public_json, event.seat,
                           commitment, event.recorded_at)


def verify_chain(events: Iterable[ChainLink], seed: str | None = None) -> int | None:
    """The version of the first event that breaks the chain, or None if all link up.

    The events must be consecutive versions of one match. A run starting at version 1 must start
    from GENESIS; a run starting later trusts its first prev_hash (check it against an earlier run).
    With `seed`, an event whose commitment does not open under it (as `unopened` finds) breaks it too: both checks in
    one pass, which canonicalises a payload that is its own public form once for its hash and its commitment.
    """
    salts = None if seed is None else _Salts(seed)
    prev: ChainLink | None = None
    for event in events:
        if prev is None:
            if event.version == 1 and event.prev_hash != GENESIS:
                return event.version
        elif (
            event.match_id != prev.match_id
            or event.version != prev.version + 1
            or event.prev_hash != prev.hash
        ):
            return event.version
        if event.commitment is None:
            if link_hash(event) != event.hash:
                return event.version
        else:
            payload_json = canonical_json(event.payload)
            public_json = payload_json if event.public_payload is None else canonical_json(event.public_payload)
            if _scheme2_hash(event, event.commitment, public_json) != event.hash or (
                    salts is not None and not salts.opens(event, payload_json)):
                return event.version
        prev = event
    return None


class _Salts:
    """The commitment salts of one seed (`event_salt`), from its HMAC's two keyed hashes copied per event: the pads
    computed once a match."""

    def __init__(self, seed: str) -> None:
        # HMAC-SHA256 (RFC 2104) by hand: hmac.new's bytes without the Python layers its copy, update and digest add
        # per event (tests/store/test_chain.py holds the two equal).
        key = seed.encode()
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        key = key.ljust(_BLOCK, b"\0")
        self.inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self.outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def salt(self, version: int) -> bytes:
        """`event_salt(seed, version)`."""
        inner = self.inner.copy()
        inner.update(b"turnstile/event-salt/%d" % version)
        outer = self.outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def opens(self, event: ChainLink, payload_json: bytes) -> bool:
        """Whether the event's commitment opens to its full payload (`payload_json`, canonical) and its command."""
        return _commitment(self.salt(event.version), payload_json, canonical_json(event.command)) == event.commitment


def unopened(seed: str, events: Iterable[ChainLink]) -> int | None:
    """The version of the first scheme 2 event whose commitment does not open to its full payload and command under
    `seed` (the one that salts the match's commitments), or None. Scheme 1 events (no commitment) are skipped: their
    hash covers both. With `verify_chain`, whoever holds the seed (the server while the match is played, anyone after
    the end) knows the events are those sealed, hidden parts and commands included."""
    salts = _Salts(seed)
    for event in events:
        if event.commitment is not None and not salts.opens(event, canonical_json(event.payload)):
            return event.version
    return None
