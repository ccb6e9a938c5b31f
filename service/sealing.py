"""Sealing new events for the record: each gets its public form and a salted commitment (record scheme 2).

The chain hash of a scheme 2 event covers only what a spectator may see plus a commitment to the whole event,
salted with a secret derived from the match seed (store/chain.py). So every hash can be published at every
moment without letting anyone test guesses of hidden cards, and once the seed is revealed at the end, anyone can
open every commitment and check it against the full event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.codec import to_builtins
from domain.engine import Event, Game
from domain.lifecycle import LIFECYCLE_EVENTS
from store.base import NewEvent
from store.chain import SCHEME_FULL, canonical, commitment, event_salt


def public_form(game: Game[Any], event: Event) -> dict[str, Any]:
    """The event as a spectator may see it while the match is played (lifecycle events are public)."""
    if isinstance(event, LIFECYCLE_EVENTS):
        return to_builtins(event)  # type: ignore[no-any-return]
    return to_builtins(game.redact(event, None))  # type: ignore[no-any-return]


def sealed(game: Game[Any], seed: str, scheme: int, first_version: int, events: Sequence[Event],
           command: dict[str, Any] | None) -> list[NewEvent]:
    """The store's form of events to be recorded at versions first_version.. (sealed unless scheme 1)."""
    out = []
    for offset, event in enumerate(events):
        payload = canonical(to_builtins(event))
        if scheme == SCHEME_FULL:
            out.append(NewEvent(type=payload["type"], payload=payload))
            continue
        salt = event_salt(seed, first_version + offset)
        out.append(NewEvent(type=payload["type"], payload=payload, public=canonical(public_form(game, event)),
                            commitment=commitment(salt, payload, canonical(command))))
    return out
