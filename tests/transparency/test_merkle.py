"""The log's Merkle tree against RFC 9162's definitions: published vectors, and a brute recomputation of every proof
of every tree of up to 64 leaves (where off-by-one errors in the bit-walking verifiers show)."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest

from ledger.merkle import (
    ProofError,
    appended_nodes,
    consistency_ranges,
    hash_ranges,
    inclusion_ranges,
    leaf_hash,
    node_hash,
    perfect_parts,
    root,
    split,
    verify_consistency,
    verify_inclusion,
)

VECTORS = json.loads((Path(__file__).parent / "vectors.json").read_text())
# RFC 6962's test leaves (the inputs of the vectors above, as in transparency-dev/merkle's testonly package).
CT_LEAVES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                        "606162636465666768696a6b6c6d6e6f")]
b64 = base64.b64decode


def ct_root(size: int) -> bytes:
    return root([leaf_hash(d) for d in CT_LEAVES[:size]])


# ---- an independent reading of the RFC: the recursive definitions, word for word --------------


def mth(d: list[bytes]) -> bytes:
    """RFC 9162 2.1.1 over leaf hashes (already hashed with 0x00)."""
    if len(d) == 1:
        return d[0]
    k = split(len(d))
    return node_hash(mth(d[:k]), mth(d[k:]))


def rfc_path(m: int, d: list[bytes]) -> list[bytes]:
    """RFC 9162 2.1.3.1 PATH(m, D[n])."""
    n = len(d)
    if n == 1:
        return []
    k = split(n)
    if m < k:
        return rfc_path(m, d[:k]) + [mth(d[k:])]
    return rfc_path(m - k, d[k:]) + [mth(d[:k])]


def rfc_subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    """RFC 9162 2.1.4.1 SUBPROOF(m, D[n], b)."""
    n = len(d)
    if m == n:
        return [] if b else [mth(d)]
    k = split(n)
    if m <= k:
        return rfc_subproof(m, d[:k], b) + [mth(d[k:])]
    return rfc_subproof(m - k, d[k:], False) + [mth(d[:k])]


def all_nodes(leaves: list[bytes]) -> dict[tuple[int, int], bytes]:
    """Every perfect subtree of the leaves, hashed from scratch."""
    nodes = {}
    level = 0
    while (1 << level) <= len(leaves):
        for index in range(len(leaves) >> level):
            nodes[(level, index)] = mth(leaves[index << level:(index + 1) << level])
        level += 1
    return nodes


LEAVES = [leaf_hash(f"leaf {i}".encode()) for i in range(64)]
NODES = all_nodes(LEAVES)


# ---- published vectors ----------------------------------------------------------------------


def test_the_ct_test_leaves_give_the_published_roots() -> None:
    """The roots in the vectors are MTH of RFC 6962's test leaves: our hashing is the RFC's."""
    roots = {v["treeSize"]: v["root"] for v in VECTORS["inclusion"]}
    roots |= {v["size1"]: v["root1"] for v in VECTORS["consistency"] if not v["wantErr"]}
    roots |= {v["size2"]: v["root2"] for v in VECTORS["consistency"] if not v["wantErr"]}
    assert len(roots) >= 5
    for size, expected in roots.items():
        assert ct_root(size) == b64(expected), size


@pytest.mark.parametrize("vector", VECTORS["inclusion"], ids=lambda v: v["desc"])
def test_inclusion_vectors(vector: dict) -> None:
    proof = [b64(p) for p in vector["proof"]]
    args = (vector["leafIdx"], vector["treeSize"], b64(vector["leafHash"]), proof, b64(vector["root"]))
    if vector["wantErr"]:
        with pytest.raises(ProofError):
            verify_inclusion(*args)
    else:
        verify_inclusion(*args)
        leaves = [leaf_hash(d) for d in CT_LEAVES[:vector["treeSize"]]]
        assert rfc_path(vector["leafIdx"], leaves) == proof


@pytest.mark.parametrize("vector", VECTORS["consistency"], ids=lambda v: v["desc"])
def test_consistency_vectors(vector: dict) -> None:
    proof = [b64(p) for p in vector["proof"]]
    args = (vector["size1"], vector["size2"], b64(vector["root1"]), b64(vector["root2"]), proof)
    if vector["wantErr"]:
        with pytest.raises(ProofError):
            verify_consistency(*args)
    else:
        verify_consistency(*args)
        leaves = [leaf_hash(d) for d in CT_LEAVES[:vector["size2"]]]
        assert rfc_subproof(vector["size1"], leaves, True) == proof


# ---- every proof of every tree up to 64 leaves ---------------------------------------------------


@pytest.mark.parametrize("n", range(1, 65))
def test_every_inclusion_proof_up_to_64(n: int) -> None:
    """From stored perfect subtrees, each proof equals the RFC's PATH, verifies, and fails when any part changes."""
    leaves = LEAVES[:n]
    top = mth(leaves)
    assert hash_ranges([(0, n)], NODES.__getitem__) == [top]
    for m in range(n):
        proof = hash_ranges(inclusion_ranges(m, n), NODES.__getitem__)
        assert proof == rfc_path(m, leaves)
        verify_inclusion(m, n, leaves[m], proof, top)
        for i in range(len(proof)):
            bad = proof[:i] + [bytes([proof[i][0] ^ 1]) + proof[i][1:]] + proof[i + 1:]
            with pytest.raises(ProofError):
                verify_inclusion(m, n, leaves[m], bad, top)
        with pytest.raises(ProofError):
            verify_inclusion(m, n, LEAVES[(m + 1) % 64], proof, top)
        if m + 1 < n:  # another place: the path turns the other way somewhere (a size is the checkpoint's word)
            with pytest.raises(ProofError):
                verify_inclusion(m + 1, n, leaves[m], proof, top)
        with pytest.raises(ProofError):
            verify_inclusion(m, n, leaves[m], [*proof, top], top)
        if proof:
            with pytest.raises(ProofError):
                verify_inclusion(m, n, leaves[m], proof[:-1], top)


@pytest.mark.parametrize("n", range(1, 65))
def test_every_consistency_proof_up_to_64(n: int) -> None:
    """Each proof equals the RFC's PROOF(m, D[n]), verifies, and fails with a changed part, root or size."""
    leaves = LEAVES[:n]
    top = mth(leaves)
    for m in range(1, n + 1):
        old = mth(leaves[:m])
        proof = hash_ranges(consistency_ranges(m, n), NODES.__getitem__)
        assert proof == rfc_subproof(m, leaves, True)
        verify_consistency(m, n, old, top, proof)
        if m == n:
            continue
        for i in range(len(proof)):
            bad = proof[:i] + [bytes([proof[i][0] ^ 1]) + proof[i][1:]] + proof[i + 1:]
            with pytest.raises(ProofError):
                verify_consistency(m, n, old, top, bad)
        with pytest.raises(ProofError):
            verify_consistency(m, n, top, old, proof)
        with pytest.raises(ProofError):
            verify_consistency(m, n, old, leaf_hash(b"forged"), proof)
        with pytest.raises(ProofError):
            verify_consistency(m, n, old, top, proof[:-1])
        with pytest.raises(ProofError):
            verify_consistency(m, n, old, top, [*proof, top])
        if m > 1:
            with pytest.raises(ProofError):
                verify_consistency(m - 1, n, old, top, proof)


def test_the_empty_and_equal_trees() -> None:
    verify_consistency(0, 5, b"", LEAVES[0], [])
    verify_consistency(3, 3, LEAVES[0], LEAVES[0], [])
    with pytest.raises(ProofError):
        verify_consistency(3, 3, LEAVES[0], LEAVES[1], [])
    with pytest.raises(ProofError):
        verify_consistency(4, 3, LEAVES[0], LEAVES[0], [LEAVES[1]])
    with pytest.raises(ProofError):
        inclusion_ranges(3, 3)
    with pytest.raises(ProofError):
        consistency_ranges(0, 3)


def test_proof_ranges_fold_few_stored_subtrees() -> None:
    """O(log n) reads: a proof at a million leaves names at most ~2 log2(n) perfect subtrees per range."""
    n = 1_000_003
    for m in (0, 1, n // 2, n - 2, n - 1):
        ranges = inclusion_ranges(m, n)
        assert len(ranges) <= 21
        assert sum(len(perfect_parts(a, b)) for a, b in ranges) <= 2 * 21
    assert len(consistency_ranges(1000, n)) <= 42


@pytest.mark.parametrize("seed", range(5))
def test_appending_in_batches_builds_every_perfect_subtree(seed: int) -> None:
    """The sequencer's incremental build, in batches of random sizes, makes exactly the subtrees a full build has."""
    rng = random.Random(seed)
    built: dict[tuple[int, int], bytes] = {}
    size = 0
    while size < 64:
        batch = LEAVES[size:size + rng.randint(1, 9)]
        built.update(appended_nodes(size, batch, built.__getitem__))
        size += len(batch)
    assert built == NODES
