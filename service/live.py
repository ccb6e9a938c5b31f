"""Waking streams and long polls when a match moves: in-process signals that carry no content.

A signal only says "match M (or the log) may have grown": whoever wakes reads the store after the last thing it
sent, so a lost or late signal delays, never loses, and a spurious one costs a read. Appends in this process signal
directly; appends in other processes arrive through PostgreSQL's LISTEN/NOTIFY (api/listener.py) and signal the
same way. Waiters also wake on a timeout and re-read, which covers any signal lost on the way.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Callable

from service.metrics import OPEN_STREAMS


class TooManyStreams(Exception):
    """A caller already holds as many open streams as it may."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"at most {limit} open streams per token, app or address; close one and retry")
        self.limit = limit


class Hub:
    """Signals per match and for the whole log, waited on by the event loop, raised from any thread."""

    def __init__(self, streams_per_caller: int = 20) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str | None, set[asyncio.Event]] = {}  # None: any match (the feed)
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()
        self.streams_per_caller = streams_per_caller
        self.closing = False

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Use this event loop (the server's) for waiting; signals from other threads are handed to it."""
        self._loop = loop
        self.closing = False

    def moved(self, match_id: str) -> None:
        """A match got new events (this process's append, or another's, heard through the database)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if _running_loop() is loop:
            self._wake(match_id)
        else:
            loop.call_soon_threadsafe(self._wake, match_id)

    def _wake(self, match_id: str | None) -> None:
        for key in {match_id, None}:
            for event in self._waiting.get(key, ()):
                event.set()

    async def wait(self, match_id: str | None, timeout: float) -> bool:
        """Wait for a signal of the match (None: of any match) up to `timeout` seconds; False if none came."""
        event = asyncio.Event()
        self._waiting.setdefault(match_id, set()).add(event)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return not self.closing
        except TimeoutError:
            return False
        finally:
            waiters = self._waiting.get(match_id)
            if waiters is not None:
                waiters.discard(event)
                if not waiters:
                    del self._waiting[match_id]

    def open(self, caller: str) -> Callable[[], None]:
        """Count one more open stream of a caller (TooManyStreams past the limit); call what it returns at the end."""
        with self._lock:
            if self._open[caller] >= self.streams_per_caller:
                raise TooManyStreams(self.streams_per_caller)
            self._open[caller] += 1
        OPEN_STREAMS.inc()
        released = threading.Event()

        def release() -> None:
            if released.is_set():
                return
            released.set()
            OPEN_STREAMS.dec()
            with self._lock:
                self._open[caller] -= 1
                if not self._open[caller]:
                    del self._open[caller]

        return release

    def open_streams(self) -> int:
        """How many streams are open now."""
        with self._lock:
            return sum(self._open.values())

    def close(self) -> None:
        """The server is stopping: every waiter wakes, and streams end so their clients reconnect elsewhere."""
        self.closing = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        for waiters in self._waiting.values():
            for event in waiters:
                event.set()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
