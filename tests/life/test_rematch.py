"""Rematch: the same game, players (seats rotated) and options, linked from both matches, once."""

from __future__ import annotations

import threading
from typing import Any

from ledger.verify import verify_text
from tests.life.conftest import bearer


def finished(life: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A three-seat Touched On match with options, ended by seat 1's resignation."""
    body = {"game": "touched-on", "seats": [{"player": "ada"}, {"player": "bob"}, {"bot": "random"}],
            "options": {"max_journeys": 3}, **extra}
    created = life["client"].post("/v1/matches", headers=bearer(life["owner"]), json=body).json()
    resigned = life["client"].post(f"/v1/matches/{created['id']}/moves", headers=bearer(created["seats"][1]["token"]),
                                   json={"move": {"type": "match.resign"}})
    assert resigned.status_code == 201 and resigned.json()["status"] == "finished", resigned.text
    return created


def test_a_rematch_rotates_the_seats_keeps_the_options_and_links_both_ways(life: dict[str, Any]) -> None:
    """The new match seats bob, the bot, ada (with new tokens), keeps game, options and visibility, names the old
    match in its `match.started`, and the old match names it; its record verifies with the link in its header."""
    client = life["client"]
    old = finished(life, visibility="unlisted")
    answer = client.post(f"/v1/matches/{old['id']}/rematch", headers=bearer(life["owner"]))
    assert answer.status_code == 201, answer.text
    new = answer.json()
    assert answer.headers["location"] == f"/v1/matches/{new['id']}"
    assert [s["player"] for s in new["seats"]] == ["bob", "bot:random", "ada"]
    assert new["seats"][1]["token"] is None and new["seats"][0]["token"] not in {s["token"] for s in old["seats"]}
    assert (new["game"], new["visibility"], new["rematch_of"]) == ("touched-on", "unlisted", old["id"])
    detail = client.get(f"/v1/matches/{new['id']}").json()
    assert detail["options"] == client.get(f"/v1/matches/{old['id']}").json()["options"]
    assert detail["options"]["max_journeys"] == 3 and detail["rematch_of"] == old["id"]
    assert client.get(f"/v1/matches/{old['id']}").json()["rematch"] == new["id"]
    first = client.get(f"/v1/matches/{new['id']}/events?limit=1").json()["items"][0]["event"]
    assert first["type"] == "match.started" and first["rematch_of"] == old["id"]
    mine = client.get(f"/v1/matches/{new['id']}", headers=bearer(new["seats"][0]["token"])).json()
    assert mine["you"] == 0
    client.post(f"/v1/matches/{new['id']}/moves", headers=bearer(new["seats"][0]["token"]),
                json={"move": {"type": "match.resign"}})
    assert verify_text(client.get(f"/v1/matches/{new['id']}/export").text).code == "verified"


def test_a_match_is_replayed_once_even_when_asked_twice_at_once(life: dict[str, Any]) -> None:
    """Two rematch requests at the same moment: one creates the rematch, the other is 409 `rematch-exists` (and
    creates nothing); a later one too."""
    client = life["client"]
    old = finished(life)
    mine_before = len(client.get("/v1/matches?mine=true&limit=200", headers=bearer(life["owner"])).json()["items"])
    barrier = threading.Barrier(2)
    answers: list[Any] = []

    def ask() -> None:
        barrier.wait()
        answers.append(client.post(f"/v1/matches/{old['id']}/rematch", headers=bearer(life["owner"])))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers) == [201, 409]
    assert next(a for a in answers if a.status_code == 409).json()["code"] == "rematch-exists"
    mine_after = len(client.get("/v1/matches?mine=true&limit=200", headers=bearer(life["owner"])).json()["items"])
    assert mine_after == mine_before + 1
    again = client.post(f"/v1/matches/{old['id']}/rematch", headers=bearer(life["owner"]))
    assert again.status_code == 409 and again.json()["code"] == "rematch-exists"


def test_only_the_creating_app_replays_only_a_finished_match(life: dict[str, Any]) -> None:
    """Another app: 403 (404 for a private match); a seat token or no key: 401/403; a match still being played or
    called off: 409 `match-not-finished`; nothing is created."""
    client = life["client"]
    old = finished(life)
    for headers, status, code in (({}, 401, "app-key-required"), (bearer(life["other"]), 403, "not-your-match"),
                                  (bearer(old["seats"][0]["token"]), 403, "unknown-app-key")):
        answer = client.post(f"/v1/matches/{old['id']}/rematch", headers=headers)
        assert (answer.status_code, answer.json()["code"]) == (status, code)
    private = finished(life, visibility="private")
    hidden = client.post(f"/v1/matches/{private['id']}/rematch", headers=bearer(life["other"]))
    assert (hidden.status_code, hidden.json()["code"]) == (404, "unknown-match")
    playing = client.post("/v1/matches", headers=bearer(life["owner"]),
                          json={"game": "touched-on", "seats": [{"player": "a"}, {"player": "b"}]}).json()
    called_off = client.post("/v1/matches", headers=bearer(life["owner"]),
                             json={"game": "touched-on", "seats": [{"player": "a"}, {"open": True}]}).json()
    client.post(f"/v1/matches/{called_off['id']}/cancel", headers=bearer(life["owner"]))
    for match_id in (playing["id"], called_off["id"]):
        answer = client.post(f"/v1/matches/{match_id}/rematch", headers=bearer(life["owner"]))
        assert (answer.status_code, answer.json()["code"]) == (409, "match-not-finished")
        assert client.get(f"/v1/matches/{match_id}").json()["rematch"] is None
    assert client.get(f"/v1/matches/{old['id']}").json()["rematch"] is None
