"""Telling the projection runner that the log grew: through RQ on Redis, or in-process."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

from service.ops.breaker import CircuitBreaker
from service.reads.runner import BATCH, catch_up
from settings import Settings

log = logging.getLogger("turnstile.workers")


class Notifier(Protocol):
    """Called after every append; must never fail or slow the append."""

    def appended(self) -> None:
        """The log grew."""
        ...

    def close(self) -> None:
        """Stop background work."""
        ...


class RQNotifier:
    """Enqueues catch-up jobs from a thread of its own, so no move ever waits on Redis.

    `appended()` only raises a flag; the thread turns any number of raised flags into one attempt: enqueue
    `workers.jobs.catch_up_job` unless one is already waiting. Attempts use short timeouts and go through a
    circuit breaker. A signal that meets an open breaker is kept for the next probe; the workers' sweep
    catches up regardless, so an outage only delays projections.
    """

    def __init__(self, settings: Settings) -> None:
        from redis import Redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
        from rq import Queue
        from rq.serializers import JSONSerializer

        if settings.redis_url is None:
            raise ValueError("the RQ notifier needs a Redis URL (TURNSTILE_REDIS_URL)")
        self.settings = settings
        # One try per attempt: retrying is the breaker's decision, not the client's.
        self.redis = Redis.from_url(settings.redis_url, socket_timeout=settings.notify_timeout_s,
                                    socket_connect_timeout=settings.notify_timeout_s, retry=Retry(NoBackoff(), 0))
        self.queue = Queue(settings.queue, connection=self.redis, serializer=JSONSerializer)
        self.breaker = CircuitBreaker(f"projection notifier (queue {settings.queue})",
                                      settings.notify_breaker_failures, settings.notify_breaker_cool_down_s)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="turnstile-notify", daemon=True)
        self._thread.start()

    def appended(self) -> None:
        """Ask for a catch-up; returns at once, and calls made while one is pending add nothing."""
        self._wake.set()

    def _run(self) -> None:
        pending = False  # a signal not yet delivered: only a failed attempt leaves one
        while True:
            if pending:  # appends change nothing until the next attempt is due: sleep through them, unwoken
                self._stopping.wait(self.breaker.wait_s())
            else:
                self._wake.wait()
            if self._stopping.is_set():
                return
            self._wake.clear()
            if self.breaker.allow():
                pending = not self._attempt()

    def _attempt(self) -> bool:
        """Enqueue a catch-up job unless one is waiting already; True when Redis answered."""
        try:
            # The queue itself says whether a job waits: no flag that could outlive a half-done enqueue.
            if self.queue.count == 0:
                self.queue.enqueue("workers.jobs.catch_up_job", job_timeout=600, result_ttl=60, failure_ttl=86400)
        except Exception as exc:  # noqa: BLE001  (any failure counts against Redis; the breaker's log names it)
            self.breaker.failed(f"{type(exc).__name__}: {exc}")
            return False
        self.breaker.succeeded()
        return True

    def close(self) -> None:
        """Stop the thread (an attempt in flight ends within its timeouts) and close the connection."""
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout=10 * self.settings.notify_timeout_s + 1)
        self.redis.close()


class InProcessNotifier:
    """The embedded default: one background thread folds after appends and every few seconds.

    A move only sets a flag; folding never runs on a request's thread. `batch` events are folded per transaction:
    on SQLite a batch holds the store's one write lock, so a small batch bounds how long a move waits behind it.
    After a catch-up the thread rests `interval_s`, so the appends of that time are folded together. `tasks` run at
    each timed sweep, not at an append's wake-up (the composition root adds the deadline sweep, which reads every
    active match: workers do not know the match service).
    """

    def __init__(self, store: Any, sweep_seconds: float = 5.0, batch: int = BATCH, interval_s: float = 0.0) -> None:
        self.store = store
        self.sweep_seconds = sweep_seconds
        self.batch = batch
        self.interval_s = interval_s
        self.tasks: list[Callable[[], object]] = []
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="turnstile-projections", daemon=True)
        self.thread.start()

    def appended(self) -> None:
        """Wake the runner."""
        self.wake.set()

    def _run(self) -> None:
        while not self.stopping.is_set():
            woken = self.wake.wait(self.sweep_seconds)
            self.wake.clear()
            if self.stopping.is_set():
                return
            for task in () if woken else self.tasks:
                try:
                    task()
                except Exception:  # a failed sweep is logged and run again at the next wake-up
                    log.exception("background task failed")
            try:
                catch_up(self.store, limit=self.batch)
            except Exception:  # a broken batch is logged and retried at the next wake-up
                log.exception("projection catch-up failed")
            self.stopping.wait(self.interval_s)

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


def notifier_for(settings: Settings, store: Any) -> Notifier:
    """RQ on Redis when a Redis URL is set; else the in-process runner folding `store` (the embedded default)."""
    if settings.redis_url:
        return RQNotifier(settings)
    # On SQLite a batch holds the one write lock that moves wait for: small batches. On PostgreSQL moves never wait
    # for a fold, and each batch costs a transaction and a read and a write of every document it touches per
    # projection, so it takes the workers' batch (8 clients of Expect Delays: 0.8 document writes a move, not 1.7).
    one_writer = getattr(store, "one_writer", True)
    batch = settings.inprocess_projection_batch if one_writer else settings.projection_batch
    return InProcessNotifier(store, sweep_seconds=settings.sweep_seconds, batch=batch,
                             interval_s=settings.inprocess_projection_interval_s)
