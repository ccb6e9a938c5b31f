"""Every error row of the API: a typed problem+json with a stable code, and nothing changed."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from store.base import EventStore
from tests.api.conftest import bearer
from tests.api.http_play import create

GAME = "expect-delays"


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """Assert a problem+json answer with this status and code; returns its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status and body["code"] == code, body
    return body


def to_move(client: TestClient, created: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(mover seat, other seat, a legal move of the mover)."""
    state = client.get(f"/v1/matches/{created['id']}").json()
    mover = next(s for s in created["seats"] if s["seat"] == state["to_move"][0])
    other = next(s for s in created["seats"] if s["seat"] != mover["seat"])
    legal = client.get(f"/v1/matches/{created['id']}/legal-moves", headers=bearer(mover["token"])).json()
    return mover, other, legal["moves"][0]


def test_unknown_game_and_match_are_404(client: TestClient, app_key: str) -> None:
    """Unknown game or match: 404 with its own code."""
    problem(client.post("/v1/matches", json={"game": "chess", "seats": [{"player": "a"}]}, headers=bearer(app_key)),
            404, "unknown-game")
    problem(client.get("/v1/games/chess"), 404, "unknown-game")
    problem(client.get("/v1/matches/no-such-match"), 404, "unknown-match")
    problem(client.get("/v1/matches/no-such-match/events"), 404, "unknown-match")


def test_malformed_bodies_are_400_naming_the_field(client: TestClient, app_key: str) -> None:
    """A malformed body: 400 that says which field is wrong."""
    body = problem(client.post("/v1/matches", json={"game": GAME, "seats": "two"}, headers=bearer(app_key)),
                   400, "invalid-request")
    assert any("seats" in (e.get("key") or "") + e["message"] for e in body["errors"])
    body = problem(client.post("/v1/matches", json={"game": GAME, "seats": [{"player": "a"}], "colour": 1},
                               headers=bearer(app_key)), 400, "invalid-request")
    assert "colour" in body["errors"][0]["message"]
    created = create(client, app_key, GAME, 2)
    mover, _, _ = to_move(client, created)
    body = problem(client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(mover["token"]),
                               json={"move": {"type": "expect-delays.no-such-action"}}), 400, "invalid-request")
    assert body["errors"]


def test_bad_seat_count_and_options_are_422(client: TestClient, app_key: str) -> None:
    """A game refuses a seat count or options it does not take."""
    problem(client.post("/v1/matches", json={"game": GAME, "seats": [{"player": "a"}]}, headers=bearer(app_key)),
            422, "bad-seat-count")
    problem(client.post("/v1/matches", json={"game": GAME, "seats": [{"player": "a"}, {"player": "b"}],
                                             "options": {"no_such_option": 1}}, headers=bearer(app_key)),
            422, "bad-options")


def test_a_refused_move_is_422_with_the_rules_code_and_changes_nothing(client: TestClient, app_key: str) -> None:
    """A seat that is not to move sends a move: the rule's code, and the version stays."""
    created = create(client, app_key, GAME, 2)
    _, other, move = to_move(client, created)
    before = client.get(f"/v1/matches/{created['id']}").json()["version"]
    problem(client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(other["token"]), json={"move": move}),
            422, "not-your-turn")
    assert client.get(f"/v1/matches/{created['id']}").json()["version"] == before


def test_a_stale_version_is_409_or_412_with_the_current_version(client: TestClient, app_key: str) -> None:
    """Optimistic concurrency: expected_version in the body (409) or If-Match (412)."""
    created = create(client, app_key, GAME, 2)
    mover, _, move = to_move(client, created)
    version = client.get(f"/v1/matches/{created['id']}").json()["version"]
    body = problem(client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(mover["token"]),
                               json={"move": move, "expected_version": version - 1}), 409, "version-conflict")
    assert body["current_version"] == version
    body = problem(client.post(f"/v1/matches/{created['id']}/moves",
                               headers={**bearer(mover["token"]), "If-Match": f'"{version - 1}"'},
                               json={"move": move}), 412, "version-conflict")
    assert body["current_version"] == version
    problem(client.post(f"/v1/matches/{created['id']}/moves",
                        headers={**bearer(mover["token"]), "If-Match": f'"{version}"'},
                        json={"move": move, "expected_version": version + 1}), 422, "expected-version-disagrees")
    problem(client.post(f"/v1/matches/{created['id']}/moves", headers={**bearer(mover["token"]), "If-Match": "abc"},
                        json={"move": move}), 400, "invalid-request")
    ok = client.post(f"/v1/matches/{created['id']}/moves",
                     headers={**bearer(mover["token"]), "If-Match": f'"{version}"'}, json={"move": move})
    assert ok.status_code == 201, ok.text
    assert client.get(f"/v1/matches/{created['id']}").headers["etag"] == f'"{ok.json()["version"]}"'


def test_tokens_are_required_and_never_act_for_another_match(client: TestClient, app_key: str) -> None:
    """Missing token 401; a token of another match 403; app keys likewise."""
    created = create(client, app_key, GAME, 2)
    elsewhere = create(client, app_key, GAME, 2)
    _, _, move = to_move(client, created)
    url = f"/v1/matches/{created['id']}"
    problem(client.post(f"{url}/moves", json={"move": move}), 401, "seat-token-required")
    problem(client.get(f"{url}/legal-moves"), 401, "seat-token-required")
    foreign = bearer(elsewhere["seats"][0]["token"])
    problem(client.post(f"{url}/moves", json={"move": move}, headers=foreign), 403, "wrong-token")
    problem(client.get(url, headers=foreign), 403, "wrong-token")
    problem(client.get(url, headers={"Authorization": "Basic abc"}), 401, "bad-authorization")
    body = {"game": GAME, "seats": [{"player": "a"}, {"player": "b"}]}
    problem(client.post("/v1/matches", json=body), 401, "app-key-required")
    problem(client.post("/v1/matches", json=body, headers=bearer("app_not-a-key")), 403, "unknown-app-key")
    problem(client.post("/v1/matches", json=body, headers=foreign), 403, "unknown-app-key")


def test_an_idempotency_key_makes_a_retry_safe(client: TestClient, app_key: str, store: EventStore) -> None:
    """The same key and move: the first answer again, nothing new written; another move: 422."""
    created = create(client, app_key, GAME, 2)
    mover, _, move = to_move(client, created)
    headers = {**bearer(mover["token"]), "Idempotency-Key": "retry-1"}
    first = client.post(f"/v1/matches/{created['id']}/moves", headers=headers, json={"move": move})
    again = client.post(f"/v1/matches/{created['id']}/moves", headers=headers, json={"move": move})
    assert first.status_code == again.status_code == 201
    assert again.json()["duplicate"] is True
    assert {k: v for k, v in again.json().items() if k != "duplicate"} == \
        {k: v for k, v in first.json().items() if k != "duplicate"}
    assert store.get_match(created["id"]).version == first.json()["version"]  # type: ignore[union-attr]
    other_move = {"type": "match.resign"}
    problem(client.post(f"/v1/matches/{created['id']}/moves", headers=headers, json={"move": other_move}),
            422, "idempotency-key-reused")


def test_resigning_ends_the_match_and_reveals_the_seed(client: TestClient, app_key: str) -> None:
    """`match.resign` is always allowed; the resigner loses and the seed is revealed; later moves are refused."""
    created = create(client, app_key, GAME, 2, seed="to-reveal")
    seat = created["seats"][1]
    response = client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(seat["token"]),
                           json={"move": {"type": "match.resign"}})
    assert response.status_code == 201, response.text
    final = client.get(f"/v1/matches/{created['id']}").json()
    assert final["status"] == "finished" and final["seed"] == "to-reveal"
    assert [r["winner"] for r in final["outcome"]["results"]] == [True, False]
    problem(client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(seat["token"]),
                        json={"move": {"type": "match.resign"}}), 422, "match-finished")


def test_listing_filters_and_pages(client: TestClient, app_key: str) -> None:
    """GET /v1/matches filters by game, player and status and pages with a cursor."""
    ids = {create(client, app_key, GAME, 2)["id"] for _ in range(5)}
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"game": GAME, "limit": 2, "player": "player-1", "status": "active"}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/v1/matches", params=params).json()
        seen += [m["id"] for m in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert set(seen) == ids and len(seen) == len(ids)
    assert client.get("/v1/matches", params={"status": "finished"}).json()["items"] == []
    assert client.get("/v1/matches", params={"player": "nobody"}).json()["items"] == []
    problem(client.get("/v1/matches", params={"limit": 0}), 400, "invalid-request")
