"""GET /metrics: Prometheus text with the documented metrics, labelled by route template, game and code."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

from domain import match
from domain.engine import Refusal
from service.ops.metrics import process_exited
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves
from tests.ops.conftest import new_key


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels."""
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(answer.text) for s in family.samples}


def value(scraped: dict[Any, float], name: str, **labels: str) -> float:
    """One sample's value (0 when absent)."""
    return scraped.get((name, tuple(sorted(labels.items()))), 0.0)


def test_moves_requests_refusals_replays_and_conflicts_are_counted(client: TestClient, sqlite_store: Any) -> None:
    before = samples(client)
    key = new_key(sqlite_store, "metrics-app")
    created = create(client, key, "expect-delays", 2)
    match_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    play_moves(client, created, random.Random(3), 2)
    state = client.get(f"/v1/matches/{match_id}").json()
    seat = state["to_move"][0]
    legal = client.get(f"/v1/matches/{match_id}/legal-moves", headers=bearer(tokens[seat])).json()
    body = {"move": legal["moves"][0], "expected_version": legal["version"]}
    headers = {**bearer(tokens[seat]), "Idempotency-Key": "m-1"}
    assert client.post(f"/v1/matches/{match_id}/moves", headers=headers, json=body).status_code == 201
    assert client.post(f"/v1/matches/{match_id}/moves", headers=headers, json=body).json()["duplicate"]
    stale = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat]), json=body)
    assert stale.json()["code"] == "version-conflict"
    client.get("/v1/matches/no-such-match")
    after = samples(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    move_route = "/v1/matches/{match_id}/moves"
    assert grew("turnstile_http_requests_total", method="POST", route=move_route, status="201") == 4
    assert grew("turnstile_http_requests_total", method="GET", route="/v1/matches/{match_id}", status="404") == 1
    assert not any("no-such-match" in str(labels) for _, labels in after), "paths never become labels"
    assert grew("turnstile_move_seconds_count", game="expect-delays") == 4  # answered moves (the stale one is not)
    assert grew("turnstile_http_request_seconds_count", route=move_route) == 5
    assert grew("turnstile_idempotent_replays_total") == 1
    assert grew("turnstile_refusals_total", code="version-conflict") == 1
    assert grew("turnstile_refusals_total", code="unknown-match") == 1
    assert grew("turnstile_store_append_seconds_count") == 3
    assert grew("turnstile_events_appended_total", game="expect-delays") >= 3 + created["version"]
    assert value(after, "turnstile_log_head_position") >= created["version"] + 3
    assert ("turnstile_projection_lag_events", (("projection", "ratings"),)) in after


def test_open_streams_are_a_gauge(client: TestClient, sqlite_store: Any) -> None:
    created = create(client, new_key(sqlite_store, "s"), "expect-delays", 2)
    before = value(samples(client), "turnstile_open_streams")
    release = client.app.state.hub.open("someone")
    assert value(samples(client), "turnstile_open_streams") == before + 1
    release()
    assert value(samples(client), "turnstile_open_streams") == before
    assert created["id"]


def test_a_version_conflict_between_writers_is_counted(client: TestClient, sqlite_store: Any) -> None:
    """Another writer (another process) appended meanwhile: the append conflicts, is counted, and re-decided."""
    created = create(client, new_key(sqlite_store, "w"), "expect-delays", 2)
    service = client.app.state.service
    before = value(samples(client), "turnstile_version_conflicts_total")
    loaded = service.load(created["id"])  # both processes have the match at the same version
    other = type(service)(sqlite_store)  # a second process's service, with its own cache
    other.load(created["id"])
    seat = match.to_move(loaded.game, loaded.state)[0]
    command = match.legal(loaded.game, loaded.state, seat)[0]
    other.play(created["id"], seat, command, expected_version=None, command_id=None)
    with contextlib.suppress(Refusal):  # decided on the stale cached state, the append conflicts; re-decided
        service.play(created["id"], seat, command, expected_version=None, command_id=None)
    assert value(samples(client), "turnstile_version_conflicts_total") == before + 1


def test_process_exited_is_harmless_without_a_shared_folder() -> None:
    process_exited(None, 12345)


def test_the_operator_may_protect_the_metrics_with_a_token(sqlite_store: Any) -> None:
    """The attack: /metrics told anyone the global event count, which moves when a private match moves. With
    TURNSTILE_METRICS_TOKEN set, a scrape without it (or with another token) is refused and reveals nothing."""
    from api.app import create_app
    from api.routes.ops import Operations

    app = create_app(sqlite_store, operations=Operations(sqlite_store, metrics_token="scrape-secret"))
    with TestClient(app) as client:
        for headers in ({}, bearer("guess"), {"Authorization": "scrape-secret"}):
            refused = client.get("/metrics", headers=headers)
            assert (refused.status_code, refused.json()["code"]) == (401, "metrics-token-required")
            assert "turnstile_log_head_position" not in refused.text
        scraped = client.get("/metrics", headers=bearer("scrape-secret"))
        assert scraped.status_code == 200 and "turnstile_log_head_position" in scraped.text


def test_the_metrics_token_comes_from_the_settings(tmp_path: Any, monkeypatch: Any) -> None:
    from api.asgi import create
    from settings import Settings

    app = create(Settings(database_url=f"sqlite:///{tmp_path / 'm.db'}", metrics_token="from-env"))
    with TestClient(app) as client:
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers=bearer("from-env")).status_code == 200


def test_the_projection_status_says_what_its_head_reveals(client: TestClient) -> None:
    document = client.get("/schema/openapi.json").json()
    described = document["paths"]["/v1/projections"]["get"]["description"]
    assert "private and unlisted ones included" in described and "never which match" in described
