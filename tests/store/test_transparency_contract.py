"""The transparency log's store contract, run against every adapter: leaves in log order, nodes for proofs,
checkpoints under the sequencer's lock, and a sequencer that resumes where it stopped."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from ledger.merkle import (
    consistency_ranges,
    event_leaf,
    hash_ranges,
    inclusion_ranges,
    leaf_hash,
    needed_nodes,
    root,
    verify_consistency,
    verify_inclusion,
)
from tests.store.conftest import Harness
from tests.store.test_contract import full_log, play, start


def log_root(store: Any, size: int) -> bytes:
    nodes = store.log_nodes(needed_nodes([(0, size)]))
    return hash_ranges([(0, size)], nodes.__getitem__)[0]


def expected_leaves(store: Any) -> list[bytes]:
    return [leaf_hash(event_leaf(e.match_id, e.version, e.hash)) for e in full_log(store)]


def test_the_tree_is_every_event_in_log_order(store: Any) -> None:
    a = start(store)
    b = start(store)
    play(store, a, 2, 3)
    play(store, b, 2, 1)
    assert store.log_size() == 0
    size, top = store.sequence_log(limit=4)
    assert size == 4
    size, top = store.sequence_log()
    leaves = expected_leaves(store)
    assert size == len(leaves) == store.log_size() == 8
    assert top == root(leaves) == log_root(store, size)
    assert store.sequence_log() == (size, top)  # nothing new: nothing appended
    leaf = store.log_leaf(a, 5)
    assert leaf is not None and leaf.index == 6 and leaf.hash == store.read_match(a, 5)[0].hash
    assert store.log_leaf(a, 6) is None
    assert [x.version for x in store.log_leaves_of(a, 2)] == [2, 3, 4, 5]


def test_level_0_nodes_are_derived_from_the_leaf_rows_not_stored(harness: Harness, store: Any) -> None:
    """A level-0 node is its leaf's hash: served from the leaf row (one row an event fewer), the same for a single
    node, a level read, and nodes past the end (absent)."""
    play(store, start(store), 2, 4)
    size, _ = store.sequence_log()
    leaves = expected_leaves(store)
    assert harness.raw("SELECT count(*) FROM log_nodes WHERE level = 0") == [(0,)]
    assert harness.raw("SELECT count(*) FROM log_nodes")[0][0] > 0
    assert store.log_nodes([(0, i) for i in range(size + 2)]) == {(0, i): leaf for i, leaf in enumerate(leaves)}
    assert store.log_level(0, 1, 3) == leaves[1:4]
    assert store.log_level(0, size - 1, 5) == leaves[-1:]


def test_proofs_from_stored_nodes_verify_at_every_size(store: Any) -> None:
    ids = [start(store) for _ in range(3)]
    for i, match_id in enumerate(ids):
        play(store, match_id, 2, i + 1)
        store.sequence_log(limit=3)
    while store.sequence_log(limit=2)[0] < len(full_log(store)):
        pass
    leaves = expected_leaves(store)
    n = len(leaves)
    for size in range(1, n + 1):
        top = log_root(store, size)
        assert top == root(leaves[:size])
        for m in range(size):
            ranges = inclusion_ranges(m, size)
            nodes = store.log_nodes(needed_nodes(ranges))
            verify_inclusion(m, size, leaves[m], hash_ranges(ranges, nodes.__getitem__), top)
        for old in range(1, size):
            ranges = consistency_ranges(old, size)
            nodes = store.log_nodes(needed_nodes(ranges))
            verify_consistency(old, size, root(leaves[:old]), top, hash_ranges(ranges, nodes.__getitem__))


def test_a_checkpoint_is_stored_only_when_signed_and_never_for_a_smaller_tree(store: Any) -> None:
    match_id = start(store)
    seen: list[tuple[int, Any]] = []

    def sign(size: int, top: bytes, latest: Any) -> str | None:
        seen.append((size, latest))
        return f"note {size} {top.hex()}"

    assert store.latest_checkpoint() is None
    size, top = store.sequence_log(sign=lambda *_: None)
    assert store.latest_checkpoint() is None
    store.sequence_log(sign=sign)
    latest = store.latest_checkpoint()
    assert (latest.size, latest.root, latest.note) == (size, top, f"note {size} {top.hex()}")
    store.sequence_log(sign=sign)  # the tree has not grown: not asked again
    assert len(seen) == 1
    play(store, match_id, 2, 2)
    store.sequence_log(sign=sign)
    assert seen[-1][0] == size + 2 and seen[-1][1].size == size


def test_a_failed_sequencing_writes_nothing_and_the_next_one_resumes(harness: Harness) -> None:
    """The sequencer's step is one transaction: killed in the middle (here: the signer raises), nothing stays."""
    store = harness.store
    start(store)

    def boom(*_: Any) -> str:
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        store.sequence_log(sign=boom)
    assert store.log_size() == 0
    assert harness.raw("SELECT count(*) FROM log_nodes") == [(0,)]
    size, top = store.sequence_log()
    assert size == 2 and top == root(expected_leaves(store))


def test_concurrent_sequencers_build_one_tree(harness: Harness) -> None:
    """Sequencers in several 'processes' (stores on one database) racing appends: one tree, each event once."""
    others = [harness.store] + ([harness.reopen(), harness.reopen()] if harness.kind != "sqlite-memory" else [])
    ids = [start(harness.store) for _ in range(4)]
    stop = threading.Event()
    errors: list[BaseException] = []

    def sequence(store: Any) -> None:
        try:
            while not stop.is_set():
                store.sequence_log(limit=3)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def append(match_id: str) -> None:
        try:
            for version in range(2, 30):
                play(harness.store, match_id, version)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=sequence, args=(s,)) for s in others]
    writers = [threading.Thread(target=append, args=(i,)) for i in ids]
    for t in threads + writers:
        t.start()
    for t in writers:
        t.join()
    stop.set()
    for t in threads:
        t.join()
    assert not errors
    while harness.store.sequence_log() is None or harness.store.log_size() < len(full_log(harness.store)):
        pass
    leaves = expected_leaves(harness.store)
    assert harness.store.log_size() == len(leaves) == 4 * 30
    assert log_root(harness.store, len(leaves)) == root(leaves)
    rows = harness.raw("SELECT count(*), count(DISTINCT position) FROM log_leaves")
    assert rows == [(len(leaves), len(leaves))]


def test_log_rows_are_immutable(harness: Harness) -> None:
    start(harness.store)
    harness.store.sequence_log(sign=lambda *_: "note")
    for sql in ("UPDATE log_leaves SET hash = 'x'", "DELETE FROM log_nodes", "DELETE FROM log_checkpoints"):
        with pytest.raises(Exception, match="not allowed"):
            harness.raw(sql)
