"""Served processes: metrics summed over `--workers 2`, streams ended at SIGTERM, `turnstile worker --burst`."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from projections.catalog import PROJECTIONS
from store.factory import open_store
from tests.ops.conftest import new_key
from tests.serving import ApiProcess
from tests.workers.helpers import assert_tables_equal_a_fresh_fold, play_matches
from tests.workers.processes import ROOT


def games_requests(text: str) -> float:
    """turnstile_http_requests_total of GET /v1/games 200, summed over the scrape's samples."""
    return sum(s.value for family in text_string_to_metric_families(text) for s in family.samples
               if s.name == "turnstile_http_requests_total" and s.labels.get("route") == "/v1/games")


def test_two_processes_metrics_are_summed_and_sigterm_ends_streams_at_once(tmp_path: Path) -> None:
    """Requests spread over two worker processes are all counted by any scrape; at SIGTERM an open stream ends
    within a second (not after the 10 s graceful timeout), and the server exits 0."""
    db = tmp_path / "served.db"
    store = open_store(f"sqlite:///{db}")
    key = new_key(store, "served")
    store.close()
    api = ApiProcess(tmp_path / "serve.log", workers=2, TURNSTILE_DATABASE_URL=f"sqlite:///{db}",
                     TURNSTILE_REDIS_URL="", TURNSTILE_METRICS_DIR=str(tmp_path / "metrics")).start()
    # No keep-alive: each request a new connection, which the kernel hands to either process.
    fresh = httpx.Client(base_url=api.url, timeout=5, limits=httpx.Limits(max_keepalive_connections=0))
    try:
        for _ in range(40):
            assert fresh.get("/v1/games").status_code == 200
        counting = {path.name for path in (tmp_path / "metrics").glob("counter_*.db")}
        assert len(counting) == 2, f"both processes answered and count in the shared folder: {counting}"
        assert all(games_requests(fresh.get("/metrics").text) == 40 for _ in range(6))
        created = fresh.post("/v1/matches", headers={"Authorization": f"Bearer {key}"},
                             json={"game": "expect-delays", "seats": [{"player": "a"}, {"player": "b"}]}).json()
        ended: dict[str, Any] = {}

        def follow() -> None:
            with httpx.stream("GET", f"{api.url}/v1/matches/{created['id']}/stream", timeout=30) as stream:
                for _ in stream.iter_lines():
                    ended.setdefault("first", time.monotonic())
            ended["at"] = time.monotonic()

        reader = threading.Thread(target=follow)
        reader.start()
        while "first" not in ended:
            time.sleep(0.05)
        stopped = time.monotonic()
        code = api.stop(timeout=30)
        reader.join(30)
        assert code == 0
        assert ended["at"] - stopped < 3, "the stream ended at the signal, not at the graceful timeout"
    finally:
        fresh.close()
        api.kill()


def test_worker_burst_catches_up_once_and_exits(pg_clean_url: str, redis_url: str, rq_queue: str) -> None:
    store = open_store(pg_clean_url)
    try:
        play_matches(store, 2, seed=5)
        env = {"TURNSTILE_DATABASE_URL": pg_clean_url, "TURNSTILE_REDIS_URL": redis_url,
               "TURNSTILE_QUEUE": rq_queue, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-m", "cli", "worker", "--burst"], cwd=ROOT, timeout=60,
                              env={**os.environ, **env}, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        head = store.head_position()
        assert [c.position for c in store.checkpoints()] == [head] * len(PROJECTIONS)
        assert_tables_equal_a_fresh_fold(store)
        assert '"job":"catch_up_job"' in done.stderr and '"status":"done"' in done.stderr  # the job's JSON line
    finally:
        store.close()
