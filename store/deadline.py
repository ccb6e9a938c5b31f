"""A deadline on a PostgreSQL connection in use: past it the connection's socket is shut down, so a database that
stops answering fails the waiting query at once instead of holding its request forever.

`statement_timeout` is the server's: it cancels a statement the server is running, but a server that is stalled or a
network that holds every packet delivers no cancel and no answer. libpq's keepalives notice a dead peer, not one
that is alive and silent. Cancelling the waiting task does not help either: psycopg then asks the server to cancel
(5 s) and waits for the query (5 s more) before it gives the connection up, and a thread cannot be cancelled at all.

Shutting the socket down (not closing it: the descriptor stays the driver's until the driver closes it) wakes the
driver's wait with end-of-file, on a thread or on an event loop alike: the query raises psycopg's `OperationalError`,
the connection is broken (a pool discards it), and a transaction it had not committed is rolled back by the server
when it sees the connection gone. One thread per process watches every connection in use; it wakes a few times a
second only while one is, so a deadline is kept within `TICK_S`.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import socket
import threading
import time
from typing import Any, Protocol

TICK_S = 0.25
log = logging.getLogger(__name__)


class PgConn(Protocol):
    """The part of psycopg's `pq.PGconn` the watchdog uses."""

    @property
    def socket(self) -> int: ...


def sever(pgconn: PgConn) -> None:
    """Shut down the connection's socket (both directions); nothing when it is closed already."""
    try:
        fd = pgconn.socket
    except Exception:  # noqa: BLE001  (psycopg raises OperationalError for a finished connection)
        return
    with contextlib.suppress(OSError), socket.socket(fileno=os.dup(fd)) as duplicate:  # closing it leaves fd open
        duplicate.shutdown(socket.SHUT_RDWR)


class Watchdog:
    """Severs each watched connection still in use past its deadline."""

    def __init__(self, tick_s: float = TICK_S) -> None:
        self.tick_s = tick_s
        self.severed = 0  # connections cut so far (what the tests and the log count)
        self._ids = itertools.count()
        self._watched: dict[int, tuple[float, PgConn]] = {}
        self._changed = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None

    def watching(self, pgconn: PgConn, seconds: float) -> Watching:
        """Sever `pgconn` if the block still runs `seconds` from now (never after the block has ended)."""
        return Watching(self, pgconn, seconds)

    def watch(self, pgconn: PgConn, seconds: float) -> int:
        """Start watching; the token `release` takes."""
        token = next(self._ids)
        with self._changed:
            self._watched[token] = (time.monotonic() + seconds, pgconn)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="turnstile-db-deadline", daemon=True)
                self._thread.start()
            if len(self._watched) == 1:
                self._changed.notify()
        return token

    def release(self, token: int) -> None:
        """Stop watching (under the lock the severing takes: a connection released is never cut afterwards)."""
        with self._changed:
            self._watched.pop(token, None)

    def _run(self) -> None:
        with self._changed:
            while True:
                self._changed.wait(self.tick_s if self._watched else None)
                now = time.monotonic()
                for token, (deadline, pgconn) in list(self._watched.items()):
                    if deadline <= now:
                        del self._watched[token]
                        self.severed += 1  # first: whoever sees the cut sees it counted
                        sever(pgconn)
                        log.warning("a PostgreSQL connection was still in use at its deadline: cut")


class Watching:
    """The block `Watchdog.watching` guards (a class, not a generator: it is entered on every query's connection)."""

    __slots__ = ("_watchdog", "_pgconn", "_seconds", "_token")

    def __init__(self, watchdog: Watchdog, pgconn: PgConn, seconds: float) -> None:
        self._watchdog, self._pgconn, self._seconds = watchdog, pgconn, seconds
        self._token = -1

    def __enter__(self) -> None:
        self._token = self._watchdog.watch(self._pgconn, self._seconds)

    def __exit__(self, *_: object) -> None:
        self._watchdog.release(self._token)


WATCHDOG = Watchdog()
# A process forked from one that watched (an RQ work horse) has the object but not its thread, and perhaps its lock
# held by a thread that does not exist there: it starts afresh.
os.register_at_fork(after_in_child=lambda: WATCHDOG.__init__(WATCHDOG.tick_s))  # type: ignore[misc]


def watched(conn: Any, seconds: float) -> contextlib.AbstractContextManager[None]:
    """`conn` (a psycopg connection, sync or async) severed if still in use `seconds` from now; no deadline when
    `seconds` is 0."""
    return WATCHDOG.watching(conn.pgconn, seconds) if seconds > 0 else contextlib.nullcontext()
