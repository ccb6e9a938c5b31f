"""Answers that depend on the caller's token carry `Cache-Control: private, no-store` and `Vary: Authorization`, so
no shared cache keeps a seat's view, a token or an app's private matches and hands it to someone else."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from store.factory import open_store
from tests.api.conftest import bearer
from tests.api.http_play import create
from tests.ops.conftest import new_key

OPERATIONS = create_app(open_store("sqlite:///:memory:")).openapi_schema.to_schema()["paths"]
TOKEN_DEPENDENT = sorted((method.upper(), path) for path, ops in OPERATIONS.items() for method, op in ops.items()
                         if op.get("security") or op["operationId"] == "joinMatch")  # a join answers a token


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, Any], str]]:
    """A client, a match of two seats created by an app, and the app's key."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('private') / 'store.db'}")
    with TestClient(create_app(store)) as client:
        key = new_key(store, "cached")
        yield client, create(client, key, "expect-delays", 2), key
    store.close()


def private(answer: Any) -> bool:
    """Whether an answer forbids shared caches and varies by credential."""
    return ("no-store" in answer.headers.get("cache-control", "")
            and "authorization" in answer.headers.get("vary", "").lower())


def test_the_token_dependent_operations_are_the_ones_expected() -> None:
    """The list below is not empty by accident: views, legal moves, events, moves, streams, exports, webhooks."""
    ids = {OPERATIONS[path][method.lower()]["operationId"] for method, path in TOKEN_DEPENDENT}
    assert {"getMatch", "getStateAt", "getLegalMoves", "getEvents", "playMove", "streamMatch", "followFeed",
            "exportRecord", "createMatch", "joinMatch", "listMatches", "listWebhooks"} <= ids


@pytest.mark.parametrize(("method", "path"), TOKEN_DEPENDENT)
def test_every_token_dependent_answer_is_private(served: tuple[TestClient, dict[str, Any], str], method: str,
                                                 path: str) -> None:
    client, match, key = served
    streams = "stream" in path or "feed" in path  # an unknown match (or a seat token on the feed) answers at once
    url = path.format(match_id="no-such-match" if streams else match["id"], webhook_id="w", delivery_id="d",
                      tournament_id="no-such-tournament")
    token = match["seats"][0]["token"]
    answer = client.request(method, url, headers=bearer(token), json={} if method == "POST" else None)
    assert private(answer), (answer.status_code, dict(answer.headers))


def test_a_seats_own_answers_are_private(served: tuple[TestClient, dict[str, Any], str]) -> None:
    client, match, key = served
    seat = {s["seat"]: s["token"] for s in match["seats"]}
    base = f"/v1/matches/{match['id']}"
    mover = client.get(base).json()["to_move"][0]
    legal = client.get(f"{base}/legal-moves", headers=bearer(seat[mover]))
    moved = client.post(f"{base}/moves", headers=bearer(seat[mover]),
                        json={"move": legal.json()["moves"][0], "expected_version": legal.json()["version"]})
    answers = [legal, moved, client.get(base, headers=bearer(seat[0])), client.get(base),
               client.get(f"{base}/state?version=2", headers=bearer(seat[0])),
               client.get(f"{base}/events", headers=bearer(seat[0])), client.get(f"{base}/export"),
               client.get("/v1/matches?mine=true", headers=bearer(key))]
    assert [a.status_code for a in answers] == [200, 201, 200, 200, 200, 200, 200, 200]
    assert all(private(a) for a in answers)


def test_public_answers_stay_cacheable(served: tuple[TestClient, dict[str, Any], str]) -> None:
    client, _, _ = served
    assert not private(client.get("/v1/games"))


def test_authorization_joins_what_vary_names_already(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A browser app's answer varies by Origin (CORS) and by Authorization: neither replaces the other."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('vary') / 'store.db'}")
    with TestClient(create_app(store, cors_origins="https://app.example")) as client:
        key = new_key(store, "vary")
        answer = client.get("/v1/matches?mine=true", headers={**bearer(key), "Origin": "https://app.example"})
    store.close()
    varies = {v.strip().lower() for v in answer.headers["vary"].split(",")}
    assert answer.status_code == 200 and {"origin", "authorization"} <= varies, answer.headers
