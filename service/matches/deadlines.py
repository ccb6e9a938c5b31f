"""Turn deadlines and abandonment: when a seat's time runs out, and the sweep that records it (and closes a
match nobody moved in for its `abandon_after`, under the command id `abandon:<version>`, and deals an
`entropy: "seats"` match whose `entropy_deadline` has run out, under the command id `deal`, the seats still silent
recorded absent).

A deadline is the recorded time of the event that put the seat to move plus the match's `move_deadline`, so it is
read from the record and a replay (or the verifier) finds the same one. The sweep is given the time (`now`), so
tests move a fake clock instead of sleeping. Its appends are conditional on the version the lapse was seen at and
carry the command id `timeout:<seat>:<version>`: a second sweep, here or in another process, writes nothing.

A search bot's turn is played in the background (the API process's bot runner, or a worker's job with Redis); the
sweep plays it only once it has waited the service's `search_grace_s` (settings.py), when whoever had it lost it.

The sweep reads only the matches whose `due_at` hint (store/base.py `due_matches`) has come: every append keeps
the earlier of the row's hint and its own candidate (service/matches/matches.py `due_in`), so a hint is never later than
the truth, and the sweep sets the exact next due time of each match it looks at (`set_due`, only if the match has
not moved on meanwhile).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from domain import bots
from domain.engine import Refusal
from domain.lifecycle import Abandon, TimeOut
from service.matches.matches import LoadedMatch, MatchService, VersionMismatch
from service.matches.move_deadlines import at, deadlines
from store.base import RecordCorrupt, utc_now

log = logging.getLogger("turnstile.deadlines")
PAGE = 200


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


def entropy_deadline(service: MatchService, loaded: LoadedMatch) -> datetime | None:
    """When a dealing match's seats' time for their entropy runs out: `match.started`'s recorded time plus
    `entropy_deadline` (None: not dealing)."""
    state = loaded.state
    if not state.dealing:
        return None
    started = service.store.read_match(loaded.record.id, state.started_version, state.started_version)
    return at(started[0].recorded_at) + timedelta(seconds=state.options["entropy_deadline"])


def deal_late(service: MatchService, loaded: LoadedMatch, now: datetime) -> int:
    """Deal a dealing match whose entropy is all in (its deal was missed, e.g. a process stopped) or whose
    `entropy_deadline` is at or before `now` (the silent seats recorded absent): 1 append, or 0."""
    due = entropy_deadline(service, loaded)
    if due is None or (due > now and None in loaded.state.seat_entropy):
        return 0
    after = service.deal(loaded, closing=True)
    return 0 if after is loaded or after.state.dealing else 1


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
    """Record the timeouts and abandonments due at `now()` in the matches whose `due_at` hint says they may be (the
    store's index of hinted rows, in pages: the cost follows the matches due, not all of them); returns the appends
    written. Each match looked at gets its exact next `due_at` (`next_due`), so a hint set early is looked at once.
    """
    moment = now()
    written = 0
    after: tuple[datetime, str] | None = None
    while True:
        page = service.store.due_matches(moment, PAGE, after)
        for _, match_id in page:
            try:
                written += _sweep_one(service, match_id, moment)
            except RecordCorrupt:  # logged by the service; the other matches are still swept
                continue
        if len(page) < PAGE:
            return written
        after = page[-1]  # a keyset: a match whose hint was not moved (it failed) is not read again in this sweep


def _sweep_one(service: MatchService, match_id: str, now: datetime) -> int:
    """Record what is due in one match at `now`, then store its exact next due time (unless it moved meanwhile)."""
    loaded = service.load(match_id)
    options = loaded.state.options
    written = 0
    if search_turn(loaded):  # the background's turn: no deadline runs out for it, nor the match's abandonment
        if not search_turn_lost(loaded, now, service.search_grace_s):
            service.store.set_due(match_id, loaded.record.version, next_due(service, loaded))
            return 0
        written = len(service.play_bots(loaded, searching=True)[1])  # a crash, a restart or Redis lost it
    if written:
        loaded = service.load(match_id)
    written += deal_late(service, loaded, now) if options.get("entropy") else 0
    if options.get("abandon_after") and not written:
        written += abandon(service, loaded, now)
    if options.get("move_deadline") and not written and not loaded.state.finished:
        written += time_out(service, loaded, now)
    if written:
        loaded = service.load(match_id)
    service.store.set_due(match_id, loaded.record.version, next_due(service, loaded))
    return written


def search_turn(loaded: LoadedMatch) -> bool:
    """A search bot is to move (its turn is played in the background: service/matches/bot_runner.py, bot_jobs.py)."""
    waiting = bots.bot_to_move(loaded.game, loaded.state)
    return waiting is not None and bots.is_search(waiting[1])


def search_turn_lost(loaded: LoadedMatch, now: datetime, grace_s: float) -> bool:
    """A search bot's turn has waited `grace_s` since the last write at `now`: the bot runner or worker that had it
    did not play it (a crash, a restart, a job lost with Redis)."""
    return search_turn(loaded) and at(loaded.record.updated_at) + timedelta(seconds=grace_s) <= now


def next_due(service: MatchService, loaded: LoadedMatch) -> datetime | None:
    """When the sweep next has something to do for the match as loaded: its earliest move deadline, entropy deadline
    or abandonment (None: ended, or none of these)."""
    if loaded.state.finished:
        return None
    if search_turn(loaded):  # the background's turn: the sweep's once it is late
        return at(loaded.record.updated_at) + timedelta(seconds=service.search_grace_s)
    found = list(deadlines(service, loaded).values())
    dealing = entropy_deadline(service, loaded)
    if dealing is not None:
        found.append(dealing)
    seconds = loaded.state.options.get("abandon_after")
    if seconds:
        found.append(at(loaded.record.updated_at) + timedelta(seconds=seconds))
    return min(found, default=None)
