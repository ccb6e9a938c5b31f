"""Every upcaster, in one place: how an event recorded in an older shape reaches today's folds.

Events are a public contract and are never rewritten: an upcaster turns a stored payload into the shape today's
event Struct reads, as the payload is decoded (domain/codec.py), for matches of the edition it names. The bytes the
chain hashed stay as they were recorded.

Most shape changes need none: a field added with a default that means what older records meant reads as that
default (msgspec fills it). Those are listed in DEFAULTED below, so this page names every change of shape since the
first release (`git log -p -- 'domain/games/*/events.py' domain/lifecycle.py`); an upcaster is needed only where the
default would be wrong for older records.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]


def _touched_on_zone_l1(payload: Payload) -> Payload:
    """Touched On edition 1 (before 98513a3): `game-set-up` had no `free_tram_zone`; L1 always was the Free Tram Zone
    (DEFAULT data of that edition), so the field's default "" (none) would be wrong."""
    return payload if "free_tram_zone" in payload else {**payload, "free_tram_zone": "L1"}


# (game, rules edition, event type) -> the upcaster that payloads of that type in matches of that edition go through.
UPCASTERS: dict[tuple[str, str, str], Upcaster] = {
    ("touched-on", "1", "touched-on.game-set-up"): _touched_on_zone_l1,
}

# Fields added since the first release whose default reads older records as they were played (no upcaster needed).
DEFAULTED: tuple[tuple[str, str, str], ...] = (
    ("terminus.set-up", "capacity_start", "0: edition 1's start (57a5325)"),
    ("terminus.bonus-collected", "reward", "-1: edition 1's fixed coins name no area (57a5325)"),
    ("terminus.bonus-collected", "partial", "false: edition 1 never collected in part (57a5325)"),
    ("match.started", "seed_source, client_entropy, visibility, rematch_of", "server, none, public, none"),
)


@cache
def upcasters_of(game: str, rules_version: str) -> dict[str, Upcaster]:
    """The upcasters that apply to a match of `game` at `rules_version`, by event type."""
    return {tag: upcaster for (slug, version, tag), upcaster in UPCASTERS.items()
            if (slug, version) == (game, rules_version)}


def upcast(game: str, rules_version: str, payload: Payload) -> Payload:
    """The payload in the shape today's event reads (itself when no upcaster applies)."""
    tag = payload.get("type") if isinstance(payload, dict) else None
    upcaster = upcasters_of(game, rules_version).get(tag) if isinstance(tag, str) else None
    return payload if upcaster is None else upcaster(payload)
