"""A match created under an Idempotency-Key: a retried create (same app key, same key, same request) answers the
first answer and opens no second match; the same key with another request is IdempotencyMismatch.

Nothing is stored for it but what a move's key already uses. The match's id, its seat tokens and its join codes are
derived from the caller's app key (a secret the store never holds, only its hash) and the Idempotency-Key, so a
retry derives the first answer's again, and two creates sent at once race for one match id: the store's unique id
lets exactly one write. The creation's events are recorded under a command id naming the request's digest (the
moves' `commands` table), so a retry with another request finds no such command and is told so.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from ledger.chain import canonical
from service.matches.tokens import derived_secret


@dataclass(frozen=True)
class CreateKey:
    """The Idempotency-Key of a create, scoped to the app key that sent it (`app_key`, the secret itself)."""

    app_key: str
    key: str

    def _label(self, what: str) -> str:
        return f"turnstile/create/{len(self.key)}:{self.key}/{what}"

    def match_id(self) -> str:
        """The id of the match this key creates (a version-4 UUID shape, as random ids are)."""
        digest = hashlib.sha256(derived_secret("id", self.app_key, self._label("match")).encode()).digest()
        return str(uuid.UUID(bytes=digest[:16], version=4))

    def token_of(self, seat: int) -> str:
        """The token of a person's seat of that match."""
        return derived_secret("seat", self.app_key, self._label(f"seat/{seat}"))

    def code_of(self, seat: int) -> str:
        """The join code of an open seat of that match."""
        return derived_secret("join", self.app_key, self._label(f"join/{seat}"))


def create_command_id(slug: str, players: Sequence[str | None], options: dict[str, Any] | None, **asked: Any) -> str:
    """The command id the creation's events are recorded under: the digest of everything the create was asked."""
    request = canonical(msgspec.to_builtins({"game": slug, "players": list(players), "options": options, **asked}))
    return "create:" + hashlib.sha256(msgspec.json.encode(request, order="sorted")).hexdigest()
