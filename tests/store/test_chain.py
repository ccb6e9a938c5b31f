"""The hash chain is a published formula: pin it byte for byte, and check the verifier."""

from __future__ import annotations

import hashlib

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.chain import (
    GENESIS,
    _Salts,
    canonical,
    canonical_json,
    commitment,
    committed_event_hash,
    event_hash,
    event_salt,
    unopened,
    verify_chain,
)
from ledger.events import StoredEvent


def test_event_hash_is_sha256_of_prev_newline_sorted_json() -> None:
    body = (
        b'{"command":{"a":1,"type":"go"},"match_id":"m1","payload":{"n":2,"type":"x","z":[1.5,{"a":null,"b":true}]},'
        b'"recorded_at":"2026-01-02T03:04:05.000006Z","seat":0,"type":"x","version":1}'
    )
    expected = hashlib.sha256(GENESIS.encode() + b"\n" + body).hexdigest()
    payload = {"z": [1.5, {"b": True, "a": None}], "type": "x", "n": 2.0}  # unsorted keys, integral float
    got = event_hash(GENESIS, "m1", 1, "x", payload, 0, {"type": "go", "a": 1}, "2026-01-02T03:04:05.000006Z")
    assert got == expected


def test_canonical_forms() -> None:
    assert canonical({"a": (1, 2.0, 1e20, -0.0, 0.5)}) == {"a": [1, 2, 10**20, 0, 0.5]}
    assert type(canonical(2.0)) is int and canonical(True) is True
    with pytest.raises(ValueError):
        canonical(float("inf"))
    with pytest.raises(TypeError):
        canonical({1: "x"})


def chain(n: int) -> list[StoredEvent]:
    events, prev = [], GENESIS
    for v in range(1, n + 1):
        payload = {"type": "t", "v": v}
        h = event_hash(prev, "m", v, "t", payload, None, None, "2026-01-01T00:00:00.000000Z")
        events.append(StoredEvent("m", v, v, "t", payload, None, None, None, "2026-01-01T00:00:00.000000Z", prev, h))
        prev = h
    return events


def test_verify_chain_accepts_a_good_chain_and_its_tail() -> None:
    events = chain(5)
    assert verify_chain(events) is None and verify_chain(events[2:]) is None and verify_chain([]) is None


def test_verify_chain_points_at_the_first_bad_event() -> None:
    events = chain(5)
    swapped = [events[0], events[2], events[1], *events[3:]]
    assert verify_chain(swapped) == 3
    assert verify_chain([*events[:1], *events[2:]]) == 3  # a gap
    forged = msgspec.structs.replace(events[3], seat=1)
    assert verify_chain([*events[:3], forged, events[4]]) == 4
    rehashed = msgspec.structs.replace(
        forged, hash=event_hash(forged.prev_hash, "m", 4, "t", forged.payload, 1, None, forged.recorded_at)
    )
    assert verify_chain([*events[:3], rehashed, events[4]]) == 5  # the next link no longer fits
    assert verify_chain([msgspec.structs.replace(events[0], prev_hash="1" * 64)]) == 1


def _reference(value: object) -> object:
    """canonical as it was written first: one call per node (the leaves are now kept without a call)."""
    if isinstance(value, bool) or value is None or type(value) in (str, int):
        return value
    if isinstance(value, dict):
        return {k: _reference(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_reference(v) for v in value]
    assert isinstance(value, float)
    return int(value) if value.is_integer() else value


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3)
                    | st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=4), max_leaves=20)


@given(JSON)
def test_canonical_equals_the_one_call_per_node_form(value: object) -> None:
    got, want = canonical(value), _reference(value)
    assert got == want and msgspec.json.encode(got) == msgspec.json.encode(want)


FLOATS = st.floats() | st.sampled_from([1.0, 1e20, -0.0, 0.0, 1e300, 2.0**53, 0.5, 5e-324, float("nan"), float("inf")])
ANY_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63) | st.text(max_size=3)
                        | FLOATS,
                        lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                        | st.dictionaries(st.text(max_size=3), inner, max_size=4)
                        | st.dictionaries(st.integers(), inner, min_size=1, max_size=2), max_leaves=20)


@given(ANY_JSON)
def test_canonical_json_is_the_sorted_encoding_of_canonical(value: object) -> None:
    """The C path writes exactly what `canonical` then a sorted encoding would, and refuses what it refuses."""
    try:
        want = msgspec.json.encode(canonical(value), order="sorted")
    except (TypeError, ValueError) as refused:
        with pytest.raises(type(refused)):
            canonical_json(value)
        return
    assert canonical_json(value) == want


def test_canonical_json_takes_canonicals_path_where_the_encoding_differs() -> None:
    want = '{"a":[100000000000000000000,0,0.5,"é"],"b":1}'.encode()
    assert canonical_json({"b": 1.0, "a": [1e20, -0.0, 0.5, "é"]}) == want
    assert canonical_json((1, {"z": None, "y": True})) == b'[1,{"y":true,"z":null}]'
    with pytest.raises(ValueError):
        canonical_json({"a": [float("nan")]})
    with pytest.raises(TypeError):
        canonical_json({1: "x"})


def sealed_chain(seed: str, n: int) -> list[StoredEvent]:
    """A scheme 2 chain whose commitments open under `seed`; event 2 has a hidden part (a public form of its own)."""
    events, prev = [], GENESIS
    for v in range(1, n + 1):
        payload, command = {"type": "t", "v": v, "hand": [v, 2.5]}, {"type": "go", "n": v}
        public = {"type": "t", "v": v} if v == 2 else None
        sealed = commitment(event_salt(seed, v), payload, command)
        h = committed_event_hash(prev, "m", v, "t", public or payload, 0, sealed, "2026-01-01T00:00:00.000000Z")
        events.append(StoredEvent("m", v, v, "t", payload, 0, command, None, "2026-01-01T00:00:00.000000Z", prev, h,
                                  public_payload=public, commitment=sealed))
        prev = h
    return events


@pytest.mark.parametrize("edit", ["payload", "public_payload", "command"])
def test_verify_chain_with_the_seed_also_opens_every_commitment(edit: str) -> None:
    seed = "5eed" * 16
    events = sealed_chain(seed, 4)
    assert verify_chain(events, seed) is None and unopened(seed, events) is None
    edited = msgspec.structs.replace(events[1], **{edit: {"type": "t", "v": 2, "hand": [9, 9]}})
    forged = [*events[:1], edited, *events[2:]]
    # a hidden part or a command edited in storage leaves the hash whole: only the commitment tells
    assert verify_chain(forged) == (2 if edit == "public_payload" else None)
    assert verify_chain(forged, seed) == 2
    assert unopened(seed, forged) == (None if edit == "public_payload" else 2)
    assert verify_chain(events, "0" * 64) == 1  # another seed opens nothing


def test_a_commitment_is_sha256_of_salt_newline_sorted_json_of_event_and_command() -> None:
    """The published formula, byte for byte: the verifier's spliced form must not drift from it."""
    salt, payload, command = b"\x01" * 32, {"z": [1, 2.5], "a": "x"}, {"type": "go"}
    body = b'{"command":{"type":"go"},"event":{"a":"x","z":[1,2.5]}}'
    assert commitment(salt, payload, command) == hashlib.sha256(salt + b"\n" + body).hexdigest()
    assert commitment(salt, payload, None) == hashlib.sha256(
        salt + b'\n{"command":null,"event":{"a":"x","z":[1,2.5]}}').hexdigest()


@given(seed=st.text(max_size=100), version=st.integers(0, 10**9))
def test_the_verifiers_salts_are_the_published_hmac(seed: str, version: int) -> None:
    """`verify_chain` derives each salt from two keyed hashes of its own (keys shorter, as long as and longer than
    SHA-256's block, text beyond ASCII): the same bytes as `event_salt`'s HMAC."""
    assert _Salts(seed).salt(version) == event_salt(seed, version)
