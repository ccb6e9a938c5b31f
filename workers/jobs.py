"""RQ jobs. A job catches every projection up from its checkpoint; it never carries events itself."""

from __future__ import annotations

import logging
import threading
import time
from functools import cache
from typing import Any

from projections.catalog import PROJECTIONS
from projections.log import Docs, LogEntry, Projection
from service.reads.runner import catch_up
from settings import Settings

log = logging.getLogger("turnstile.workers")
# Set when this worker process is asked to stop: a job in progress ends after its current batch.
STOPPING = threading.Event()


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
