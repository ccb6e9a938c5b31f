"""Rate limits: a token bucket per app key, seat token and address; 429 + Retry-After; Redis shared, fail open."""

from __future__ import annotations

import asyncio
import io
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.credentials import Credentials
from api.ratelimit import Limit, Limits, MemoryBuckets, RateLimiter, RedisBuckets
from service.ops.metrics import RATE_LIMIT_FAIL_OPEN, RATE_LIMITED
from settings import Settings
from tests.api.conftest import bearer
from tests.api.http_play import create
from tests.ops.conftest import new_key
from tests.workers.processes import HungListener, free_port

TIGHT = Limits(app=Limit(0.5, 3), seat=Limit(0.5, 3), address=Limit(0.5, 3))
GAME = {"game": "expect-delays", "seats": [{"player": "ada"}, {"player": "bob"}]}


def test_a_bucket_gives_its_burst_then_one_token_per_interval() -> None:
    now = [100.0]
    buckets = MemoryBuckets(clock=lambda: now[0])
    limit = Limit(per_s=2.0, burst=3)
    takes = [asyncio.run(buckets.take("k", limit)) for _ in range(4)]
    assert takes[:3] == [0.0, 0.0, 0.0] and takes[3] == pytest.approx(0.5)
    assert asyncio.run(buckets.take("other", limit)) == 0.0  # buckets are per key
    now[0] += 0.5
    assert asyncio.run(buckets.take("k", limit)) == 0.0
    assert asyncio.run(buckets.take("k", limit)) == pytest.approx(0.5)


def legal_move(client: TestClient, match_id: str, token: str) -> dict[str, Any]:
    """The first legal move of the seat holding `token` (unlimited reads are not needed: the caller pays)."""
    legal = client.get(f"/v1/matches/{match_id}/legal-moves", headers=bearer(token)).json()
    return {"move": legal["moves"][0], "expected_version": legal["version"]}


def test_an_app_at_its_limit_gets_429_while_another_apps_moves_go_on(sqlite_store: Any) -> None:
    """App A spends its bucket creating matches: 429 problem+json with Retry-After, and nothing is created; app B
    creates a match and its seats play moves throughout."""
    generous = Limits(app=Limit(0.5, 3), seat=Limit(100, 100), address=Limit(100, 100))
    with TestClient(create_app(sqlite_store, limiter=RateLimiter(generous))) as client:
        key_a, key_b = new_key(sqlite_store, "a"), new_key(sqlite_store, "b")
        for _ in range(4):  # the first is paid by the address (the key is looked up then), three by the key
            assert client.post("/v1/matches", json=GAME, headers=bearer(key_a)).status_code == 201
        before = len(sqlite_store.list_matches(limit=100))
        refused = client.post("/v1/matches", json=GAME, headers=bearer(key_a))
        assert refused.status_code == 429
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["code"] == "rate-limited" and int(refused.headers["retry-after"]) >= 1
        assert len(sqlite_store.list_matches(limit=100)) == before
        created = create(client, key_b, "expect-delays", 2)
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        for _ in range(5):
            assert client.post("/v1/matches", json=GAME, headers=bearer(key_a)).status_code == 429
            state = client.get(f"/v1/matches/{created['id']}").json()
            seat = state["to_move"][0]
            moved = client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(tokens[seat]),
                                json=legal_move(client, created["id"], tokens[seat]))
            assert moved.status_code == 201


def test_a_seat_token_and_an_address_have_buckets_of_their_own(sqlite_store: Any) -> None:
    """A credential's first request is paid by the address (it is looked up then); from then on its own bucket."""
    with TestClient(create_app(sqlite_store, limiter=RateLimiter(TIGHT))) as client:
        created = create(client, new_key(sqlite_store, "c"), "expect-delays", 2)  # the address pays: 2 left
        seat_token = created["seats"][0]["token"]
        seat_reads = [client.get(f"/v1/matches/{created['id']}", headers=bearer(seat_token)).status_code
                      for _ in range(5)]
        assert seat_reads == [200, 200, 200, 200, 429]  # the first from the address (1 left), then 3 of its own
        spectator = [client.get(f"/v1/matches/{created['id']}").status_code for _ in range(2)]
        assert spectator == [200, 429]
        assert client.get("/healthz").status_code == 200 and client.get("/readyz").status_code == 200
        assert client.get("/schema/openapi.json").status_code == 200  # only /v1/ is limited


ATTACKED = ["/v1/games", "/v1/matches", "/v1/leaderboards/expect-delays", "/v1/matches/{id}",
            "/v1/matches/{id}/events"]


@pytest.mark.parametrize("path", ATTACKED)
def test_made_up_bearer_tokens_count_against_the_callers_address(sqlite_store: Any, path: str) -> None:
    """The attack: a fresh random token per request once bought a fresh bucket. At 1/s, burst 5, 20 requests with
    20 made-up tokens (app-key-shaped and seat-token-shaped) now share the address's bucket: most get 429."""
    limits = Limits(app=Limit(1, 5), seat=Limit(1, 5), address=Limit(1, 5))
    with TestClient(create_app(sqlite_store, limiter=RateLimiter(limits))) as client:
        created = create(client, new_key(sqlite_store, "e"), "expect-delays", 2)
        time.sleep(1.1)  # one token back for the address
        url = path.format(id=created["id"])
        statuses = [client.get(url, headers=bearer(f"{prefix}_{secrets.token_urlsafe(24)}")).status_code
                    for prefix in ("app", "seat") * 10]
    assert statuses.count(429) >= 14, statuses


def test_a_made_up_verification_is_limited_before_the_record_is_checked(sqlite_store: Any) -> None:
    """POST /v1/verifications (the most expensive call) with a made-up token per request: the address pays."""
    limits = Limits(app=Limit(1, 5), seat=Limit(1, 5), address=Limit(1, 5))
    with TestClient(create_app(sqlite_store, limiter=RateLimiter(limits))) as client:
        statuses = [client.post("/v1/verifications", content=b"{}", headers={
            **bearer(f"app_{secrets.token_urlsafe(24)}"), "Content-Type": "application/json"}).status_code
            for _ in range(20)]
    assert statuses.count(429) >= 14, statuses


def test_a_made_up_token_is_looked_up_once_then_remembered(sqlite_store: Any) -> None:
    """The failed lookup is cheap: the same made-up token asks the store once, however often it is shown."""
    asked: list[str] = []

    class Counting:
        def app_key_name(self, key_hash: str) -> str | None:
            asked.append(key_hash)
            return None

        def get_match(self, match_id: str) -> None:
            asked.append(match_id)

    credentials = Credentials(Counting())
    limiter = RateLimiter(Limits(address=Limit(100, 100)))
    scope = {"type": "http", "path": "/v1/games", "client": ("10.0.0.1", 1),
             "headers": [(b"authorization", b"Bearer app_made-up")]}
    for _ in range(10):
        asyncio.run(limiter.check(scope, credentials))  # type: ignore[arg-type]
    assert len(asked) == 1


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A Redis key prefix of this test's own, deleted after it."""
    import redis

    chosen = f"test-rate-{secrets.token_hex(4)}:"
    yield chosen
    with redis.Redis.from_url(redis_url) as client:
        for key in client.scan_iter(f"{chosen}*"):
            client.delete(key)


def test_redis_buckets_are_shared_by_every_api_process(sqlite_store: Any, redis_url: str, prefix: str) -> None:
    """Two apps (as two API processes) on one Redis draw on one budget per caller."""
    settings = Settings(redis_url=redis_url)
    first = TestClient(create_app(sqlite_store, limiter=RateLimiter(TIGHT, RedisBuckets(settings, prefix))))
    second = TestClient(create_app(sqlite_store, limiter=RateLimiter(TIGHT, RedisBuckets(settings, prefix))))
    with first, second:
        answers = [client.get("/v1/games").status_code for client in (first, second, first, second)]
    assert answers == [200, 200, 200, 429]


@pytest.mark.parametrize("fault", ["down", "hung"])
def test_a_dead_or_hung_redis_lets_requests_through_quickly(sqlite_store: Any, fault: str,
                                                            log_lines: io.StringIO) -> None:
    """Fail open: every move commits, the breaker keeps the cost to a few timeouts, a log line and a metric."""
    hung = HungListener()
    url = hung.url if fault == "hung" else f"redis://127.0.0.1:{free_port()}/0"
    settings = Settings(redis_url=url, notify_timeout_s=0.2, notify_breaker_failures=2,
                        notify_breaker_cool_down_s=30)
    opened_before = RATE_LIMIT_FAIL_OPEN._value.get()
    try:
        with TestClient(create_app(sqlite_store, limiter=RateLimiter(TIGHT, RedisBuckets(settings)))) as client:
            started = time.monotonic()
            created = create(client, new_key(sqlite_store, "d"), "expect-delays", 2)
            statuses = [client.get(f"/v1/matches/{created['id']}").status_code for _ in range(20)]
            elapsed = time.monotonic() - started
    finally:
        hung.close()
    assert statuses == [200] * 20, "never a 429 nor a 500 while Redis fails: the limit fails open"
    assert elapsed < 0.2 * 2 + 3, "two timeouts, then the open breaker answers at once"
    assert RATE_LIMIT_FAIL_OPEN._value.get() - opened_before == 21
    assert "rate limits: Redis failed" in log_lines.getvalue()
    assert "circuit open" in log_lines.getvalue()


def test_refusals_are_counted_by_caller_kind(sqlite_store: Any) -> None:
    before = RATE_LIMITED.labels("address")._value.get()
    with TestClient(create_app(sqlite_store, limiter=RateLimiter(TIGHT))) as client:
        for _ in range(5):
            client.get("/v1/games")
    assert RATE_LIMITED.labels("address")._value.get() - before == 2


def test_a_seat_token_shown_first_off_its_match_is_still_recognised_on_it(sqlite_store: Any) -> None:
    """A client that sends its seat token on every call (a generated authenticated client) is not taken for a
    made-up token once it reaches its match: off a match's paths a seat token is not looked up at all."""
    limits = Limits(app=Limit(100, 100), seat=Limit(100, 100), address=Limit(0.001, 3))
    with TestClient(create_app(sqlite_store, limiter=RateLimiter(limits))) as client:
        created = client.app.state.service.create("expect-delays", ["ada", "bob"], None, owner="e")
        token = created.tokens[0]
        assert token is not None
        assert client.get("/v1/games", headers=bearer(token)).status_code == 200  # the address pays: 2 left
        reads = [client.get(f"/v1/matches/{created.record.id}", headers=bearer(token)).status_code for _ in range(6)]
        assert reads == [200] * 6  # the first paid by the address (1 left), then the seat's own bucket
        assert [client.get("/v1/games").status_code for _ in range(2)] == [200, 429]
