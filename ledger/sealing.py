"""Sealing new events for the record: each gets its public form and a salted commitment (record scheme 2).

The chain hash of a scheme 2 event covers only what a spectator may see plus a commitment to the whole event,
salted with a secret derived from the match seed (ledger/chain.py). So every hash can be published at every
moment without letting anyone test guesses of hidden cards, and once the seed is revealed at the end, anyone can
open every commitment and check it against the full event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.engine import Event, Game
from domain.lifecycle import LIFECYCLE_EVENTS
from ledger.chain import SCHEME_FULL, canonical, canonical_of, commitment, event_salt
from ledger.events import NewEvent


def spectators_event(game: Game[Any], event: Event) -> Event:
    """The event as a spectator may see it while the match is played (lifecycle events are public)."""
    return event if isinstance(event, LIFECYCLE_EVENTS) else game.redact(event, None)


def public_form(game: Game[Any], event: Event) -> dict[str, Any]:
    """The JSON of what a spectator may see of an event (canonical)."""
    return canonical_of(spectators_event(game, event))  # type: ignore[no-any-return]


def sealed(game: Game[Any], seed: str, scheme: int, first_version: int, events: Sequence[Event],
           command: dict[str, Any] | None) -> list[NewEvent]:
    """The store's form of events to be recorded at versions first_version.. (sealed unless scheme 1)."""
    out = []
    asked = canonical(command)
    for offset, event in enumerate(events):
        payload: dict[str, Any] = canonical_of(event)
        if scheme == SCHEME_FULL:
            out.append(NewEvent(type=payload["type"], payload=payload))
            continue
        shown = spectators_event(game, event)
        public = payload if shown == event else canonical_of(shown)  # the same object: nothing is hidden
        salt = event_salt(seed, first_version + offset)
        out.append(NewEvent(type=payload["type"], payload=payload, public=public,
                            commitment=commitment(salt, payload, asked)))
    return out
