"""PostgreSQL connections for callers on an event loop (the API's move and read handlers), beside the store's pool.

A connection waits on the loop that uses it, so connections are kept per loop: opened on first use, put back after
each use while it is idle and healthy, at most `keep` per loop. There is no background task to outlive a loop (a test
client's loop ends with its test), and `close` works from any thread: closing an idle connection awaits nothing.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

from store.base import StoreUnavailable
from store.deadline import watched


def _finish(conn: psycopg.AsyncConnection[Any]) -> None:
    """Close a connection that belongs to no pool, from any thread: its `close` awaits nothing."""
    closing: Coroutine[Any, Any, None] = conn.close()
    try:
        closing.send(None)
    except StopIteration:
        return
    closing.close()  # it would have waited: leave the socket to the garbage collector rather than block here


class AsyncConnections:
    """Autocommit connections to `conninfo`, each set up by `configure`, kept per event loop."""

    def __init__(self, conninfo: str, configure: Callable[[psycopg.AsyncConnection[Any]], None], *, keep: int = 10,
                 timeout_s: float = 15.0, deadline_s: float = 0.0) -> None:
        self._conninfo = conninfo
        self._configure = configure
        self._keep = keep
        self._timeout_s = timeout_s
        self._deadline_s = deadline_s
        self._idle: dict[asyncio.AbstractEventLoop, list[psycopg.AsyncConnection[Any]]] = {}
        self._lock = threading.Lock()
        self._closed = False

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """An idle connection of this loop, or a new one (StoreUnavailable when none can be opened in time); cut if
        still in use `deadline_s` from now (store/deadline.py)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._closed:
                raise StoreUnavailable("the store is closed")
            idle = self._idle.setdefault(loop, [])
            conn = idle.pop() if idle else None
        if conn is None:
            conn = await self._open()
        try:
            with watched(conn, self._deadline_s):
                yield conn
        finally:
            self._put_back(loop, conn)

    async def _open(self) -> psycopg.AsyncConnection[Any]:
        with self._lock:  # loops that have ended since (a test client's): their connections can never serve again
            ended = [loop for loop in self._idle if loop.is_closed()]
            stale = [conn for loop in ended for conn in self._idle.pop(loop)]
        for conn in stale:
            _finish(conn)
        try:
            conn = await asyncio.wait_for(psycopg.AsyncConnection.connect(
                self._conninfo, autocommit=True, connect_timeout=max(1, int(self._timeout_s))), self._timeout_s)
        except (psycopg.OperationalError, TimeoutError) as exc:
            raise StoreUnavailable(f"cannot connect to PostgreSQL: {str(exc).strip() or 'timed out'}") from None
        self._configure(conn)
        return conn

    def _put_back(self, loop: asyncio.AbstractEventLoop, conn: psycopg.AsyncConnection[Any]) -> None:
        healthy = not conn.closed and conn.info.transaction_status == TransactionStatus.IDLE
        with self._lock:
            idle = self._idle.setdefault(loop, [])
            if healthy and not self._closed and len(idle) < self._keep:
                idle.append(conn)
                return
        _finish(conn)

    def close(self) -> None:
        """Close every idle connection; connections in use are closed when they come back."""
        with self._lock:
            self._closed = True
            idle = [conn for conns in self._idle.values() for conn in conns]
            self._idle.clear()
        for conn in idle:
            _finish(conn)
