"""Which bucket a bearer credential may draw on: its own only once it is known to be an app key or a seat token.

A made-up token must not buy a fresh bucket, so the rate limiter asks here before it trusts one. What is known is
remembered for a while (a bounded cache of hashes, never secrets); a credential not remembered is charged to its
caller's address before it is looked up, so an address can cost the store no more lookups than its own limit.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Literal, Protocol

import anyio.to_thread

from ledger.events import MatchRecord

Kind = Literal["app", "seat"]
MATCH_PATH = re.compile(r"^/v1/matches/([^/]+)")


class Lookups(Protocol):
    """What the store answers about credentials (a part of `store.read_models.Store`)."""

    def app_key_name(self, key_hash: str) -> str | None:
        """The name of the app key with this hash, or None."""
        ...

    def get_match(self, match_id: str) -> MatchRecord | None:
        """The match row, or None."""
        ...


class Remembered:
    """A bounded map of hashes to what they were found to be, each entry forgotten `ttl_s` after it was learnt."""

    def __init__(self, size: int, ttl_s: float, clock: Callable[[], float]) -> None:
        self.size = size
        self.ttl_s = ttl_s
        self.clock = clock
        self.entries: OrderedDict[str, tuple[Kind | None, float]] = OrderedDict()

    def get(self, digest: str) -> tuple[bool, Kind | None]:
        """(found, kind): found False when it was never learnt or has been forgotten."""
        entry = self.entries.get(digest)
        if entry is None or entry[1] < self.clock():
            return False, None
        return True, entry[0]

    def learn(self, digest: str, kind: Kind | None) -> None:
        """Remember `kind` (None: known to be nobody's) for `digest`, forgetting the oldest entry when full."""
        self.entries[digest] = (kind, self.clock() + self.ttl_s)
        self.entries.move_to_end(digest)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)


class Credentials:
    """Tells an app key or a seat token from a made-up one, through the store, remembering both answers."""

    def __init__(self, store: Lookups, *, size: int = 100_000, ttl_s: float = 300.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.known = Remembered(size, ttl_s, clock)

    def remembered(self, secret: bytes, path: str) -> tuple[bool, Kind | None]:
        """What the credential was last found to be, without asking the store: (found, kind). A credential found to
        be nobody's is remembered so for where it was looked up (a seat token: that match), so a seat token first
        shown on another match's path is still recognised on its own."""
        digest = digest_of(secret)
        found, kind = self.known.get(digest)
        if found and kind is not None:
            return found, kind
        return self.known.get(f"{digest}@{self.scope(secret, path)}")

    async def look_up(self, secret: bytes, path: str) -> Kind | None:
        """Ask the store (off the event loop) and remember: an app key, a seat token of the match in `path`, or
        None. A seat token is only recognised on its own match's paths; elsewhere nothing is asked."""
        scope = self.scope(secret, path)
        if scope is None:
            return None
        digest = digest_of(secret)
        kind = await anyio.to_thread.run_sync(self._find, secret, digest, scope)
        self.known.learn(digest if kind is not None else f"{digest}@{scope}", kind)
        return kind

    @staticmethod
    def scope(secret: bytes, path: str) -> str | None:
        """Where a credential can be told real: "" for an app key, the match id of the path for a seat token (None:
        the path names no match)."""
        if secret.startswith(b"app_"):
            return ""
        match = MATCH_PATH.match(path)
        return None if match is None else match.group(1)

    def _find(self, secret: bytes, digest: str, scope: str) -> Kind | None:
        if secret.startswith(b"app_"):
            return "app" if self.store.app_key_name(digest) is not None else None
        record = self.store.get_match(scope)
        if record is not None and any(seat.token_hash == digest for seat in record.seats):
            return "seat"
        return None


def digest_of(secret: bytes) -> str:
    """The SHA-256 of a secret (hex), as the store keeps it (service/tokens.secret_hash)."""
    return hashlib.sha256(secret).hexdigest()
