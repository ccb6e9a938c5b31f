"""Telling the projection runner that the log grew: through RQ on Redis, or in-process."""

from __future__ import annotations

import logging
import os
import threading
from typing import Any, Protocol

from workers.runner import catch_up

log = logging.getLogger("turnstile.workers")
QUEUE = os.environ.get("TURNSTILE_QUEUE", "turnstile-projections")
PENDING_TTL_S = 60


def pending_key(queue: str) -> str:
    """The Redis flag saying a catch-up job of `queue` is waiting (one pending job at a time)."""
    return f"turnstile:{queue}:pending"


class Notifier(Protocol):
    """Called after every append; must never fail the append."""

    def appended(self) -> None:
        """The log grew."""
        ...

    def close(self) -> None:
        """Stop background work."""
        ...


class RQNotifier:
    """Enqueues one catch-up job at a time (a Redis flag dedupes); an outage only delays projections."""

    def __init__(self, redis_url: str, queue: str = QUEUE) -> None:
        from redis import Redis
        from rq import Queue
        from rq.serializers import JSONSerializer

        self.redis = Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
        self.queue = Queue(queue, connection=self.redis, serializer=JSONSerializer)
        self.pending = pending_key(queue)

    def appended(self) -> None:
        """Enqueue `workers.jobs.catch_up_job` unless one is already pending."""
        try:
            if self.redis.set(self.pending, 1, nx=True, ex=PENDING_TTL_S):
                self.queue.enqueue("workers.jobs.catch_up_job", job_timeout=600, result_ttl=60, failure_ttl=86400)
        except Exception as exc:  # noqa: BLE001  (Redis down: the sweep will catch up)
            log.warning("could not enqueue a projection catch-up (%s); the sweep will catch up", exc)

    def close(self) -> None:
        """Close the Redis connection."""
        self.redis.close()


class InProcessNotifier:
    """The embedded default: one background thread folds after appends and every few seconds."""

    def __init__(self, store: Any, sweep_seconds: float = 5.0) -> None:
        self.store = store
        self.sweep_seconds = sweep_seconds
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="turnstile-projections", daemon=True)
        self.thread.start()

    def appended(self) -> None:
        """Wake the runner."""
        self.wake.set()

    def _run(self) -> None:
        while not self.stopping.is_set():
            self.wake.wait(self.sweep_seconds)
            self.wake.clear()
            if self.stopping.is_set():
                return
            try:
                catch_up(self.store)
            except Exception:  # a broken batch is logged and retried at the next wake-up
                log.exception("projection catch-up failed")

    def close(self) -> None:
        """Stop the thread."""
        self.stopping.set()
        self.wake.set()
        self.thread.join(timeout=10)


class NoNotifier:
    """Projections are run elsewhere (or by hand)."""

    def appended(self) -> None:
        """Nothing to do."""

    def close(self) -> None:
        """Nothing to do."""
