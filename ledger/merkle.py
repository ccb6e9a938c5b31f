"""The transparency log's Merkle tree, exactly as RFC 9162 section 2.1: pure maths, no I/O.

A tree of n leaves splits at k, the largest power of two below n; a leaf hashes as SHA-256(0x00 || data) and a
node as SHA-256(0x01 || left || right). Stored trees keep every *perfect* subtree, named (level, index): the
2**level leaves from index * 2**level on. Every range the RFC's recursion names (the whole tree, or [a, b) with a
a multiple of a power of two at least b - a) is a fold of O(log n) perfect subtrees, so the proofs here are lists
of ranges that a store answers from those nodes in one read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

Hash = bytes
Node = tuple[int, int]  # (level, index): the perfect subtree over leaves [index << level, (index + 1) << level)
EMPTY_ROOT = hashlib.sha256(b"").digest()  # RFC 9162 2.1.1: the hash of an empty list


class ProofError(ValueError):
    """A proof that does not prove what it claims (wrong length, wrong hashes, impossible sizes)."""


def leaf_hash(data: bytes) -> Hash:
    """RFC 9162: MTH({d}) = SHA-256(0x00 || d)."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: Hash, right: Hash) -> Hash:
    """RFC 9162: SHA-256(0x01 || MTH(left) || MTH(right))."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """k: the largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaves: Sequence[Hash]) -> Hash:
    """MTH of a list of leaf hashes, by the RFC's recursion (for tests and small trees)."""
    if not leaves:
        return EMPTY_ROOT
    if len(leaves) == 1:
        return leaves[0]
    k = split(len(leaves))
    return node_hash(root(leaves[:k]), root(leaves[k:]))


# ---- ranges and the perfect subtrees they fold ------------------------------------------------


def perfect_parts(a: int, b: int) -> list[Node]:
    """The perfect subtrees whose fold (right to left) is MTH(D[a:b]), left to right.

    Holds for the ranges the RFC's recursion reaches: a is 0 or a multiple of a power of two at least b - a.
    """
    parts: list[Node] = []
    while a < b:
        size = 1 << ((b - a).bit_length() - 1)  # the largest power of two not above what is left
        parts.append(((size.bit_length() - 1), a // size))
        a += size
    return parts


def fold_parts(hashes: Sequence[Hash]) -> Hash:
    """MTH of a range from its perfect parts' hashes, left to right: each part is the left child of the rest."""
    if not hashes:
        return EMPTY_ROOT
    acc = hashes[-1]
    for part in reversed(hashes[:-1]):
        acc = node_hash(part, acc)
    return acc


def inclusion_ranges(m: int, n: int) -> list[tuple[int, int]]:
    """The ranges whose MTH make PATH(m, D[0:n]) (RFC 9162 2.1.3.1), leaf side first."""
    if not 0 <= m < n:
        raise ProofError(f"leaf {m} is not in a tree of {n}")
    out: list[tuple[int, int]] = []
    lo, hi = 0, n
    while hi - lo > 1:
        k = split(hi - lo)
        if m < lo + k:
            out.append((lo + k, hi))
            hi = lo + k
        else:
            out.append((lo, lo + k))
            lo += k
    out.reverse()
    return out


def consistency_ranges(m: int, n: int) -> list[tuple[int, int]]:
    """The ranges whose MTH make PROOF(m, D[0:n]) (RFC 9162 2.1.4.1: SUBPROOF(m, D[n], true)), in proof order."""
    if not 0 < m <= n:
        raise ProofError(f"no consistency proof from size {m} to size {n}")
    out: list[tuple[int, int]] = []
    lo, hi, whole = 0, n, True  # SUBPROOF(m - lo, D[lo:hi], whole)
    while True:
        size = hi - lo
        if m - lo == size:
            if not whole:
                out.append((lo, hi))
            break
        k = split(size)
        if m - lo <= k:
            out.append((lo + k, hi))
            hi = lo + k
        else:
            out.append((lo, lo + k))
            lo, whole = lo + k, False
    out.reverse()
    return out


def needed_nodes(ranges: Sequence[tuple[int, int]]) -> list[Node]:
    """Every perfect subtree the ranges fold, once each (what to read from a store)."""
    seen: dict[Node, None] = {}
    for a, b in ranges:
        for node in perfect_parts(a, b):
            seen[node] = None
    return list(seen)


def hash_ranges(ranges: Sequence[tuple[int, int]], node: Callable[[Node], Hash]) -> list[Hash]:
    """The MTH of each range, from the perfect subtrees `node` gives."""
    return [fold_parts([node(part) for part in perfect_parts(a, b)]) for a, b in ranges]


def appended_nodes(size: int, leaves: Sequence[Hash], node: Callable[[Node], Hash]) -> list[tuple[Node, Hash]]:
    """The perfect subtrees that complete when `leaves` are appended to a tree of `size`, level 0 included.

    `node` gives the existing subtrees needed as left siblings (those of the old tree's right edge).
    """
    made: dict[Node, Hash] = {}

    def get(at: Node) -> Hash:
        return made[at] if at in made else node(at)

    for offset, digest in enumerate(leaves):
        level, index = 0, size + offset
        made[(level, index)] = digest
        while index & 1:
            digest = node_hash(get((level, index - 1)), digest)
            level, index = level + 1, index >> 1
            made[(level, index)] = digest
    return list(made.items())


# ---- verification (RFC 9162 2.1.3.2 and 2.1.4.2) --------------------------------------------------


def verify_inclusion(index: int, size: int, leaf: Hash, proof: Sequence[Hash], expected_root: Hash) -> None:
    """Check an inclusion proof of leaf hash `leaf` at `index` in the tree of `size` with root `expected_root`."""
    if not 0 <= index < size:
        raise ProofError(f"leaf index {index} is not below tree size {size}")
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            raise ProofError("the inclusion proof is too long")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the inclusion proof is too short")
    if r != expected_root:
        raise ProofError("the inclusion proof does not lead to the root")


def verify_consistency(size1: int, size2: int, root1: Hash, root2: Hash, proof: Sequence[Hash]) -> None:
    """Check that the tree of `size2` with `root2` extends the tree of `size1` with `root1`."""
    if not 0 <= size1 <= size2:
        raise ProofError(f"a tree of {size1} cannot be a prefix of a tree of {size2}")
    if size1 == size2:
        if proof:
            raise ProofError("a proof between equal sizes is empty")
        if root1 != root2:
            raise ProofError("two different roots for one tree size")
        return
    if size1 == 0:
        if proof:
            raise ProofError("a proof from the empty tree is empty")
        return
    if not proof:
        raise ProofError("the consistency proof is empty")
    path = list(proof)
    if size1 & (size1 - 1) == 0:  # a power of two: the old root is the proof's implicit first node
        path.insert(0, root1)
    fn, sn = size1 - 1, size2 - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency proof is too long")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the consistency proof is too short")
    if fr != root1:
        raise ProofError("the consistency proof does not lead to the old root")
    if sr != root2:
        raise ProofError("the consistency proof does not lead to the new root")


# Every stream's events are leaves of the one tree. A match's stream is its id (as it was before tournaments joined
# the log, so every leaf ever written keeps its bytes); any other stream's is its category, a colon, and its id.
# Ids are the server's UUIDs and hold no colon, so no two streams share leaf data.
TOURNAMENT_STREAM = "tournament:"


def tournament_stream(tournament_id: str) -> str:
    """The stream a tournament's events are leaves of: "tournament:<id>"."""
    return TOURNAMENT_STREAM + tournament_id


def event_leaf(stream: str, version: int, chain_hash: str) -> bytes:
    """The leaf data of an event: UTF-8 of "<stream>\\n<version>\\n<chain hash, lowercase hex>", the stream being a
    match's id or "tournament:<id>"."""
    return f"{stream}\n{version}\n{chain_hash}".encode()
