"""A database that does not answer is a prompt 503 `store-unavailable` with `Retry-After`, never a request left
hanging or a 500: a statement past `statement_timeout_s` (here: waiting on a lock another session holds) is
cancelled and writes nothing, so the same move sent again with its Idempotency-Key lands once; a database that goes
away is answered the same way. Both paths of a move and a read are attacked: the event loop's (a match this process
has cached) and the worker thread's (a process that never saw the match)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.matches.tokens import new_secret, secret_hash
from store.deadline import WATCHDOG
from store.postgres import PostgresStore
from tests.ops.replica_copy import Proxy

pytestmark = pytest.mark.postgres
TIMEOUT_S = 1.0


@contextlib.contextmanager
def apps(url: str) -> Iterator[tuple[TestClient, TestClient, dict[str, Any]]]:
    """Two API processes' worth of app (each its own match cache) over one store whose statements time out after
    TIMEOUT_S; a touched-on match created through the first, with its seat tokens."""
    store = PostgresStore(url, timeout_s=2, statement_timeout_s=TIMEOUT_S)
    key = new_secret("app")
    store.create_app_key("tests", secret_hash(key))
    try:
        with TestClient(create_app(store)) as first, TestClient(create_app(store)) as second:
            created = first.post("/v1/matches", headers={"Authorization": f"Bearer {key}"},
                                 json={"game": "touched-on", "seats": [{"player": "a"}, {"player": "b"}]})
            assert created.status_code == 201, created.text
            yield first, second, created.json()
    finally:
        store.close()


@contextlib.contextmanager
def locked(url: str, sql: str, *params: Any) -> Iterator[None]:
    """Another session holds a lock (taken by `sql`) until the block ends."""
    with psycopg.connect(url) as conn:
        conn.execute(sql, params)
        try:
            yield
        finally:
            conn.rollback()


def next_move(client: TestClient, match: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """The seat to move's headers and a body playing its first legal move (read through `client`)."""
    detail = client.get(f"/v1/matches/{match['id']}").json()
    seat = detail["to_move"][0]
    headers = {"Authorization": f"Bearer {match['seats'][seat]['token']}"}
    legal = client.get(f"/v1/matches/{match['id']}?include=legal", headers=headers).json()
    return headers, {"move": legal["legal"][0], "expected_version": legal["version"]}


def unavailable(answer: Any, began: float) -> None:
    """A 503 `store-unavailable` with Retry-After, within a few seconds of the request."""
    assert answer.status_code == 503, answer.text
    assert answer.json()["code"] == "store-unavailable" and answer.headers["retry-after"] == "1"
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert time.monotonic() - began < TIMEOUT_S + 4


def lands_once(mover: TestClient, reader: TestClient, match: dict[str, Any], headers: dict[str, str],
               body: dict[str, Any]) -> None:
    """The move sent again with its Idempotency-Key lands, once: a third send is the duplicate, the log has no gap."""
    url = f"/v1/matches/{match['id']}/moves"
    landed = mover.post(url, headers=headers, json=body)
    assert landed.status_code == 201, landed.text
    again = mover.post(url, headers=headers, json=body)
    assert again.json()["duplicate"] is True and again.json()["version"] == landed.json()["version"]
    events = reader.get(f"/v1/matches/{match['id']}/events", headers=headers).json()
    assert [e["version"] for e in events["items"]] == list(range(1, landed.json()["version"] + 1))
    assert landed.json()["version"] > body["expected_version"]


@pytest.mark.parametrize("path", ["loop", "thread"])
def test_a_move_that_waits_on_a_held_lock_is_503_writes_nothing_and_lands_once_when_sent_again(
        pg_clean_url: str, path: str) -> None:
    with apps(pg_clean_url) as (first, second, match):
        headers, body = next_move(first, match)  # the first app now has the match cached: its moves run on the loop
        mover = first if path == "loop" else second  # the second has never seen it: the worker thread's path
        headers = {**headers, "Idempotency-Key": "move-1"}
        url = f"/v1/matches/{match['id']}/moves"
        with locked(pg_clean_url, "SELECT 1 FROM matches WHERE id = %s FOR UPDATE", match["id"]):
            began = time.monotonic()
            unavailable(mover.post(url, headers=headers, json=body), began)
        assert first.get(f"/v1/matches/{match['id']}").json()["version"] == body["expected_version"]
        lands_once(mover, first, match, headers, body)


@pytest.mark.parametrize("path", ["loop", "thread"])
def test_a_read_of_a_locked_table_is_503_within_the_timeout_and_answers_again_after(pg_clean_url: str,
                                                                                     path: str) -> None:
    with apps(pg_clean_url) as (first, second, match):
        headers, _ = next_move(first, match)
        reader = first if path == "loop" else second
        with locked(pg_clean_url, "LOCK TABLE matches IN ACCESS EXCLUSIVE MODE"):
            began = time.monotonic()
            unavailable(reader.get(f"/v1/matches/{match['id']}?include=legal", headers=headers), began)
        assert reader.get(f"/v1/matches/{match['id']}?include=legal", headers=headers).status_code == 200


def test_a_database_that_goes_away_is_503_not_500(pg_clean_url: str) -> None:
    port = urlsplit(pg_clean_url).port or 5432
    proxy = Proxy(port=port)
    try:
        with apps(pg_clean_url.replace(f":{port}/", f":{proxy.port}/", 1)) as (first, second, match):
            headers, body = next_move(first, match)
            proxy.down()
            for client in (first, second, first):
                began = time.monotonic()
                unavailable(client.post(f"/v1/matches/{match['id']}/moves", headers=headers, json=body), began)
                began = time.monotonic()
                unavailable(client.get(f"/v1/matches/{match['id']}", headers=headers), began)
    finally:
        proxy.up()


def answered_soon(request: Callable[[], Any], proxy: Proxy) -> Any:
    """The answer to `request`, failing the test (not hanging it) when none comes within TIMEOUT_S + 4 s; the proxy
    then forwards again, so the request still waiting ends."""
    pool = ThreadPoolExecutor(1)
    future = pool.submit(request)
    try:
        return future.result(timeout=TIMEOUT_S + 4)
    except FutureTimeout:
        proxy.up()
        pytest.fail("no answer while the database did not answer")
    finally:
        pool.shutdown(wait=False)


@pytest.mark.parametrize("path", ["loop", "thread"])
def test_a_database_that_stops_answering_is_503_at_the_deadline_and_the_move_lands_once_after(
        pg_clean_url: str, path: str) -> None:
    """A stalled server or a network holding every packet: the statement timeout's cancel never arrives, so the
    connection itself is cut (store/deadline.py) TIMEOUT_S + DEADLINE_MARGIN_S after it was taken. Without the cut
    the request waits until the kernel gives the connection up (minutes; here, until the proxy forwards again)."""
    port = urlsplit(pg_clean_url).port or 5432
    proxy = Proxy(port=port)
    try:
        with apps(pg_clean_url.replace(f":{port}/", f":{proxy.port}/", 1)) as (first, second, match):
            headers, body = next_move(first, match)
            client = first if path == "loop" else second
            headers = {**headers, "Idempotency-Key": "move-1"}
            url = f"/v1/matches/{match['id']}/moves"
            severed = WATCHDOG.severed
            proxy.hang()
            began = time.monotonic()
            unavailable(answered_soon(lambda: client.post(url, headers=headers, json=body), proxy), began)
            assert time.monotonic() - began >= TIMEOUT_S  # the statement timeout had its chance first
            began = time.monotonic()
            unavailable(answered_soon(lambda: client.get(f"/v1/matches/{match['id']}", headers=headers), proxy), began)
            assert WATCHDOG.severed > severed
            proxy.up()
            lands_once(client, first, match, headers, body)
    finally:
        proxy.up()


def test_background_work_and_migrations_are_not_held_to_the_statement_timeout(pg_clean_url: str) -> None:
    """The timeout is the requests': a projection batch (a changed projection version deletes all its documents in
    one statement) runs without it, and so do the migrations; every other statement has it."""
    store = PostgresStore(pg_clean_url, statement_timeout_s=TIMEOUT_S)
    try:
        with store._pool.connection() as conn:
            assert conn.execute("SHOW statement_timeout").fetchone() == ("1s",)
        with store.read_model_batch("match_summaries", 1) as batch:
            assert batch.conn.execute("SHOW statement_timeout").fetchone() == ("0",)
    finally:
        store.close()
