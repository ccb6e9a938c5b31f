"""Hearing other processes' appends: PostgreSQL LISTEN/NOTIFY, so a move committed by one API process wakes the
streams held by another within milliseconds.

Why PostgreSQL and not Redis pub/sub: every append already goes to PostgreSQL, and NOTIFY is sent at COMMIT by the
append statement itself (store/postgres.py), so a process hears of exactly the commits there are, with no extra
round trip and no second service to depend on; a Redis outage then never delays a stream. The embedded SQLite
default runs one process: its own appends signal its streams directly (MatchService.watchers).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import FrameType
from typing import Any

from service.live import Hub
from service.matches import MatchService

log = logging.getLogger("turnstile.live")
RETRY_S = 1.0


async def listen(store: Any, hub: Hub) -> None:
    """Signal the hub for every match another process appends to, reconnecting when the connection drops."""
    while not hub.closing:
        try:
            async for match_id in store.moves():
                hub.moved(match_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001  (the database went away: streams fall back to re-reading)
            log.warning("listening for moves failed (%s); retrying in %.0f s", exc, RETRY_S)
        await asyncio.sleep(RETRY_S)


def end_streams_at_exit(hub: Hub) -> Callable[[], None]:
    """At SIGTERM or SIGINT, end every stream first, then do what the signal did before (uvicorn: stop serving).

    Uvicorn shuts the app down only after every response has finished, and a stream never finishes by itself: without
    this a stopping server holds its streams for the whole grace period and then cancels them mid-write. Ended here,
    each stream closes cleanly at once and its client reconnects (elsewhere) with `Last-Event-ID`. Returns what
    restores the previous handlers. Outside the main thread (a test client) signals cannot be caught: nothing to do."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    exits = (signal.SIGINT, signal.SIGTERM)
    previous: dict[int, Any] = {sig: signal.getsignal(sig) for sig in exits}

    def handle(sig: int, frame: FrameType | None) -> None:
        hub.close()
        before = previous[sig]
        if callable(before):
            before(sig, frame)
        elif before == signal.SIG_DFL:
            signal.signal(sig, signal.SIG_DFL)
            signal.raise_signal(sig)

    for sig in exits:
        signal.signal(sig, handle)

    def restore() -> None:
        for sig, before in previous.items():
            signal.signal(sig, before)

    return restore


@asynccontextmanager
async def live(service: MatchService, hub: Hub) -> AsyncIterator[None]:
    """While the app runs: the hub wakes on this loop, hears this process's appends, and other processes' through
    the database when it can say them (PostgreSQL). At shutdown every stream ends, so clients reconnect elsewhere."""
    hub.bind(asyncio.get_running_loop())
    service.watchers.append(hub.moved)
    listener = asyncio.create_task(listen(service.store, hub)) if hasattr(service.store, "moves") else None
    restore_signals = end_streams_at_exit(hub)
    try:
        yield
    finally:
        restore_signals()
        hub.close()
        service.watchers.remove(hub.moved)
        if listener is not None:
            listener.cancel()
