"""A small log made here (its own tree and consistency proofs, by the RFC's recursion, apart from ledger/merkle.py's
store-shaped code) and a witness of it over each state database."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ledger.cosignature import Cosigner
from ledger.merkle import leaf_hash, root, split
from ledger.notes import Checkpoint, Signer
from service.witness import Witness
from store.witness_state import WitnessState

ORIGIN = "turnstile.test/log"
LEAVES = [leaf_hash(b"leaf %d" % i) for i in range(64)]


def subproof(m: int, leaves: list[bytes], complete: bool) -> list[bytes]:
    """RFC 6962 2.1.2 SUBPROOF(m, D[n], b)."""
    n = len(leaves)
    if m == n:
        return [] if complete else [root(leaves)]
    k = split(n)
    if m <= k:
        return subproof(m, leaves[:k], complete) + [root(leaves[k:])]
    return subproof(m - k, leaves[k:], False) + [root(leaves[:k])]


def proof(m: int, n: int) -> list[bytes]:
    """The consistency proof from the tree of m leaves to that of n (empty from 0 or between equal sizes)."""
    return [] if m in (0, n) else subproof(m, LEAVES[:n], True)


class Log:
    """A log that signs checkpoints of LEAVES[:n]."""

    def __init__(self, origin: str = ORIGIN) -> None:
        self.signer = Signer.generate(origin)

    def note(self, n: int, root_hash: bytes | None = None) -> str:
        return self.signer.sign(Checkpoint(self.signer.name, n, root_hash or root(LEAVES[:n]),
                                           "2030-01-01T00:00:00Z").text())


def body(old: int, note: str, hashes: list[bytes] | None = None) -> bytes:
    """An add-checkpoint body: `old`, the proof lines (the right proof unless given), a blank line, the note."""
    import base64

    from ledger.notes import TreeHead

    size = TreeHead.parse(note.rpartition("\n\n")[0] + "\n").size
    lines = proof(old, size) if hashes is None else hashes
    return (f"old {old}\n" + "".join(base64.b64encode(h).decode() + "\n" for h in lines) + "\n" + note).encode()


@pytest.fixture
def log() -> Log:
    return Log()


@pytest.fixture
def cosigner() -> Cosigner:
    return Cosigner.generate("witness.test/w1")


@pytest.fixture(params=["sqlite", "postgres"])
def state_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'witness.db'}"
    else:
        yield request.getfixturevalue("pg_clean_url")


@pytest.fixture
def witness(cosigner: Cosigner, log: Log, state_url: str) -> Witness:
    return Witness(cosigner, {ORIGIN: [log.signer.verifier()]}, WitnessState(state_url))

