"""The ASGI entry point of a served process: `api.asgi:create`, an app factory that reads the environment.

`turnstile serve` hands this import string to the HTTP server, so each worker process builds its own app with its
own store connection pool and projections notifier, and closes them when the server stops it.
"""

from __future__ import annotations

from litestar import Litestar

from api.app import create_app
from service.matches import StateCache
from settings import Settings
from store.factory import open_store
from workers.notify import notifier_for


def create(settings: Settings | None = None) -> Litestar:
    """The app on the store and notifier the settings name (`Settings.from_env()` by default)."""
    settings = settings or Settings.from_env()
    store = open_store(settings.database_url)
    try:
        notifier = notifier_for(settings, store)
    except BaseException:
        store.close()
        raise
    app = create_app(store, notifier=notifier, cache=StateCache(settings.state_cache_size),
                     cors_origins=settings.cors_origins, streams_per_caller=settings.streams_per_caller)

    def close() -> None:
        notifier.close()
        store.close()

    app.on_shutdown.append(close)
    return app
