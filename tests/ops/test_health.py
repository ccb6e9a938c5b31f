"""Liveness and readiness: cheap, unauthenticated; readiness says why it is not ready, and Redis is not required."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.routes.ops import Operations
from service.ops.queue_status import QueueStatus
from settings import Settings
from store.factory import open_store
from tests.ops.replica_copy import Proxy
from tests.workers.processes import HungListener, free_port


def test_healthz_and_the_old_health_answer_ok(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/health").json() == {"status": "ok"}


def test_readyz_is_ready_when_the_store_answers_with_current_migrations(client: TestClient) -> None:
    answer = client.get("/readyz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ready", "store": "ok", "migrations": "current", "redis": "not-configured"}


def test_readyz_is_503_when_the_schema_is_not_this_codes(sqlite_store: Any) -> None:
    with sqlite_store._transaction() as conn:  # a database one migration behind this code
        conn.execute("DELETE FROM schema_migrations WHERE number = (SELECT max(number) FROM schema_migrations)")
    with TestClient(create_app(sqlite_store)) as client:
        answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["migrations"] == "behind" and answer.json()["status"] == "not-ready"


def test_readyz_is_503_when_the_store_is_gone(sqlite_store: Any) -> None:
    with TestClient(create_app(sqlite_store)) as client:
        sqlite_store.close()
        answer = client.get("/readyz")
        assert client.get("/healthz").status_code == 200  # the process itself is alive
    assert answer.status_code == 503
    assert answer.json()["store"] == "unreachable"


def test_readyz_reports_redis_down_or_hung_but_stays_ready(sqlite_store: Any) -> None:
    """Moves do not need Redis: readiness says it is unreachable and answers 200 within the short timeout."""
    hung = HungListener()
    try:
        for url in (f"redis://127.0.0.1:{free_port()}/0", hung.url):
            queue = QueueStatus(Settings(redis_url=url, notify_timeout_s=0.2))
            with TestClient(create_app(sqlite_store, operations=Operations(sqlite_store, queue))) as client:
                answer = client.get("/readyz")
                assert client.get("/metrics").text.count("turnstile_queue_up 0.0") == 1
            queue.close()
            assert answer.status_code == 200
            assert answer.json()["redis"] == "unreachable" and answer.json()["status"] == "ready"
            assert answer.elapsed.total_seconds() < 2
    finally:
        hung.close()


def test_readyz_reports_redis_ok(sqlite_store: Any, redis_url: str) -> None:
    queue = QueueStatus(Settings(redis_url=redis_url, queue="test-ready-queue", bot_queue="test-ready-bots"))
    with TestClient(create_app(sqlite_store, operations=Operations(sqlite_store, queue))) as client:
        assert client.get("/readyz").json()["redis"] == "ok"
        assert "turnstile_queue_jobs 0.0" in client.get("/metrics").text
    queue.close()


def test_readyz_and_the_metrics_count_the_bot_turns_waiting(sqlite_store: Any, redis_url: str) -> None:
    """Search bots' turns queued and not taken (no worker) show in /readyz and /metrics; a Redis that does not
    answer leaves the count out instead of failing the probe."""
    from rq import Queue
    from rq.serializers import JSONSerializer

    queue = QueueStatus(Settings(redis_url=redis_url, queue="test-ready-queue", bot_queue="test-ready-bots"))
    bots = Queue("test-ready-bots", connection=queue.redis, serializer=JSONSerializer)
    bots.empty()
    try:
        for n in range(3):
            bots.enqueue("workers.jobs.bot_turn_job", f"m-{n}", n + 1, job_id=f"bot-m-{n}-{n + 1}")
        with TestClient(create_app(sqlite_store, operations=Operations(sqlite_store, queue))) as client:
            ready = client.get("/readyz").json()
            assert (ready["status"], ready["redis"], ready["bot_turns_waiting"]) == ("ready", "ok", 3)
            assert "turnstile_bot_queue_jobs 3.0" in client.get("/metrics").text
        down = QueueStatus(Settings(redis_url=f"redis://127.0.0.1:{free_port()}/0", notify_timeout_s=0.2))
        with TestClient(create_app(sqlite_store, operations=Operations(sqlite_store, down))) as client:
            ready = client.get("/readyz").json()
            assert ready["redis"] == "unreachable" and "bot_turns_waiting" not in ready
            assert "turnstile_bot_queue_jobs" not in client.get("/metrics").text
        down.close()
    finally:
        bots.empty()
        queue.close()


@pytest.mark.postgres
@pytest.mark.parametrize("fault", ["hung", "down"])
def test_readyz_says_not_ready_within_its_timeout_when_postgresql_hangs_or_goes_down(pg_clean_url: str,
                                                                                     fault: str) -> None:
    """The store behind a proxy that holds every byte (or drops every connection): readiness answers 503 within
    about `ready_timeout_s`, not after the driver's own wait (a hung socket: forever); repeated probes while the
    store hangs share one question; once the store answers again the process is ready again."""
    proxy = Proxy(port=urlsplit(pg_clean_url).port or 5432)
    store = open_store(pg_clean_url.replace(f":{urlsplit(pg_clean_url).port or 5432}/", f":{proxy.port}/", 1))
    operations = Operations(store, ready_timeout_s=1.0)
    try:
        with TestClient(create_app(store, operations=operations)) as client:
            assert client.get("/readyz").status_code == 200
            getattr(proxy, "hang" if fault == "hung" else "down")()
            for _ in range(3):
                began = time.monotonic()
                answer = client.get("/readyz")
                assert answer.status_code == 503 and answer.json()["store"] == "unreachable"
                assert time.monotonic() - began < 3
            assert client.get("/healthz").status_code == 200  # alive, only not ready
            if fault == "hung":
                proxy.up()
                deadline = time.monotonic() + 10
                while client.get("/readyz").status_code != 200:
                    assert time.monotonic() < deadline, "ready again once the store answers"
                    time.sleep(0.2)
    finally:
        proxy.up()
        store.close()
