"""The connection deadline (store/deadline.py): a connection still in use past it is cut, one released in time
never is, and background work (projection batches) is not held to it."""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass

import psycopg
import pytest

from store.deadline import WATCHDOG, Watchdog
from store.postgres import DEADLINE_MARGIN_S, PostgresStore


@dataclass
class End:
    """One end of a socket pair, standing in for psycopg's PGconn."""

    sock: socket.socket

    @property
    def socket(self) -> int:
        return self.sock.fileno()


def test_a_connection_in_use_past_its_deadline_is_cut_and_its_descriptor_stays_open() -> None:
    ours, theirs = socket.socketpair()
    watchdog = Watchdog(tick_s=0.02)
    with ours, theirs:
        token = watchdog.watch(End(ours), 0.05)
        theirs.settimeout(2)
        assert theirs.recv(1) == b""  # the peer sees the connection end
        assert watchdog.severed == 1
        watchdog.release(token)  # after the cut: nothing more
        assert ours.fileno() >= 0  # shut down, not closed: the driver still owns its descriptor
        with pytest.raises(OSError):
            ours.send(b"x")


def test_a_connection_released_in_time_is_never_cut() -> None:
    ours, theirs = socket.socketpair()
    watchdog = Watchdog(tick_s=0.02)
    with ours, theirs:
        with watchdog.watching(End(ours), 0.05):
            ours.send(b"ok")
        time.sleep(0.2)
        ours.send(b"still")
        theirs.settimeout(1)
        assert theirs.recv(16) == b"okstill"
        assert watchdog.severed == 0


@pytest.mark.postgres
def test_a_request_connection_is_cut_at_the_deadline_but_a_projection_batch_is_not(pg_clean_url: str) -> None:
    store = PostgresStore(pg_clean_url, statement_timeout_s=0.1)
    held = 0.1 + DEADLINE_MARGIN_S + 0.5
    try:
        with store.read_model_batch("match_summaries", 1) as batch:
            time.sleep(held)
            assert batch.conn.execute("SELECT 1").fetchone() == (1,)
        with pytest.raises(psycopg.OperationalError), store._reading() as conn:
            time.sleep(held)
            conn.execute("SELECT 1")
        with store._reading() as conn:  # the cut connection was discarded, not handed out again
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        store.close()


def test_a_forked_child_watches_with_a_thread_of_its_own() -> None:
    """The parent's watchdog thread does not exist in a forked child (an RQ work horse): the child's cuts anyway."""
    ours, theirs = socket.socketpair()
    with ours, theirs:
        with WATCHDOG.watching(End(ours), 60):  # the parent's thread is running, its lock in use meanwhile
            pid = os.fork()
            if pid == 0:  # the child: a connection of its own past a short deadline
                code = 1
                try:
                    mine, peer = socket.socketpair()
                    WATCHDOG.watch(End(mine), 0.05)
                    peer.settimeout(3)
                    code = 0 if peer.recv(1) == b"" else 2
                finally:
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
