"""The ASGI entry point of a served process: `api.asgi:create`, an app factory that reads the environment.

`turnstile serve` hands this import string to the HTTP server, so each worker process builds its own app with its
own store connection pool and projections notifier, and closes them when the server stops it. Without Redis (the
embedded default) each process also folds and sends webhook deliveries; with Redis, `turnstile worker` does.
"""

from __future__ import annotations

import os

from litestar import Litestar

from api.app import create_app
from api.ratelimit import Buckets, Limits, MemoryBuckets, RateLimiter, RedisBuckets
from api.routes.ops import Operations
from service.log.transparency import Sequencer, open_log
from service.matches.deadlines import sweep as sweep_deadlines
from service.matches.loading import StateCache
from service.ops import metrics
from service.ops.metrics import process_exited
from service.ops.queue_status import QueueStatus
from service.outbox.webhook_fold import WebhookDispatcher
from service.outbox.webhooks import Webhooks
from service.reads.notify import InProcessNotifier, notifier_for
from settings import Settings
from store.base import StoreUnavailable
from store.factory import open_store
from store.read_models import Store
from store.replica import ReplicaReads


def create(settings: Settings | None = None) -> Litestar:
    """The app on the store and notifier the settings name (`Settings.from_env()` by default)."""
    settings = settings or Settings.from_env()
    store = open_store(settings.database_url, statement_timeout_s=settings.statement_timeout_s)
    try:
        log = open_log(store, settings.log_key, settings.database_url)
        notifier = notifier_for(settings, store)
        replica = open_replica(settings, store)
    except BaseException:
        store.close()
        raise
    sequencer = Sequencer(log)  # in every process: one at a time holds the log, the others pass (and take over)
    queue = QueueStatus(settings) if settings.redis_url else None
    # Several processes share one budget per caller only through Redis; without it each process counts its own.
    buckets: Buckets = RedisBuckets(settings) if settings.redis_url else MemoryBuckets()
    hooks = Webhooks(store, allow_private=settings.webhook_allow_private, per_app=settings.webhooks_per_app)
    app = create_app(store, notifier=notifier, cache=StateCache(settings.state_cache_size),
                     cors_origins=settings.cors_origins, streams_per_caller=settings.streams_per_caller,
                     limiter=RateLimiter(Limits.from_settings(settings), buckets),
                     operations=Operations(store, queue, settings.metrics_dir, replica, settings.ready_timeout_s,
                                                settings.metrics_token),
                     webhooks=hooks,
                     replica=replica, replica_wait_s=settings.replica_wait_s, log=log,
                     tournament_budget_s=settings.tournament_drive_budget_s)
    app.state.service.watchers.append(sequencer.appended)  # only sets a flag
    dispatcher = None if settings.redis_url else WebhookDispatcher(store, settings)
    if dispatcher is not None:
        app.state.service.watchers.append(dispatcher.moved)  # only sets a flag: a move never waits on webhooks

    def close() -> None:
        sequencer.close()
        if dispatcher is not None:
            dispatcher.close()
        notifier.close()
        if replica is not None:
            replica.close()
        if queue is not None:
            queue.close()
        store.close()
        process_exited(settings.metrics_dir, os.getpid())

    if isinstance(notifier, InProcessNotifier):  # no worker process: this one records the timeouts due
        service = app.state.service
        notifier.tasks.append(lambda: sweep_deadlines(service))
        notifier.tasks.append(app.state.tournaments.sweep)  # results a crash left unrecorded
    app.state.notifier = notifier
    app.on_shutdown.append(close)
    return app


def open_replica(settings: Settings, primary: Store) -> ReplicaReads | None:
    """Reads of the read replica `settings.read_database_url` names (PostgreSQL only), falling back to `primary`;
    None when there is none. Opening waits for nothing: a replica down now is read around until it answers."""
    url = settings.read_database_url
    if not url:
        return None
    if url.partition("://")[0] not in ("postgresql", "postgres"):
        raise StoreUnavailable(f"a read replica is a PostgreSQL URL, not {url!r}")
    from store.postgres import PostgresStore  # only when asked for: the embedded default loads no PostgreSQL driver

    return ReplicaReads(primary, PostgresStore.read_replica(url, timeout_s=settings.replica_timeout_s),
                        timeout_s=settings.replica_timeout_s, cool_down_s=settings.replica_cool_down_s,
                        on_fallback=lambda reason: metrics.REPLICA_FALLBACKS.labels(reason).inc())
