"""Upcasting: how an event recorded in an older shape reaches today's folds.

Events are a public contract and are never rewritten: an upcaster turns a stored payload into the shape today's
event Struct reads, as the payload is decoded (domain/codec.py), for matches of the edition that declares it. Each
edition carries the upcasters its records need (`Edition.upcasters`, in the game's `editions.py`); the bytes the
chain hashed stay as they were recorded.

Most shape changes need none: a field added with a default that means what older records meant reads as that
default (msgspec fills it). Those are listed in DEFAULTED below, so this page and the editions' upcasters name every
change of shape since the first release (`git log -p -- 'domain/games/*/events.py' domain/lifecycle.py`); an upcaster
is needed only where the default would be wrong for older records. The upcasters declared so far:

- Touched On edition 1, `touched-on.game-set-up`: `free_tram_zone` is "L1" (domain/games/touched_on/editions.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]

# Fields added since the first release whose default reads older records as they were played (no upcaster needed).
DEFAULTED: tuple[tuple[str, str, str], ...] = (
    ("terminus.set-up", "capacity_start", "0: edition 1's start (57a5325)"),
    ("terminus.bonus-collected", "reward", "-1: edition 1's fixed coins name no area (57a5325)"),
    ("terminus.bonus-collected", "partial", "false: edition 1 never collected in part (57a5325)"),
    ("match.started", "seed_source, client_entropy, visibility, rematch_of", "server, none, public, none"),
)


def upcast(upcasters: Mapping[str, Upcaster], payload: Payload) -> Payload:
    """The payload in the shape today's event reads, through the upcaster for its type in `upcasters` (an edition's,
    by event type); itself when none applies."""
    tag = payload.get("type") if isinstance(payload, dict) else None
    upcaster = upcasters.get(tag) if isinstance(tag, str) else None
    return payload if upcaster is None else upcaster(payload)
