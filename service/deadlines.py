"""Turn deadlines and abandonment: when a seat's time runs out, and the sweep that records it (and closes a
match nobody moved in for its `abandon_after`, under the command id `abandon:<version>`).

A deadline is the recorded time of the event that put the seat to move plus the match's `move_deadline`, so it is
read from the record and a replay (or the verifier) finds the same one. The sweep is given the time (`now`), so
tests move a fake clock instead of sleeping. Its appends are conditional on the version the lapse was seen at and
carry the command id `timeout:<seat>:<version>`: a second sweep, here or in another process, writes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from domain import match
from domain.engine import Refusal
from domain.lifecycle import Abandon, TimeOut
from service.matches import LoadedMatch, MatchService, VersionMismatch
from store.base import MatchRecord, match_key, utc_now

log = logging.getLogger("turnstile.deadlines")
PAGE = 200


def at(recorded_at: str) -> datetime:
    """A recorded time (ISO 8601, UTC) as an aware datetime."""
    return datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))


def deadlines(service: MatchService, loaded: LoadedMatch) -> dict[int, datetime]:
    """Each seat to move and when its time runs out (empty without a move deadline, or once the match ended)."""
    state = loaded.state
    seconds = state.options.get("move_deadline")
    seats = match.to_move(loaded.game, state)
    if not seconds or not seats or not state.since:
        return {}
    versions = {state.since[s] for s in seats}
    stored = service.store.read_match(loaded.record.id, min(versions), max(versions))
    times = {e.version: at(e.recorded_at) for e in stored}
    return {s: times[state.since[s]] + timedelta(seconds=seconds) for s in seats}


def time_out(service: MatchService, loaded: LoadedMatch, now: datetime) -> int:
    """Record a timeout for each seat of this match whose deadline is at or before `now`; returns the appends."""
    written = 0
    for seat, deadline in sorted(deadlines(service, loaded).items()):
        if deadline > now:
            continue
        version = loaded.state.version
        try:
            played = service.play(loaded.record.id, None, TimeOut(seat=seat), expected_version=version,
                                  command_id=f"timeout:{seat}:{version}")
        except (VersionMismatch, Refusal) as exc:  # someone moved meanwhile: the next sweep looks again
            log.info("match %s: timeout of seat %d not recorded (%s)", loaded.record.id, seat, exc)
            return written
        if played.result.duplicate:
            return written
        written += 1
        loaded = played.after
        if loaded.state.finished:
            break
    return written


def abandon(service: MatchService, loaded: LoadedMatch, now: datetime) -> int:
    """Close the match as abandoned if nothing was recorded in it for its `abandon_after` up to `now` (1 append, or
    0: not due, or another sweep did it first under the same command id)."""
    seconds = loaded.state.options.get("abandon_after")
    if not seconds or loaded.state.finished or at(loaded.record.updated_at) + timedelta(seconds=seconds) > now:
        return 0
    version = loaded.state.version
    try:
        played = service.play(loaded.record.id, None, Abandon(), expected_version=version,
                              command_id=f"abandon:{version}")
    except (VersionMismatch, Refusal) as exc:  # someone moved meanwhile: it is not abandoned
        log.info("match %s: not closed as abandoned (%s)", loaded.record.id, exc)
        return 0
    return 0 if played.result.duplicate else 1


def sweep(service: MatchService, now: Callable[[], datetime] = utc_now) -> int:
    """Look at every open or active match with a move deadline or `abandon_after`: record the timeouts and
    abandonments due; returns the appends written."""
    written = 0
    for record in [*_matches(service, "active"), *_matches(service, "open")]:
        if record.options.get("abandon_after"):
            written += abandon(service, service.load(record.id), now())
        if record.options.get("move_deadline"):
            loaded = service.load(record.id)
            if not loaded.state.finished:
                written += time_out(service, loaded, now())
    return written


def _matches(service: MatchService, status: str) -> list[MatchRecord]:
    """Every match with this status, of every app and visibility, in pages."""
    found: list[MatchRecord] = []
    after = None
    while True:
        page = service.store.list_matches(status=status, after=after, limit=PAGE)
        found.extend(page)
        if len(page) < PAGE:
            return found
        after = match_key(page[-1])
