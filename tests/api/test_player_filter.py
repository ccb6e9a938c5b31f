"""`GET /v1/matches?player=` finds a player by the handle's identity (domain/handles.py), as statistics, ratings and
player pages do: "Ada", "ada" and "ＡＤＡ" are one player, on both stores, also for a player who joined a seat."""

from __future__ import annotations

from litestar.testing import TestClient

from tests.api.conftest import bearer


def listed(client: TestClient, player: str) -> list[str]:
    """The ids `?player=` lists."""
    return [m["id"] for m in client.get("/v1/matches", params={"player": player}).json()["items"]]


def test_the_player_filter_ignores_case_and_width(client: TestClient, app_key: str) -> None:
    body = {"game": "expect-delays", "seats": [{"player": "Ada"}, {"open": True}]}
    created = client.post("/v1/matches", json=body, headers=bearer(app_key)).json()
    other = client.post("/v1/matches", json={"game": "expect-delays", "seats": [{"player": "Adam"}, {"player": "x"}]},
                        headers=bearer(app_key)).json()
    code = created["seats"][1]["join_code"]
    assert client.post(f"/v1/matches/{created['id']}/join", json={"code": code, "player": "Hedy"}).status_code == 201
    for spelling in ("Ada", "ada", "ADA", "ＡＤＡ", "hedy", "HEDY"):
        assert listed(client, spelling) == [created["id"]], spelling
    assert listed(client, "adam") == [other["id"]] and listed(client, "ad") == []
