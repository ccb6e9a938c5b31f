"""Two `turnstile serve` processes on one PostgreSQL database: a move posted to one reaches streams held by the
other through LISTEN/NOTIFY, once each and in order; a reconnect loses nothing; a stopping server ends its streams."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import httpx
import pytest

from service.matches.tokens import new_secret, secret_hash
from store.factory import open_store
from tests.live.play import auth, log, move
from tests.live.sse import Stream
from tests.serving import ApiProcess

# Streams re-read the log every 5 s without a signal (api/routes/live.py): an event that comes sooner came pushed.
PUSHED_WITHIN_S = 3.0

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def servers(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ApiProcess, ...]]:
    """Processes A, B and C on one database, started together (C is the one stopped)."""
    open_store(pg_url).close()  # migrated once, before three processes start on it
    logs = tmp_path_factory.mktemp("across")
    started = [ApiProcess(logs / f"{name}.log", TURNSTILE_DATABASE_URL=pg_url).launch() for name in ("a", "b", "c")]
    try:
        yield tuple(server.wait_ready() for server in started)
    finally:
        for server in started:
            server.kill()


@pytest.fixture(scope="module")
def key(pg_url: str) -> str:
    """An app key of the database."""
    store = open_store(pg_url)
    try:
        key = new_secret("app")
        store.create_app_key("across", secret_hash(key))
        return key
    finally:
        store.close()


def test_moves_posted_to_one_process_stream_from_the_other_once_in_order_across_a_reconnect(
        servers: tuple[ApiProcess, ...], key: str) -> None:
    a, b, _ = servers
    created = httpx.post(f"{b.url}/v1/matches", headers=auth(key), json={
        "game": "expect-delays", "seats": [{"player": "ann"}, {"player": "bob"}], "options": {"max_turns": 10}}).json()
    url = f"{a.url}/v1/matches/{created['id']}/stream"
    segments = [Stream(url)]
    segments[-1].wait_for(created["version"])
    rng = random.Random(7)
    moves = 0
    try:
        while (answer := move(b.url, created, rng)) is not None:
            moves += 1
            if moves % 7 == 0:  # hang up in the middle and come back where we were
                segments[-1].close()
                last = int(segments[-1].events[-1].id)
                segments.append(Stream(url, headers={"Last-Event-ID": str(last)}))
                if last >= answer["version"]:
                    continue  # the move had arrived before the hang-up: nothing to wait for
            segments[-1].wait_for(answer["version"], PUSHED_WITHIN_S)
        segments[-1].wait_until_ended()
    finally:
        for segment in segments:
            segment.close()
    received = [m.body for segment in segments for m in segment.events]
    assert moves > 10
    versions = [item["version"] for item in received]
    assert versions == sorted(set(versions)), "no duplicate, no disorder"
    final = log(b.url, created["id"])
    assert versions == [item["version"] for item in final], "no gap"


def test_a_stopping_server_ends_its_streams_so_clients_reconnect_elsewhere(
        servers: tuple[ApiProcess, ...], key: str) -> None:
    _, b, leaving = servers
    created = httpx.post(f"{b.url}/v1/matches", headers=auth(key), json={
        "game": "expect-delays", "seats": [{"player": "ann"}, {"player": "bob"}]}).json()
    try:
        stream = Stream(f"{leaving.url}/v1/matches/{created['id']}/stream")
        stream.wait_for(created["version"])
        began = time.monotonic()
        leaving.stop()
        stopped_in = time.monotonic() - began
        stream.wait_until_ended(5)
        assert stream.error is None, f"the stream was cut, not ended: {stream.error}"
        assert stopped_in < 5, "the server did not wait out its grace period (10 s) for the open stream"
        assert "timeout graceful shutdown exceeded" not in leaving.log.read_text()
        again = Stream(f"{b.url}/v1/matches/{created['id']}/stream",
                       headers={"Last-Event-ID": stream.events[-1].id})
        assert again.status == 200
        again.close()
    finally:
        leaving.kill()
