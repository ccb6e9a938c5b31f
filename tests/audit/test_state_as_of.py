"""GET /v1/matches/{id}/state?version=N: every field as of version N (status, seats, to move, deadlines, outcome),
not the match's fields today beside the table of then."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from api.app import create_app
from domain import match
from domain.catalog import by_slug, decode_events
from store.factory import open_store
from tests.api.conftest import bearer
from tests.audit.conftest import play_moves
from tests.ops.conftest import new_key


def test_an_early_version_of_a_finished_match_is_active_with_its_seat_to_move_and_no_outcome(tmp_path: Path) -> None:
    """Found: `status: finished` beside `to_move: [1]` and no outcome."""
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    game = by_slug("expect-delays")
    assert game is not None
    with TestClient(create_app(store)) as client:
        key = new_key(store, "as-of")
        created = client.post("/v1/matches", headers=bearer(key), json={
            "game": "expect-delays", "seats": [{"player": "ada"}, {"player": "bob"}],
            "options": {"move_deadline": 3600}, "seed": "state-as-of"}).json()
        match_id = created["id"]
        middle = play_moves(client.app.state.service, match_id, game, "state-as-of", 3)
        latest = play_moves(client.app.state.service, match_id, game, "state-as-of", 20_000)
        now = client.get(f"/v1/matches/{match_id}/state").json()
        then = client.get(f"/v1/matches/{match_id}/state", params={"version": middle}).json()
        events = client.get(f"/v1/matches/{match_id}/events", params={"limit": 500}).json()["items"]
        since = match.fold(game, decode_events(game, [e.payload for e in store.read_match(match_id)][:middle])).since
    store.close()
    assert (now["status"], now["to_move"], now["version"]) == ("finished", [], latest) and now["outcome"]
    assert (then["status"], then["outcome"], then["latest_version"]) == ("active", None, latest)
    (seat,) = then["to_move"]
    # Its deadline then: the recorded time of the event that put it to move, plus the hour.
    recorded = datetime.fromisoformat(next(e["recorded_at"] for e in events if e["version"] == since[seat]))
    deadlines = {s["seat"]: s.get("deadline_at") for s in then["seats"]}
    assert deadlines[1 - seat] is None
    assert datetime.fromisoformat(deadlines[seat]) == recorded + timedelta(seconds=3600)
    assert all("deadline_at" not in s for s in now["seats"])


def test_an_open_seat_joined_later_is_open_at_the_versions_before(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    with TestClient(create_app(store)) as client:
        key = new_key(store, "as-of")
        created: dict[str, Any] = client.post("/v1/matches", headers=bearer(key), json={
            "game": "expect-delays", "seats": [{"player": "ada"}, {"open": True}]}).json()
        match_id = created["id"]
        code = created["seats"][1]["join_code"]
        assert client.post(f"/v1/matches/{match_id}/join", json={"code": code, "player": "bob"}).status_code == 201
        first = client.get(f"/v1/matches/{match_id}/state", params={"version": 1}).json()
        now = client.get(f"/v1/matches/{match_id}/state").json()
    store.close()
    assert (first["status"], [s["player"] for s in first["seats"]], first["to_move"]) == ("open", ["ada", None], [])
    assert (now["status"], [s["player"] for s in now["seats"]]) == ("active", ["ada", "bob"])
