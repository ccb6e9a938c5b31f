"""Redis hung or dead: no move waits on it, the notifier's breaker stops trying, and a late signal still arrives."""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from domain.catalog import by_slug
from service.matches.matches import MatchService
from service.matches.simulate import timed_moves
from service.reads.notify import RQNotifier
from settings import Settings
from tests.workers.helpers import PLAYERS, SHORT
from tests.workers.processes import HungListener, RedisServer, wait_until

TIMEOUT_S = 1.0  # long on purpose: a move that waited on Redis even once would stand out
MOVES = 20


def settings(redis_url: str, timeout_s: float = TIMEOUT_S, cool_down_s: float = 60.0) -> Settings:
    """Notifier settings for a Redis, with a queue of the test's own."""
    return Settings(redis_url=redis_url, queue=f"test-{secrets.token_hex(4)}", notify_timeout_s=timeout_s,
                    notify_breaker_failures=3, notify_breaker_cool_down_s=cool_down_s)


@pytest.fixture(params=["hung", "dead"])
def broken_redis_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A Redis URL where a socket accepts and never answers, or where a redis-server has just stopped."""
    if request.param == "hung":
        listener = HungListener()
        yield listener.url
        listener.close()
    else:
        server = RedisServer(tmp_path)
        server.start()
        server.stop()
        yield server.url


def assert_stays(value: Any, read: Any, seconds: float, keep_moving: RQNotifier) -> None:
    """`read()` keeps returning `value` for `seconds` while the notifier keeps hearing of appends."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        keep_moving.appended()
        assert read() == value
        time.sleep(0.05)


def test_no_move_waits_on_a_hung_or_dead_redis(store: Any, broken_redis_url: str,
                                                caplog: pytest.LogCaptureFixture) -> None:
    """20 moves with the notifier pointed at a broken Redis: none waits on it; the outage is logged once."""
    caplog.set_level(logging.INFO, logger="turnstile.workers")
    game = by_slug("expect-delays")
    assert game is not None
    notifier = RQNotifier(settings(broken_redis_url))
    try:
        moves = timed_moves(MatchService(store, notifier=notifier), game, PLAYERS[:game.min_seats],
                            random.Random(7), SHORT)
        seconds = list(islice(moves, MOVES))
        wait_until(lambda: notifier.breaker.state == "open", 10 * TIMEOUT_S, "the notifier's breaker to open")
        seconds += islice(moves, MOVES)
    finally:
        notifier.close()
    assert max(seconds) < TIMEOUT_S / 2, f"a move took {max(seconds):.3f} s: it waited on Redis"
    assert sum(seconds) < len(seconds) * TIMEOUT_S / 10
    opened = [r for r in caplog.records if "circuit open" in r.getMessage()]
    assert len(opened) == 1, [r.getMessage() for r in caplog.records]


def test_an_open_breaker_makes_no_attempt_until_its_one_probe() -> None:
    """Against a hung socket: three attempts, none during the cool-down though moves go on, then one probe."""
    listener = HungListener()
    notifier = RQNotifier(settings(listener.url, timeout_s=0.2, cool_down_s=2.0))
    try:
        notifier.appended()
        wait_until(lambda: notifier.breaker.state == "open", 10, "three failed attempts to open the breaker")
        assert listener.accepted == 3
        assert_stays(3, lambda: listener.accepted, 1.5, notifier)
        wait_until(lambda: listener.accepted == 4, 10, "the probe after the cool-down")
        assert_stays(4, lambda: listener.accepted, 1.5, notifier)
        assert notifier.breaker.state == "open", "the probe met the same hung socket"
    finally:
        notifier.close()
        listener.close()


def test_a_signal_that_met_the_open_breaker_is_delivered_by_the_probe(tmp_path: Path) -> None:
    """Redis frozen during a move, then thawed: the probe enqueues the catch-up without any further move.

    The notifier's connection is already open when Redis freezes, so the commands it sent meanwhile run after
    the thaw: nothing they leave behind may stop the probe (a "job pending" flag set then would, for its TTL).
    """
    from redis import Redis
    from rq import Queue

    server = RedisServer(tmp_path)
    server.start()
    chosen = settings(server.url, timeout_s=0.2, cool_down_s=1.0)
    notifier = RQNotifier(chosen)
    queue = Queue(chosen.queue, connection=Redis.from_url(server.url))
    try:
        notifier.appended()
        wait_until(lambda: queue.count == 1, 10, "a first catch-up job")
        queue.empty()  # as if a worker had taken it
        server.freeze()
        notifier.appended()
        wait_until(lambda: notifier.breaker.state == "open", 10, "the breaker to open on a frozen Redis")
        server.thaw()
        wait_until(lambda: queue.count == 1, 10, "the probe to enqueue the pending catch-up")
        # The probe closes the breaker once its call has returned: a moment after the job is in the queue.
        wait_until(lambda: notifier.breaker.state == "closed", 5, "the probe to close the breaker")
    finally:
        notifier.close()
        server.stop()


def test_many_appends_leave_one_waiting_job(tmp_path: Path) -> None:
    """Appends coalesce, and a job already waiting is not doubled: with no worker, the queue holds one job."""
    from redis import Redis
    from rq import Queue

    server = RedisServer(tmp_path)
    server.start()
    chosen = settings(server.url)
    notifier = RQNotifier(chosen)
    queue = Queue(chosen.queue, connection=Redis.from_url(server.url))
    try:
        for _ in range(200):
            notifier.appended()
        wait_until(lambda: queue.count == 1, 10, "a catch-up job to be enqueued")
        for _ in range(50):
            notifier.appended()
            time.sleep(0.01)  # let the thread attempt between appends
        assert queue.count == 1
    finally:
        notifier.close()
        server.stop()
