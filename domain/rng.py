"""Deterministic, portable randomness for rules: SHA-256 in counter mode.

Every random outcome in a match comes from an `Rng` derived from the match seed and the
version the decision is made at, so anyone holding the revealed seed can re-derive every
shuffle and draw. The algorithm is fixed here (not Python's `random`), so a record stays
verifiable across Python versions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def seed_commitment(seed: str) -> str:
    """The public SHA-256 commitment of a match seed (hex)."""
    return hashlib.sha256(seed.encode()).hexdigest()


def mixed_seed(server_seed: str, client_entropy: str) -> str:
    """The seed of a match whose players added entropy: neither side alone chooses it (sha256 hex).

    The entropy is public from the start (in `match.started`); the server's part is revealed with the seed at the
    end, so anyone can recompute this and see the deal depended on what the players said.
    """
    return hashlib.sha256(f"turnstile/mixed-seed/v1\n{server_seed}\n{client_entropy}".encode()).hexdigest()


DEAL_PREFIX = b"turnstile-deal/1\x00"


def deal_seed(server_part: str, entropy: Sequence[str | None]) -> str:
    """The seed of an `entropy: "seats"` match (sha256 hex), from the server's committed part and each seat's entropy
    in seat order (None: the seat was absent, counted as empty). Every length is a 4-byte big-endian prefix, so no
    two different inputs give the same bytes:

        "turnstile-deal/1" 0x00 | u32(len S) S | u32(n) | for each seat i < n: u32(len E_i) E_i

    S is the server part's UTF-8 bytes (64 hex digits), E_i seat i's entropy's UTF-8 bytes (length 0: absent).
    """
    def field(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data

    out = DEAL_PREFIX + field(server_part.encode()) + len(entropy).to_bytes(4, "big")
    out += b"".join(field((e or "").encode()) for e in entropy)
    return hashlib.sha256(out).hexdigest()


class Rng:
    """A stream of uniform integers from SHA-256(key || counter)."""

    __slots__ = ("_key", "_counter", "_pool")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._pool = b""

    @classmethod
    def derive(cls, seed: str, version: int) -> Rng:
        """The RNG for the decision taken on a match at `version` (0 = at creation)."""
        return cls(hashlib.sha256(f"turnstile/v1/{seed}/{version}".encode()).digest())

    def _bytes(self, n: int) -> bytes:
        while len(self._pool) < n:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._pool += block
            self._counter += 1
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big") & mask
            if value < n:
                return value

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """A Fisher-Yates shuffle of `items`, returned as a new tuple."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        """One uniformly chosen item."""
        return items[self.below(len(items))]


def in_order(items: Sequence[str]) -> tuple[str, ...]:
    """`items` sorted: the fixed arrangement of a hidden pool that depends on its contents alone (never on how it
    really lies), which a determinization lays out before shuffling (domain/bots)."""
    return tuple(sorted(items))
