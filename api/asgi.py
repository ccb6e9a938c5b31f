"""The ASGI entry point of a served process: `api.asgi:create`, an app factory that reads the environment.

`turnstile serve` hands this import string to the HTTP server, so each worker process builds its own app with its
own store connection pool and projections notifier, and closes them when the server stops it.
"""

from __future__ import annotations

import os

from litestar import Litestar

from api.app import create_app
from api.ratelimit import Buckets, Limits, MemoryBuckets, RateLimiter, RedisBuckets
from api.routes.ops import Operations
from service.deadlines import sweep as sweep_deadlines
from service.matches import StateCache
from service.metrics import process_exited
from settings import Settings
from store.factory import open_store
from workers.notify import InProcessNotifier, notifier_for
from workers.queue_status import QueueStatus


def create(settings: Settings | None = None) -> Litestar:
    """The app on the store and notifier the settings name (`Settings.from_env()` by default)."""
    settings = settings or Settings.from_env()
    store = open_store(settings.database_url)
    try:
        notifier = notifier_for(settings, store)
    except BaseException:
        store.close()
        raise
    queue = QueueStatus(settings) if settings.redis_url else None
    # Several processes share one budget per caller only through Redis; without it each process counts its own.
    buckets: Buckets = RedisBuckets(settings) if settings.redis_url else MemoryBuckets()
    app = create_app(store, notifier=notifier, cache=StateCache(settings.state_cache_size),
                     cors_origins=settings.cors_origins, streams_per_caller=settings.streams_per_caller,
                     limiter=RateLimiter(Limits.from_settings(settings), buckets),
                     operations=Operations(store, queue, settings.metrics_dir))

    def close() -> None:
        notifier.close()
        if queue is not None:
            queue.close()
        store.close()
        process_exited(settings.metrics_dir, os.getpid())

    if isinstance(notifier, InProcessNotifier):  # no worker process: this one records the timeouts due
        service = app.state.service
        notifier.tasks.append(lambda: sweep_deadlines(service))
    app.state.notifier = notifier
    app.on_shutdown.append(close)
    return app
