"""Open seats: a match waits (`open`, no set-up) until every open seat is joined with its code; the creator may call
it off; two claims of the last seat at once — exactly one wins, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from ledger.verify import verify_text
from projections.catalog import PROJECTIONS
from projections.log import fold_all
from service.matches.matches import MatchService
from service.matches.seating import SeatTaken, join
from service.reads.runner import log_entry
from tests.life.conftest import bearer


def open_match(life: dict[str, Any], game: str = "expect-delays", seats: list[Any] | None = None,
               **extra: Any) -> dict[str, Any]:
    """An expect-delays match of ada and an open seat, created by the owner app."""
    body = {"game": game, "seats": seats or [{"player": "ada"}, {"open": True}], **extra}
    created = life["client"].post("/v1/matches", headers=bearer(life["owner"]), json=body)
    assert created.status_code == 201, created.text
    return created.json()


def test_an_open_match_waits_without_set_up_and_shows_no_secret(life: dict[str, Any]) -> None:
    """Status `open`, nobody to move, no table; the open seat has a join code and no token; the log holds only
    `match.opened`, and neither the code nor any token hash is anywhere in what anyone reads."""
    client = life["client"]
    created = open_match(life)
    assert created["status"] == "open" and created["version"] == 1
    ada, seat1 = created["seats"]
    assert ada["token"] and ada["join_code"] is None and seat1["token"] is None and seat1["player"] is None
    code = seat1["join_code"]
    for headers in ({}, bearer(ada["token"]), bearer(life["owner"])):
        detail = client.get(f"/v1/matches/{created['id']}", headers=headers).json()
        assert (detail["status"], detail["to_move"], detail["view"]) == ("open", [], None)
        assert detail["seats"] == [{"seat": 0, "player": "ada"}, {"seat": 1, "player": None}]
        events = client.get(f"/v1/matches/{created['id']}/events", headers=headers)
        assert [i["event"]["type"] for i in events.json()["items"]] == ["match.opened"]
        for text in (client.get(f"/v1/matches/{created['id']}", headers=headers).text, events.text):
            assert code not in text and "join_hash" not in text and "token_hash" not in text
    listed = client.get("/v1/matches?status=open&player=ada").json()["items"]
    assert created["id"] in [m["id"] for m in listed]


def test_joining_takes_the_seat_once_and_the_last_join_starts_the_match(life: dict[str, Any]) -> None:
    """A wrong code changes nothing (403); the right one gives the seat's token once and starts the match (its
    set-up follows `match.seat-joined` and `match.started` in one append); the same code again is 409."""
    client = life["client"]
    created = open_match(life, seats=[{"open": True}, {"player": "ada"}])
    match_id, code = created["id"], created["seats"][0]["join_code"]
    other = open_match(life)
    wrong = client.post(f"/v1/matches/{match_id}/join", json={"code": other["seats"][1]["join_code"],
                                                                "player": "bob"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong-join-code"
    assert client.get(f"/v1/matches/{match_id}").json()["version"] == 1
    joined = client.post(f"/v1/matches/{match_id}/join", json={"code": code, "player": "bob"})
    assert joined.status_code == 201, joined.text
    body = joined.json()
    assert (body["seat"], body["player"], body["status"]) == (0, "bob", "active") and body["to_move"]
    mine = client.get(f"/v1/matches/{match_id}", headers=bearer(body["token"])).json()
    assert mine["you"] == 0 and mine["view"] is not None and mine["status"] == "active"
    types = [i["event"]["type"] for i in client.get(f"/v1/matches/{match_id}/events").json()["items"]]
    assert types[:3] == ["match.opened", "match.seat-joined", "match.started"] and len(types) > 3
    again = client.post(f"/v1/matches/{match_id}/join", json={"code": code, "player": "eve"})
    assert again.status_code == 409 and again.json()["code"] == "seat-taken"
    assert client.get(f"/v1/matches/{match_id}").json()["seats"][0]["player"] == "bob"
    assert client.post(f"/v1/matches/{match_id}/join", json={"code": code}).status_code == 400


def claim(service: MatchService, match_id: str, code: str, player: str, barrier: threading.Barrier,
          outcomes: list[str]) -> None:
    """One claim of a seat, started with the others at the barrier; its outcome is appended to `outcomes`."""
    barrier.wait()
    try:
        join(service, match_id, code, player)
        outcomes.append(f"won:{player}")
    except SeatTaken:
        outcomes.append("taken")


def test_two_claims_of_the_last_seat_at_once_exactly_one_wins(life: dict[str, Any]) -> None:
    """Two processes (two services, two caches, one store) claim the last open seat at the same moment, several
    times over: exactly one claim wins each time, the other is refused `seat-taken`, and the match starts once."""
    store = life["store"]
    services = [MatchService(store), MatchService(store)]
    for round_ in range(4):
        created = open_match(life, seats=[{"open": True}, {"open": True}, {"player": "ada"}],
                             game="touched-on")
        first, last = created["seats"][0]["join_code"], created["seats"][1]["join_code"]
        join(services[round_ % 2], created["id"], first, "bob")
        barrier = threading.Barrier(2)
        outcomes: list[str] = []
        threads = [threading.Thread(target=claim, args=(s, created["id"], last, p, barrier, outcomes))
                   for s, p in zip(services, ("cy", "di"), strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(o.split(":")[0] for o in outcomes) == ["taken", "won"], outcomes
        winner = next(o for o in outcomes if o.startswith("won")).split(":")[1]
        stored = store.read_match(created["id"])
        assert [e.type for e in stored].count("match.started") == 1
        assert [e.payload.get("player") for e in stored if e.type == "match.seat-joined"] == ["bob", winner]
        assert store.get_match(created["id"]).status == "active"


def test_the_creator_may_call_off_an_open_match_and_no_one_else(life: dict[str, Any]) -> None:
    """Only the creating app cancels, only before the start; the cancelled match is finished (`cancelled`), its
    code joins nothing any more, and its record verifies."""
    client = life["client"]
    created = open_match(life)
    match_id = created["id"]
    assert client.post(f"/v1/matches/{match_id}/cancel").status_code == 401
    other = client.post(f"/v1/matches/{match_id}/cancel", headers=bearer(life["other"]))
    assert other.status_code == 403 and other.json()["code"] == "not-your-match"
    seat = client.post(f"/v1/matches/{match_id}/cancel", headers=bearer(created["seats"][0]["token"]))
    assert seat.status_code == 403 and seat.json()["code"] == "unknown-app-key"
    assert client.get(f"/v1/matches/{match_id}").json()["status"] == "open"
    cancelled = client.post(f"/v1/matches/{match_id}/cancel", headers=bearer(life["owner"]))
    assert cancelled.status_code == 200, cancelled.text
    assert (cancelled.json()["status"], cancelled.json()["outcome"]["reason"]) == ("finished", "cancelled")
    late = client.post(f"/v1/matches/{match_id}/join", json={"code": created["seats"][1]["join_code"],
                                                            "player": "bob"})
    assert late.status_code == 409 and late.json()["code"] == "seat-taken"
    assert verify_text(client.get(f"/v1/matches/{match_id}/export").text).code == "verified"
    started = open_match(life, seats=[{"player": "a"}, {"player": "b"}])
    refused = client.post(f"/v1/matches/{started['id']}/cancel", headers=bearer(life["owner"]))
    assert refused.status_code == 409 and refused.json()["code"] == "match-started"
    private = open_match(life, visibility="private")
    hidden = client.post(f"/v1/matches/{private['id']}/cancel", headers=bearer(life["other"]))
    assert hidden.status_code == 404 and hidden.json()["code"] == "unknown-match"


def test_a_joined_match_verifies_while_open_and_after_it_is_played_out(life: dict[str, Any]) -> None:
    """The joins are recorded commands: the record verifies so far while open, and once played out the verifier
    re-decides every join (the last one's set-up from the seed) and move: `verified`."""
    client = life["client"]
    created = open_match(life, game="metro-x", seats=[{"open": True}, {"bot": "random"}, {"open": True}],
                         client_entropy="dice 4 4 2")
    assert verify_text(client.get(f"/v1/matches/{created['id']}/export").text).code == "verified-so-far"
    tokens = {}
    for seat, player in ((2, "bob"), (0, "ada")):
        joined = client.post(f"/v1/matches/{created['id']}/join",
                             json={"code": created["seats"][seat]["join_code"], "player": player}).json()
        tokens[seat] = joined["token"]
    rng = random.Random(3)
    for _ in range(2_000):
        detail = client.get(f"/v1/matches/{created['id']}").json()
        if detail["status"] == "finished":
            break
        seat = rng.choice(detail["to_move"])
        legal = client.get(f"/v1/matches/{created['id']}/legal-moves", headers=bearer(tokens[seat])).json()
        client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(tokens[seat]),
                    json={"move": rng.choice(legal["moves"])})
    assert detail["status"] == "finished"
    verdict = verify_text(client.get(f"/v1/matches/{created['id']}/export").text)
    assert (verdict.code, verdict.failed_version) == ("verified", None), verdict.message


@pytest.mark.parametrize("tamper", ["player", "seat"])
def test_a_record_with_a_forged_join_fails_verification(life: dict[str, Any], tamper: str) -> None:
    """A join's event is what the join command gives: changing who joined, or which seat, is caught."""
    client = life["client"]
    created = open_match(life, seats=[{"player": "ada"}, {"open": True}])
    client.post(f"/v1/matches/{created['id']}/join", json={"code": created["seats"][1]["join_code"], "player": "bob"})
    client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(created["seats"][0]["token"]),
                json={"move": {"type": "match.resign"}})
    text = client.get(f"/v1/matches/{created['id']}/export").text
    forged = text.replace('"player":"bob","seat":1', '"player":"eve","seat":1') if tamper == "player" else \
        text.replace('"player":"bob","seat":1', '"player":"bob","seat":0')
    assert forged != text
    assert not verify_text(forged).ok


def test_projections_skip_matches_until_they_start_and_never_count_a_called_off_one(life: dict[str, Any]) -> None:
    """Every projection folds the whole log (opened, joined, started, cancelled matches) without an error; a called
    off match is in no summary or rating."""
    client = life["client"]
    cancelled = open_match(life, seats=[{"player": "zed"}, {"open": True}])
    client.post(f"/v1/matches/{cancelled['id']}/cancel", headers=bearer(life["owner"]))
    entries = []
    after = 0
    while page := life["store"].read_all(after, 500):
        entries.extend(log_entry(e) for e in page)
        after = page[-1].position
    for projection in PROJECTIONS:
        docs = fold_all(projection, entries)
        assert docs.get("summary", cancelled["id"]) is None
        assert docs.get("rating", "expect-delays|zed") is None
        assert docs.get("stats", "expect-delays|zed") is None
