"""The ASGI entry point of a served process: `api.asgi:create`, an app factory that reads the environment.

`turnstile serve` hands this import string to the HTTP server, so each worker process builds its own app on its own
runtime (service/runtime.py: store connection pool, log, projections notifier, sequencer...), and closes it when
the server stops it. Without Redis (the embedded default) each process also folds and sends webhook deliveries;
with Redis, `turnstile worker` does.
"""

from __future__ import annotations

import gc

from litestar import Litestar

from api.app import create_app
from api.ratelimit import Buckets, Limits, MemoryBuckets, RateLimiter, RedisBuckets
from api.routes.ops import Operations
from service.runtime import Runtime, open_replica
from settings import Settings

__all__ = ["create", "open_replica"]


def create(settings: Settings | None = None) -> Litestar:
    """The app on the runtime the settings name (`Settings.from_env()` by default), closed at its shutdown."""
    settings = settings or Settings.from_env()
    runtime = Runtime.open(settings, "api")
    try:
        # Several processes share one budget per caller only through Redis; without it each process counts its own.
        buckets: Buckets = RedisBuckets(settings) if settings.redis_url else MemoryBuckets()
        app = create_app(runtime.store, service=runtime.service, tournaments=runtime.tournaments, log=runtime.log,
                         cors_origins=settings.cors_origins,
                         streams_per_caller=settings.streams_per_caller,
                         limiter=RateLimiter(Limits.from_settings(settings), buckets),
                         operations=Operations(runtime.store, runtime.queue, settings.metrics_dir, runtime.replica,
                                               settings.ready_timeout_s, settings.metrics_token, runtime.log),
                         webhooks=runtime.webhooks, replica=runtime.replica, replica_wait_s=settings.replica_wait_s,
                         dumps_dir=settings.dumps_dir)
    except BaseException:
        runtime.close()
        raise
    app.state.runtime = runtime
    app.state.notifier = runtime.notifier
    app.on_shutdown.append(runtime.close)
    # What the process made to start (the app, its routes and OpenAPI document, the runtime: ≈ 130,000 objects) lives
    # as long as it does: kept out of the collector's full collections, which otherwise walked all of it again after
    # every few thousand objects a request left alive (≈ 100 ms of each 1,000 exported records, a tenth of the
    # export's time).
    gc.freeze()
    return app
