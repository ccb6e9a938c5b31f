"""RQ jobs: a catch-up folds every projection up from its checkpoint (it never carries events itself); a bot turn
plays one search bot's move in a match (service/matches/bot_jobs.py enqueues it)."""

from __future__ import annotations

import logging
import threading
import time
from functools import cache
from typing import TYPE_CHECKING, Any

from projections.catalog import PROJECTIONS
from projections.log import Docs, LogEntry, Projection
from service.reads.runner import catch_up
from settings import Settings

if TYPE_CHECKING:
    from service.matches.matches import MatchService

log = logging.getLogger("turnstile.workers")
# Set when this worker process is asked to stop: a job in progress ends after its current batch.
STOPPING = threading.Event()


# The match service bot turns are played with: the worker's own (`turnstile worker` hands it over: `use_matches`).
_MATCHES: list[MatchService] = []


@cache
def _settings() -> Settings:
    return Settings.from_env()


@cache
def _store() -> Any:
    from store.factory import open_store

    return open_store(_settings().database_url)


def catch_up_job() -> int:
    """Fold the log into every projection up to its head; returns the positions folded. One log line per job."""
    from rq import get_current_job

    job = get_current_job()  # None when called directly (turnstile worker --burst)
    started = time.perf_counter()
    status = "failed"
    folded = 0
    try:
        folded = catch_up(_store(), _projections(), limit=_settings().projection_batch, stopping=STOPPING.is_set)
        status = "stopped" if STOPPING.is_set() else "done"
        return folded
    finally:
        log.info("job catch_up_job %s: %d positions folded", status, folded, extra={"fields": {
            "job": "catch_up_job", "job_id": job.id if job else None, "status": status, "folded": folded,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            "request_id": job.id if job else None}})


def _projections() -> tuple[Projection, ...]:
    """The projections, slowed per event when TURNSTILE_PROJECTION_DELAY_S is set (crash tests kill mid-batch)."""
    delay = _settings().projection_delay_s
    if not delay:
        return PROJECTIONS

    def slowed(projection: Projection) -> Projection:
        def apply(docs: Docs, entry: LogEntry) -> None:
            time.sleep(delay)
            projection.apply(docs, entry)

        return Projection(name=projection.name, version=projection.version, apply=apply)

    return tuple(slowed(p) for p in PROJECTIONS)


def use_matches(service: MatchService | None) -> None:
    """Play bot turns with `service` (the worker runtime's, whose watcher queues each next turn); None: forget it."""
    _MATCHES[:] = [] if service is None else [service]


def bot_turn_job(match_id: str, version: int) -> int:
    """Play the search bot's turn of `match_id` at `version`, if the match is still there (else a no-op: another
    job, the sweep or the API's fallback played it): one search move, then any non-search bots after it; each
    move a conditional append. Returns the moves written. The worker's watcher queues the next search turn."""
    from rq import get_current_job

    if not _MATCHES:
        raise RuntimeError("bot turns are played by `turnstile worker`, which hands its match service over")
    service = _MATCHES[0]
    job = get_current_job()
    started = time.perf_counter()
    status, moved = "failed", 0
    try:
        loaded = service.load(match_id)
        if loaded.state.version != version:
            status = "moved-on"
            return 0
        moved = len(service.play_bots(loaded, searching=True, searches=1)[1])
        status = "done"
        return moved
    finally:
        log.info("job bot_turn_job %s: match %s at version %d, %d moves", status, match_id, version, moved,
                 extra={"fields": {"job": "bot_turn_job", "job_id": job.id if job else None, "status": status,
                                   "match_id": match_id, "version": version, "moved": moved,
                                   "duration_ms": round((time.perf_counter() - started) * 1000, 2)}})
