"""Secrets handed to clients (seat tokens, app keys) and the hashes that are all the store keeps."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable


def new_secret(prefix: str) -> str:
    """A fresh bearer secret, e.g. `seat_…` or `app_…`."""
    return f"{prefix}_{secrets.token_urlsafe(24)}"


def secret_hash(secret: str) -> str:
    """The SHA-256 of a secret (hex): what is stored and compared."""
    return hashlib.sha256(secret.encode()).hexdigest()


def derived_secret(prefix: str, key: str, label: str) -> str:
    """A bearer secret shaped like `new_secret(prefix)` but derived (HMAC-SHA-256) from a secret `key` and a `label`:
    whoever holds the key can be told it again; the store keeps only its hash, as for any secret."""
    digest = hmac.new(key.encode(), label.encode(), hashlib.sha256).digest()
    return f"{prefix}_" + base64.urlsafe_b64encode(digest[:24]).decode()


def derived_seat_token(token_secret: str, match_id: str, seat: int) -> str:
    """The seat token of a seat of a match the service opened for a tournament: derived from the tournament's secret
    (never stored, never revealed), so its owning app can be told it again (feed, webhook); the match keeps only its
    hash, as for any seat."""
    return derived_secret("seat", token_secret, f"turnstile/tournament-seat/{match_id}/{seat}")


def new_seed() -> str:
    """A match seed with 256 bits of entropy."""
    return secrets.token_hex(32)


class UseLog:
    """Which keys' use is due to be recorded: at most once per `every_s` a key (in this process), so a busy app costs
    the store one small write a minute, not one per request."""

    def __init__(self, every_s: float = 60.0, size: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.every_s = every_s
        self.size = size
        self.clock = clock
        self.recorded: dict[str, float] = {}

    def due(self, key_hash: str) -> bool:
        """Whether the use of this key should be recorded now (and, if so, it counts as recorded)."""
        now = self.clock()
        last = self.recorded.get(key_hash)
        if last is not None and now - last < self.every_s:
            return False
        if len(self.recorded) >= self.size:
            self.recorded.clear()  # forgetting only records a use again sooner
        self.recorded[key_hash] = now
        return True
