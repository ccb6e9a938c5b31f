"""Real RQ workers on real Redis: killed in the middle of a batch, and Redis itself going away."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest

from projections.catalog import PROJECTIONS
from service.matches.matches import MatchService
from service.reads.notify import RQNotifier
from settings import Settings
from store.factory import open_store
from tests.workers.helpers import assert_tables_equal_a_fresh_fold, play_matches
from tests.workers.processes import RedisServer, WorkerProcess, wait_until


def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store URL of the parametrised kind (the worker process opens it too)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'worker.db'}"
    return str(request.getfixturevalue("pg_clean_url"))


@pytest.fixture(params=["sqlite", "postgres"])
def shared_store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A store and its URL, for this process and a worker process."""
    url = store_url(request, tmp_path)
    opened = open_store(url)
    yield url, opened
    opened.close()


def caught_up(store: Any) -> bool:
    """Every projection is at the head of the log."""
    head = store.head_position()
    checkpoints = store.checkpoints()
    return len(checkpoints) == len(PROJECTIONS) and all(c.position == head for c in checkpoints)


def test_a_worker_killed_mid_batch_loses_nothing_and_counts_nothing_twice(shared_store: Any, redis_url: str,
                                                                          rq_queue: str) -> None:
    """SIGKILL while a batch is open: its transaction rolls back; a new worker finishes the job exactly."""
    url, store = shared_store
    queue = rq_queue
    play_matches(store, 3, seed=11)
    slow = WorkerProcess(url, redis_url, queue, TURNSTILE_PROJECTION_BATCH="400", TURNSTILE_PROJECTION_DELAY_S="0.02")
    slow.start()
    try:
        wait_until(lambda: any(c.position > 0 for c in store.checkpoints()), 60, "a first batch to commit")
        slow.kill()
        assert not caught_up(store), "the worker was killed before finishing: a batch was in flight"
        fresh = WorkerProcess(url, redis_url, queue)
        fresh.start()
        try:
            wait_until(lambda: caught_up(store), 60, "the restarted worker to catch up")
        finally:
            fresh.stop()
    finally:
        slow.kill()
    assert all(c.error is None for c in store.checkpoints())
    assert_tables_equal_a_fresh_fold(store)


@pytest.mark.parametrize("fault", ["dead", "hung"])
def test_moves_during_a_redis_outage_are_folded_by_the_sweep_once_redis_answers(shared_store: Any, tmp_path: Path,
                                                                                fault: str) -> None:
    """Redis stopped, or frozen (connections accepted, never answered): moves commit and projections only lag.

    The API's notifier is closed before Redis answers again, so no move and no notification is left to trigger
    the catch-up: the worker's own sweep must find the log ahead of the checkpoints.
    """
    url, store = shared_store
    redis = RedisServer(tmp_path)
    redis.start()
    queue = f"test-{secrets.token_hex(4)}"
    worker = WorkerProcess(url, redis.url, queue, TURNSTILE_NOTIFY_BREAKER_COOL_DOWN_S="1")
    worker.start()
    notifier = RQNotifier(Settings(redis_url=redis.url, queue=queue, notify_breaker_cool_down_s=1.0))
    outage, recovery = (redis.stop, redis.start) if fault == "dead" else (redis.freeze, redis.thaw)
    try:
        play_matches(store, 1, seed=21, service=MatchService(store, notifier=notifier))
        wait_until(lambda: caught_up(store), 60, "the worker to fold the first match")
        outage()
        play_matches(store, 2, seed=22, service=MatchService(store, notifier=notifier))
        notifier.close()
        assert not caught_up(store), "with Redis out nothing folds the new moves yet"
        recovery()
        wait_until(lambda: caught_up(store), 60, "projections to catch up after Redis answered again")
    finally:
        worker.stop()
        notifier.close()
        redis.stop()
    assert_tables_equal_a_fresh_fold(store)
