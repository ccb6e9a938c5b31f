"""Hearing other processes' appends: PostgreSQL LISTEN/NOTIFY, so a move committed by one API process wakes the
streams held by another within milliseconds.

Why PostgreSQL and not Redis pub/sub: every append already goes to PostgreSQL, and each process's store announces
its committed appends there (store/announce.py: the matches moved meanwhile, many to a NOTIFY, from a thread of its
own, because a NOTIFY inside the append would serialise commits on PostgreSQL's notify lock), so there is no second
service to depend on and a Redis outage never delays a stream. The embedded SQLite default runs one process: its own
appends signal its streams directly (MatchService.watchers).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from service.matches.matches import MatchService
from service.reads.live import Hub
from store.base import MoveListener

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


def end_streams_on_stop(hub: Hub) -> Callable[[], None]:
    """Close the hub as soon as SIGTERM or SIGINT arrives, then hand the signal on (to the HTTP server).

    The server then waits for requests in flight before it stops, and an open stream is one: ending the streams at
    the signal lets moves finish and clients reconnect elsewhere at once, not after the server's graceful timeout.
    Returns what undoes it. Only the main thread may handle signals; elsewhere (a test client) it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous: dict[int, Any] = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}

    def stopping(sig: int, frame: Any) -> None:
        hub.close()
        handler = previous[sig]
        if callable(handler):
            handler(sig, frame)
        elif handler == signal.SIG_DFL:
            signal.signal(sig, signal.SIG_DFL)
            signal.raise_signal(sig)

    for sig in previous:
        signal.signal(sig, stopping)

    def undo() -> None:
        for sig, handler in previous.items():
            if signal.getsignal(sig) is stopping:
                signal.signal(sig, handler)

    return undo


@asynccontextmanager
async def live(service: MatchService, hub: Hub) -> AsyncIterator[None]:
    """While the app runs: the hub wakes on this loop, hears this process's appends, and other processes' through
    the database when it can say them (PostgreSQL). At shutdown every stream ends, so clients reconnect elsewhere."""
    hub.bind(asyncio.get_running_loop())
    service.watchers.append(hub.moved)
    listener = asyncio.create_task(listen(service.store, hub)) if isinstance(service.store, MoveListener) else None
    undo = end_streams_on_stop(hub)
    try:
        yield
    finally:
        undo()
        hub.close()
        service.watchers.remove(hub.moved)
        if listener is not None:
            listener.cancel()
