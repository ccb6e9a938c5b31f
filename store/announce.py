"""Saying which matches moved, to every process listening (PostgreSQL NOTIFY), without a lock on the appends.

A NOTIFY inside an append would be simplest, but PostgreSQL serialises the commits of notifying transactions on one
cluster-wide lock, held through each commit's flush to disk: measured here, a single-row INSERT that also notifies
commits 48 % as often as one that does not (bench/README.md, `raw-notify`). So the append does not notify. The
store hands each committed append's match id to this announcer, whose thread sends the ids gathered meanwhile as
one NOTIFY (comma-separated, split below the payload limit) on a connection of its own, with
`synchronous_commit = off`: a signal needs no durability, so its commit does not wait for the disk, and the lock is
held for microseconds, at most 200 times a second per process (it rests 5 ms after a send), not once per move
through a flush. Streams in other processes hear of a move up to those 5 ms later; the process's own streams are
signalled directly.

A signal only says "this match may have grown": listeners read the store themselves, and re-read on a timeout, so
an announcement lost to a crash between the commit and the send, or to a dropped connection, delays a stream by at
most that timeout and loses nothing. Failures are logged once and retried; they never reach an append.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("turnstile.store")
PAYLOAD_LIMIT = 7900  # bytes of one NOTIFY payload (PostgreSQL's limit is 8000)


def payloads(match_ids: list[str], limit: int = PAYLOAD_LIMIT) -> list[str]:
    """The ids as comma-separated payloads of at most `limit` bytes each (ids are short ASCII)."""
    out: list[str] = []
    current: list[str] = []
    size = 0
    for match_id in match_ids:
        if current and size + 1 + len(match_id) > limit:
            out.append(",".join(current))
            current, size = [], 0
        size += len(match_id) + (1 if current else 0)
        current.append(match_id)
    if current:
        out.append(",".join(current))
    return out


class Announcer:
    """Gathers moved match ids and sends them from a thread of its own (started at the first id)."""

    def __init__(self, connect: Callable[[], Any], channel: str, *, rest_s: float = 0.005,
                 retry_s: float = 1.0) -> None:
        self._connect = connect
        self._channel = channel
        self._rest_s = rest_s  # after a send, ids gathered meanwhile wait this long to go out together
        self._retry_s = retry_s
        self._pending: dict[str, None] = {}  # in order of arrival, each id once
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: Any = None
        self._failing = False
        self.sent = 0  # NOTIFY statements sent (what tests count)

    def moved(self, match_id: str) -> None:
        """Announce that this match moved; returns at once."""
        with self._lock:
            self._pending[match_id] = None
            if self._thread is None and not self._stopping.is_set():
                self._thread = threading.Thread(target=self._run, name="turnstile-announce", daemon=True)
                self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if not self._send() and not self._stopping.is_set():
                self._stopping.wait(self._retry_s)
                self._wake.set()
                continue
            if self._stopping.is_set():
                return
            self._stopping.wait(self._rest_s)

    def _send(self) -> bool:
        """Send what is pending; False (kept for the next try) when the database could not be reached."""
        with self._lock:
            ids, self._pending = list(self._pending), {}
        if not ids:
            return True
        try:
            if self._conn is None or self._conn.closed:
                self._conn = self._connect()
                self._conn.execute("SET synchronous_commit = off")
            for payload in payloads(ids):
                self._conn.execute("SELECT pg_notify(%s, %s)", (self._channel, payload))
                self.sent += 1
        except Exception as exc:  # noqa: BLE001  (the database went away: streams re-read on their timeout)
            with self._lock:
                self._pending = {**dict.fromkeys(ids), **self._pending}
            if not self._failing:
                log.warning("announcing moves failed (%s: %s); retrying every %.0f s", type(exc).__name__, exc,
                            self._retry_s)
            self._failing = True
            self._drop_connection()
            return False
        self._failing = False
        return True

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # closing a broken connection: nothing more to do
                conn.close()

    def close(self, timeout_s: float = 5.0) -> None:
        """Send what is pending (within `timeout_s`), then stop and close the connection."""
        self._stopping.set()
        self._wake.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=timeout_s)
        if thread is None or not thread.is_alive():
            self._drop_connection()
