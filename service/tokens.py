"""Secrets handed to clients (seat tokens, app keys) and the hashes that are all the store keeps."""

from __future__ import annotations

import hashlib
import secrets


def new_secret(prefix: str) -> str:
    """A fresh bearer secret, e.g. `seat_…` or `app_…`."""
    return f"{prefix}_{secrets.token_urlsafe(24)}"


def secret_hash(secret: str) -> str:
    """The SHA-256 of a secret (hex): what is stored and compared."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_seed() -> str:
    """A match seed with 256 bits of entropy."""
    return secrets.token_hex(32)
