"""The one composition root (service/runtime.py): what each role opens, wired at construction; one close, in reverse
order, safe twice; a failure while opening closes what was opened before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.matches import snapshots
from service.reads.notify import InProcessNotifier, NoNotifier, RQNotifier
from service.runtime import Runtime
from settings import Settings
from store.factory import open_store


def sqlite(tmp_path: Path, **options: Any) -> Settings:
    return Settings(database_url=f"sqlite:///{tmp_path / 'runtime.db'}", redis_url=None, **options)


def closed_in_reverse(runtime: Runtime) -> list[str]:
    """Close `runtime` twice; what it closed, checked to be what it had open, the last opened first."""
    closable = runtime.closable
    runtime.close()
    assert runtime.closed == closable[::-1]
    runtime.close()  # a second call closes nothing again
    assert runtime.closed == closable[::-1] and runtime.closable == []
    return closable


def assert_closed(store: Any) -> None:
    with pytest.raises(Exception):  # noqa: B017,PT011  (SQLite's and psycopg's own "closed" errors)
        store.head_position()


def test_the_api_role_on_sqlite(tmp_path: Path) -> None:
    runtime = Runtime.open(sqlite(tmp_path, state_cache_size=7, tournament_drive_budget_s=0.5), "api")
    sequencer, dispatcher, notifier = runtime.sequencer, runtime.dispatcher, runtime.notifier
    assert sequencer is not None and dispatcher is not None and isinstance(notifier, InProcessNotifier)
    assert runtime.queue is None and runtime.replica is None and runtime.sweep_thread is None
    service = runtime.service
    assert service.store is runtime.store and service.notifier is notifier and service.cache._size == 7
    assert runtime.bots is not None
    assert service.watchers == [sequencer.appended, dispatcher.moved, runtime.bots.moved]  # wired at construction
    assert service.snapshot_key == snapshots.key_from(runtime.log.signer) != snapshots.PROCESS_KEY
    assert runtime.tournaments.matches is service and runtime.tournaments.budget_s == 0.5
    assert notifier.tasks[1] == runtime.tournaments.sweep and len(notifier.tasks) == 2
    threads = [sequencer.thread, notifier.thread, dispatcher._thread, runtime.bots.thread]
    assert all(thread.is_alive() for thread in threads)
    assert closed_in_reverse(runtime) == ["metrics", "store", "notifier", "dispatcher", "sequencer", "bots"]
    assert not any(thread.is_alive() for thread in threads)
    assert_closed(runtime.store)


def test_the_api_role_with_redis_on_postgresql(pg_clean_url: str, redis_url: str, rq_queue: str) -> None:
    """With Redis the projections go to the queue and the workers send webhooks: no dispatcher here."""
    runtime = Runtime.open(Settings(database_url=pg_clean_url, redis_url=redis_url, queue=rq_queue), "api")
    assert isinstance(runtime.notifier, RQNotifier) and runtime.queue is not None and runtime.dispatcher is None
    assert runtime.sequencer is not None and runtime.bots is not None
    assert runtime.service.watchers == [runtime.sequencer.appended, runtime.bots.moved]
    assert runtime.bots.jobs is runtime.bot_jobs is not None  # search bots' turns go to the workers as jobs
    assert runtime.queue.ping()
    threads = [runtime.sequencer.thread, runtime.bots.thread]
    assert closed_in_reverse(runtime) == ["metrics", "store", "queue", "notifier", "sequencer", "bot jobs", "bots"]
    assert not any(thread.is_alive() for thread in threads)
    assert_closed(runtime.store)


def test_a_looping_worker_runs_the_sweep_and_the_dispatcher(tmp_path: Path, redis_url: str, rq_queue: str) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'w.db'}", redis_url=redis_url, queue=rq_queue)
    runtime = Runtime.open(settings, "worker", sweep_seconds=0.05)
    assert isinstance(runtime.notifier, RQNotifier) and runtime.service.notifier is runtime.notifier
    assert runtime.sequencer is not None and runtime.dispatcher is not None and runtime.sweep_thread is not None
    assert runtime.sequencer.transparency is runtime.log and runtime.log.store is not runtime.store  # pools apart
    assert runtime.dispatcher.store is not runtime.store
    assert runtime.bot_jobs is not None and len(runtime.service.watchers) == 1  # the next bot turn: queued
    assert runtime.service.snapshot_key == snapshots.key_from(runtime.log.signer)
    threads = [runtime.sequencer.thread, runtime.dispatcher._thread, runtime.sweep_thread]
    assert all(thread.is_alive() for thread in threads)
    assert closed_in_reverse(runtime) == ["log store", "sequencer", "store", "notifier", "bot jobs",
                                          "webhooks store", "dispatcher", "sweep"]
    assert not any(thread.is_alive() for thread in threads)
    assert_closed(runtime.store)
    assert_closed(runtime.log.store)


def test_a_burst_worker_sequences_what_is_left_when_it_closes(pg_clean_url: str, redis_url: str,
                                                               rq_queue: str) -> None:
    """No dispatcher and no sweep thread; the sequencer's thread waits a second before its first round, so the
    match appended here and closed at once is in the tree only because closing sequenced the rest."""
    runtime = Runtime.open(Settings(database_url=pg_clean_url, redis_url=redis_url, queue=rq_queue), "burst")
    assert runtime.dispatcher is None and runtime.sweep_thread is None and runtime.sequencer is not None
    runtime.service.create("touched-on", ["ada", "grace"], None)
    assert closed_in_reverse(runtime) == ["log store", "sequencer", "store", "notifier", "bot jobs"]
    store = open_store(pg_clean_url)
    try:
        assert store.log_size() == store.head_position() > 0
    finally:
        store.close()


def test_a_worker_needs_redis(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="TURNSTILE_REDIS_URL"):
        Runtime.open(sqlite(tmp_path), "worker")


def test_the_cli_role_runs_no_thread_and_shares_the_snapshot_key_of_its_deployment(tmp_path: Path) -> None:
    """A snapshot saved by one runtime's match service decodes in another of the same settings (the key file beside
    the SQLite store, made by the first), and not in one of another store."""
    first = Runtime.open(sqlite(tmp_path), "cli")
    try:
        assert first.sequencer is None and first.dispatcher is None and isinstance(first.notifier, NoNotifier)
        created = first.service.create("touched-on", ["ada", "grace"], None)
        loaded = first.service.load(created.record.id)
        blob = snapshots.encode(loaded.game, loaded.record.id, loaded.state, first.service.snapshot_key)
        assert blob is not None
    finally:
        assert closed_in_reverse(first) == ["store"]
    second = Runtime.open(sqlite(tmp_path), "api")
    other = Runtime.open(Settings(database_url=f"sqlite:///{tmp_path / 'other.db'}", redis_url=None), "cli")
    try:
        owner, _, state = snapshots.decode(blob, second.service.snapshot_key)
        assert (owner, state) == (loaded.record.id, loaded.state)
        with pytest.raises(snapshots.Unfit):
            snapshots.decode(blob, other.service.snapshot_key)
    finally:
        other.close()
        second.close()


def test_a_failure_while_opening_closes_what_was_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import service.runtime

    opened: list[Runtime] = []
    close = Runtime.close
    monkeypatch.setattr(Runtime, "close", lambda self: (opened.append(self), close(self))[1])

    def no_sequencer(_: Any) -> Any:
        raise RuntimeError("the sequencer does not start")

    monkeypatch.setattr(service.runtime, "Sequencer", no_sequencer)
    with pytest.raises(RuntimeError, match="does not start"):
        Runtime.open(sqlite(tmp_path), "api")
    (runtime,) = opened
    assert runtime.closed == ["dispatcher", "notifier", "store", "metrics"]
    assert isinstance(runtime.notifier, InProcessNotifier) and not runtime.notifier.thread.is_alive()
    assert runtime.dispatcher is not None and not runtime.dispatcher._thread.is_alive()
    assert_closed(runtime.store)


def test_a_log_key_that_cannot_be_read_closes_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from service.log.transparency import LogKeyError

    opened: list[Runtime] = []
    close = Runtime.close
    monkeypatch.setattr(Runtime, "close", lambda self: (opened.append(self), close(self))[1])
    with pytest.raises(LogKeyError):
        Runtime.open(sqlite(tmp_path, log_key=str(tmp_path / "missing.key")), "cli")
    (runtime,) = opened
    assert runtime.opened == ["store"] and runtime.closed == ["store"]
    assert_closed(runtime.store)


def test_every_part_is_closed_when_one_fails_to_close(tmp_path: Path) -> None:
    runtime = Runtime.open(sqlite(tmp_path), "api")
    assert isinstance(runtime.notifier, InProcessNotifier)
    notifier = runtime.notifier
    real = notifier.close

    def failing() -> None:
        real()
        raise OSError("the notifier would not close")

    runtime._closers = [(name, failing if name == "notifier" else closer) for name, closer in runtime._closers]
    with pytest.raises(OSError, match="would not close"):
        runtime.close()
    assert runtime.closed == ["bots", "sequencer", "dispatcher", "notifier", "store", "metrics"]
    assert_closed(runtime.store)
    runtime.close()  # nothing left
