"""When each seat's move is due (a match with a move deadline): below the match service, which answers a move with
them, and the deadline sweep (service/matches/deadlines.py), which acts on them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from domain import match
from ledger.events import StoredEvent
from service.matches.model import LoadedMatch
from store.read_models import Store


class Stored(Protocol):
    """What reads the recorded times: the match service (its store)."""

    @property
    def store(self) -> Store: ...


def at(recorded_at: str) -> datetime:
    """A recorded time (ISO 8601, UTC) as an aware datetime."""
    return datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))


def deadlines(service: Stored, loaded: LoadedMatch, known: Sequence[StoredEvent] = ()) -> dict[int, datetime]:
    """Each seat to move and when its time runs out (empty without a move deadline, or once the match ended). The
    recorded times come from `known` events (a move's answer has just stored them) or, for the rest, the store."""
    state = loaded.state
    seconds = state.options.get("move_deadline")
    seats = match.to_move(loaded.game, state)
    if not seconds or not seats or not state.since:
        return {}
    versions = {state.since[s] for s in seats}
    times = {e.version: at(e.recorded_at) for e in known if e.version in versions}
    if missing := versions - times.keys():
        stored = service.store.read_match(loaded.record.id, min(missing), max(missing))
        times |= {e.version: at(e.recorded_at) for e in stored}
    return {s: times[state.since[s]] + timedelta(seconds=seconds) for s in seats}
