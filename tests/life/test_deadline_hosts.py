"""Who runs the deadline sweep: `turnstile worker` (with Redis, here `--burst`) and, on the embedded default, the
server's in-process background thread. Matches are created with the stores' clock set back two days, so their
deadlines have passed on the real clock: nothing sleeps."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from litestar.testing import TestClient

import store.postgres
import store.sqlite
from api.asgi import create
from service.matches.matches import MatchService
from service.reads.notify import InProcessNotifier
from settings import Settings
from store.base import utc_now
from store.factory import open_store
from tests.workers.processes import ROOT


def backdated(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> str:
    """A two-seat match with a one-minute move deadline, created two days ago by the stores' clock."""
    past = utc_now() - timedelta(days=2)
    for module in (store.sqlite, store.postgres):
        monkeypatch.setattr(module, "utc_now", lambda: past)
    created = service.create("touched-on", ["ada", "grace"], {"move_deadline": 60})
    monkeypatch.undo()
    return created.record.id


def test_the_worker_records_the_timeouts_due(pg_clean_url: str, redis_url: str, rq_queue: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """`turnstile worker --burst` sweeps once: the overdue match ends `timed-out`."""
    shared = open_store(pg_clean_url)
    try:
        service = MatchService(shared)
        match_id = backdated(service, monkeypatch)
        env = {"TURNSTILE_DATABASE_URL": pg_clean_url, "TURNSTILE_REDIS_URL": redis_url,
               "TURNSTILE_QUEUE": rq_queue, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-m", "cli", "worker", "--burst"], cwd=ROOT, timeout=60,
                              env={**os.environ, **env}, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        ended = service.load(match_id).state.ended
        assert ended is not None and ended.reason == "timed-out"
    finally:
        shared.close()


def test_the_embedded_server_sweeps_in_its_background_thread(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With no Redis, the server's in-process notifier runs the sweep at its timed wake-ups: an overdue match ends."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'store.db'}", redis_url=None, sweep_seconds=0.05)
    app = create(settings)
    notifier = app.state.notifier
    assert isinstance(notifier, InProcessNotifier)
    with TestClient(app):  # its shutdown stops the notifier and the webhook threads, then closes the store
        service: MatchService = app.state.service
        match_id = backdated(service, monkeypatch)
        ran = threading.Event()
        notifier.tasks.append(ran.set)  # after the sweep, in the same wake-up
        assert ran.wait(30)
        ran.clear()  # that sweep may have begun before the match was created: the next one began after
        assert ran.wait(30)
        ended = service.load(match_id).state.ended
        assert ended is not None and ended.reason == "timed-out"
