"""Fair deals (issue 27), over the API on SQLite and PostgreSQL: with option `entropy: "seats"` the server commits to
its secret part first (`server_seed_commitment`), each seat then adds its entropy once with its own token, and the
deal comes when the last one is in (or at `entropy_deadline`, the silent seats recorded absent); bots' entropy is
the server's, drawn at creation; open seats add theirs when they join; a match called off before its deal is an end
the feed tells; every record verifies, and its seed is recomputable from what it reveals."""

from __future__ import annotations

import hashlib
import threading
from datetime import timedelta
from typing import Any

import pytest

import store.postgres
import store.sqlite
from domain.rng import deal_seed
from ledger.verify import verify_text
from service.matches import seating
from service.matches.deadlines import at, entropy_deadline, sweep
from service.matches.matches import MatchService
from service.outbox.notifications import Follower
from tests.life.conftest import bearer

SEATS = {"entropy": "seats"}


def create(life: dict[str, Any], seats: list[dict[str, Any]], game: str = "metro-x", **options: Any) -> dict[str, Any]:
    """A match created by the owner app with `entropy: "seats"` (and these options)."""
    body = {"game": game, "seats": seats, "options": {**SEATS, **options}}
    answer = life["client"].post("/v1/matches", headers=bearer(life["owner"]), json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def people(n: int) -> list[dict[str, Any]]:
    return [{"player": f"p{i}"} for i in range(n)]


def events(life: dict[str, Any], match_id: str, token: str | None = None) -> list[dict[str, Any]]:
    """Every event of the match as the caller sees it."""
    answer = life["client"].get(f"/v1/matches/{match_id}/events?limit=500",
                                headers=bearer(token) if token else {})
    return [item["event"] for item in answer.json()["items"]]


def add(life: dict[str, Any], match_id: str, token: str | None, entropy: str = "dice 3 5 6") -> Any:
    return life["client"].post(f"/v1/matches/{match_id}/entropy", json={"entropy": entropy},
                               headers=bearer(token) if token else {})


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def finish(life: dict[str, Any], match_id: str, token: str) -> dict[str, Any]:
    """End the match (the seat resigns) and return its detail: the seed and the server's part are revealed."""
    resigned = life["client"].post(f"/v1/matches/{match_id}/moves", headers=bearer(token),
                                   json={"move": {"type": "match.resign"}})
    assert resigned.status_code == 201, resigned.text
    return dict(life["client"].get(f"/v1/matches/{match_id}").json())


def test_a_seats_match_publishes_its_commitment_first_and_deals_nothing_yet(life: dict[str, Any]) -> None:
    """Status `dealing`; the create answer, `match.started` (version 1) and the record's header publish the same
    `server_seed_commitment`, before any entropy; the bot's entropy follows, drawn by the server; no set-up, nobody
    to move, moves refused (422 `match-dealing`, nothing written); the server's part and the seed stay secret."""
    client = life["client"]
    created = create(life, [*people(2), {"bot": "random"}])
    match_id, commitment = created["id"], created["server_seed_commitment"]
    assert created["status"] == "dealing" and created["seed_source"] == "server+seats"
    assert len(commitment) == 64 and commitment == created["seed_commitment"]
    logged = events(life, match_id)
    assert [e["type"] for e in logged] == ["match.started", "match.entropy-added"]
    assert logged[0]["server_seed_commitment"] == commitment
    assert logged[0]["options"] == {"map": "metro-city", "entropy": "seats", "entropy_deadline": 300}
    assert (logged[1]["seat"], logged[1]["source"], len(logged[1]["entropy"])) == (2, "server", 64)
    detail = client.get(f"/v1/matches/{match_id}").json()
    assert (detail["status"], detail["to_move"], detail["view"]) == ("dealing", [], None)
    assert detail["entropy"] == [None, None, logged[1]["entropy"]]
    assert detail["seed"] is None and detail["server_seed"] is None
    move = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(created["seats"][0]["token"]),
                       json={"move": {"type": "match.resign"}})
    assert move.status_code == 422 and move.json()["code"] == "match-dealing"
    header = client.get(f"/v1/matches/{match_id}/export").text.splitlines()[0]
    assert f'"server_seed_commitment":"{commitment}"' in header and '"entropy":"seats"' in header
    assert '"seed":' not in header and '"server_seed":' not in header
    assert verify_text(client.get(f"/v1/matches/{match_id}/export").text).code == "verified-so-far"
    assert client.get(f"/v1/matches/{match_id}").json()["version"] == 2


def test_each_seat_adds_its_entropy_once_with_its_own_token_and_the_last_one_deals(life: dict[str, Any]) -> None:
    """No token: 401; the app key: 403 `seat-token-required`; another match's token: 403; empty or too long: 400;
    each refusal writes nothing. A seat's token adds that seat's entropy (public at once); again: 409
    `entropy-already-added`. The last seat's deals in the same request (`active`, someone to move; the deal follows
    `match.entropy-closed` with nobody absent). At the end the seed is sha256 of the layout in the README, over the
    revealed server part (which opens the commitment) and both seats' entropy, neither of which any answer held
    before the end, and the record verifies."""
    created = create(life, people(2))
    match_id = created["id"]
    first, second = (s["token"] for s in created["seats"])
    stranger = create(life, people(2))["seats"][0]["token"]
    for token, status, code in ((None, 401, "seat-token-required"), (life["owner"], 403, "seat-token-required"),
                                (stranger, 403, "wrong-token")):
        refused = add(life, match_id, token)
        assert (refused.status_code, refused.json()["code"]) == (status, code)
    for bad in ("", "x" * 257):
        assert add(life, match_id, first, bad).status_code == 400
    assert [e["type"] for e in events(life, match_id)] == ["match.started"]
    added = add(life, match_id, first, "first seat's words")
    assert added.status_code == 201, added.text
    assert added.json() == {"seat": 0, "version": 2, "status": "dealing", "to_move": [],
                            "entropy": ["first seat's words", None]}
    assert events(life, match_id)[-1] == {"type": "match.entropy-added", "seat": 0, "entropy": "first seat's words"}
    twice = add(life, match_id, first, "second thoughts")
    assert (twice.status_code, twice.json()["code"]) == (409, "entropy-already-added")
    dealt = add(life, match_id, second, "🎲 4")
    assert dealt.status_code == 201 and dealt.json()["status"] == "active" and dealt.json()["to_move"]
    logged = events(life, match_id)
    assert logged[3] == {"type": "match.entropy-closed", "absent": []} and logged[4]["type"] == "metro-x.set-up"
    late = add(life, match_id, second, "late")
    assert (late.status_code, late.json()["code"]) == (409, "entropy-closed")
    plain = life["client"].post("/v1/matches", headers=bearer(life["owner"]),
                                json={"game": "metro-x", "seats": people(1)}).json()
    assert plain["server_seed_commitment"] == plain["seed_commitment"]
    refused = add(life, plain["id"], plain["seats"][0]["token"])
    assert (refused.status_code, refused.json()["code"]) == (409, "no-seat-entropy")
    client = life["client"]
    seen = [client.get(f"/v1/matches/{match_id}{path}", headers=bearer(token) if token else {}).text
            for path in ("", "/events?limit=500", "/export") for token in (None, first, life["owner"])]
    detail = finish(life, match_id, first)
    assert sha(detail["server_seed"]) == created["server_seed_commitment"]
    assert detail["seed"] == deal_seed(detail["server_seed"], ["first seat's words", "🎲 4"])
    assert not [text for text in seen if detail["server_seed"] in text or detail["seed"] in text]  # secret till now
    verdict = verify_text(life["client"].get(f"/v1/matches/{match_id}/export").text)
    assert verdict.code == "verified" and {"seed", "entropy"} <= set(verdict.passed), verdict.message


def test_all_seats_sending_at_once_make_exactly_one_deal(life: dict[str, Any]) -> None:
    """Five seats send their entropy at the same moment: every one is recorded, the match is dealt exactly once
    (one `match.entropy-closed`, one set-up), and its record verifies."""
    service: MatchService = life["service"]
    created = create(life, people(5))
    match_id = created["id"]
    barrier = threading.Barrier(5)
    errors: list[BaseException] = []

    def send(seat: int) -> None:
        barrier.wait()
        try:
            seating.add_entropy(service, match_id, seat, f"seat {seat}")
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=send, args=(seat,)) for seat in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    types = [e["type"] for e in events(life, match_id)]
    assert types.count("match.entropy-added") == 5
    assert types.count("match.entropy-closed") == 1 and types.count("metro-x.set-up") == 1
    assert types.index("match.entropy-closed") == 6
    assert life["client"].get(f"/v1/matches/{match_id}").json()["status"] == "active"
    finish(life, match_id, created["seats"][0]["token"])
    assert verify_text(life["client"].get(f"/v1/matches/{match_id}/export").text).code == "verified"


def test_silent_seats_are_recorded_absent_when_the_entropy_deadline_runs_out(
        life: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock: before `entropy_deadline` the sweep writes nothing; at it, the match is dealt with the silent
    seat recorded absent (empty entropy in the seed); a second sweep writes nothing; the record verifies. A deal
    that closed the entropy early (the rules alone cannot tell) fails verification with `early-timeout`."""
    service: MatchService = life["service"]
    created = create(life, people(3), entropy_deadline=60)
    match_id = created["id"]
    assert add(life, match_id, created["seats"][1]["token"], "only me").status_code == 201
    due = entropy_deadline(service, service.load(match_id))
    assert due is not None
    assert due == at(life["client"].get(f"/v1/matches/{match_id}/events").json()["items"][0]["recorded_at"]) \
        + timedelta(seconds=60)
    assert sweep(service, lambda: due - timedelta(microseconds=1)) == 0
    assert service.load(match_id).state.dealing
    for module in (store.sqlite, store.postgres):  # the time the store records the deal at
        monkeypatch.setattr(module, "utc_now", lambda: due)
    assert sweep(service, lambda: due) >= 1
    monkeypatch.undo()
    assert sweep(service, lambda: due) == 0  # the second sweep finds nothing due
    logged = events(life, match_id)
    assert logged[2] == {"type": "match.entropy-closed", "absent": [0, 2]}
    detail = finish(life, match_id, created["seats"][1]["token"])
    assert detail["seed"] == deal_seed(detail["server_seed"], [None, "only me", None])
    verdict = verify_text(life["client"].get(f"/v1/matches/{match_id}/export").text)
    assert verdict.code == "verified" and "deadlines" in verdict.passed, verdict.message
    early = create(life, people(2), entropy_deadline=60)
    service.deal(service.load(early["id"]), closing=True)  # what a dishonest server might do
    finish(life, early["id"], early["seats"][0]["token"])
    verdict = verify_text(life["client"].get(f"/v1/matches/{early['id']}/export").text)
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "early-timeout", 2)


def test_open_seats_add_their_entropy_when_they_join_or_later(life: dict[str, Any]) -> None:
    """A match of two open seats and a bot: the bot's entropy is drawn at creation, after `match.opened` publishes
    the commitment; the first joiner sends entropy with its join (recorded while the match is still open), the
    second joins without and sends it with its new token: that deals. The record verifies."""
    client = life["client"]
    created = create(life, [{"open": True}, {"bot": "random"}, {"open": True}])
    match_id = created["id"]
    assert created["status"] == "open" and created["server_seed_commitment"]
    codes = [s["join_code"] for s in created["seats"]]
    opened = events(life, match_id)
    assert [e["type"] for e in opened] == ["match.opened", "match.entropy-added"]
    assert opened[0]["server_seed_commitment"] == created["server_seed_commitment"]
    ada = client.post(f"/v1/matches/{match_id}/join", json={"code": codes[0], "player": "ada", "entropy": "ada's"})
    assert ada.status_code == 201 and ada.json()["status"] == "open", ada.text
    bob = client.post(f"/v1/matches/{match_id}/join", json={"code": codes[2], "player": "bob"})
    assert bob.status_code == 201 and bob.json()["status"] == "dealing", bob.text
    assert [e["type"] for e in events(life, match_id)][2:] == [
        "match.seat-joined", "match.entropy-added", "match.seat-joined", "match.started"]
    dealt = add(life, match_id, bob.json()["token"], "bob's")
    assert dealt.status_code == 201 and dealt.json()["status"] == "active"
    detail = finish(life, match_id, ada.json()["token"])
    assert detail["seed"] == deal_seed(detail["server_seed"], ["ada's", opened[1]["entropy"], "bob's"])
    assert verify_text(client.get(f"/v1/matches/{match_id}/export").text).code == "verified"


def test_a_match_of_bots_is_dealt_from_the_servers_entropy_at_once(life: dict[str, Any]) -> None:
    """Every seat a bot: the server draws each one's entropy at creation (`source: server`), deals at once and the
    bots play on; the record verifies."""
    created = create(life, [{"bot": "random"}, {"bot": "random"}])
    logged = events(life, created["id"])
    assert [(e["type"], e.get("source")) for e in logged[:4]] == [
        ("match.started", None), ("match.entropy-added", "server"), ("match.entropy-added", "server"),
        ("match.entropy-closed", None)]
    verdict = verify_text(life["client"].get(f"/v1/matches/{created['id']}/export").text)
    assert verdict.code in ("verified", "verified-so-far"), verdict.message


def test_calling_off_a_match_before_its_deal_is_an_end_the_feed_tells(life: dict[str, Any]) -> None:
    """The creating app may call off a `dealing` match (a server that wants another deal can only do this, in the
    open): it ends `cancelled`, the feed tells `match.ended` with that reason, the record reveals the server's part
    (no seed: nothing was dealt) and verifies. Once dealt, calling off is refused (409 `match-started`)."""
    service: MatchService = life["service"]
    client = life["client"]
    follower = Follower(service.store)
    _, position = follower.read(0, limit=100_000)
    created = create(life, people(2))
    match_id = created["id"]
    assert add(life, match_id, created["seats"][0]["token"], "mine").status_code == 201
    cancelled = client.post(f"/v1/matches/{match_id}/cancel", headers=bearer(life["owner"]))
    assert cancelled.status_code == 200 and cancelled.json()["outcome"]["reason"] == "cancelled"
    told, _ = follower.read(position, limit=100_000)
    ended = [n for n in told if n.match_id == match_id and n.kind == "match.ended"]
    assert len(ended) == 1 and ended[0].outcome is not None and ended[0].outcome["reason"] == "cancelled"
    detail = client.get(f"/v1/matches/{match_id}").json()
    assert detail["seed"] is None and sha(detail["server_seed"]) == created["server_seed_commitment"]
    assert verify_text(client.get(f"/v1/matches/{match_id}/export").text).code == "verified"
    dealt = create(life, people(1))
    assert add(life, dealt["id"], dealt["seats"][0]["token"]).json()["status"] == "active"
    refused = client.post(f"/v1/matches/{dealt['id']}/cancel", headers=bearer(life["owner"]))
    assert (refused.status_code, refused.json()["code"]) == (409, "match-started")


def test_seats_entropy_takes_no_caller_seed_nor_client_entropy(life: dict[str, Any]) -> None:
    """`entropy: "seats"` with a caller's `seed` or `client_entropy` is refused (422 `bad-options`), as is an
    `entropy_deadline` without it; nothing is created."""
    client = life["client"]
    before = len(client.get("/v1/matches?mine=true&limit=200", headers=bearer(life["owner"])).json()["items"])
    for extra in ({"seed": "mine"}, {"client_entropy": "ours"}):
        body = {"game": "metro-x", "seats": people(2), "options": SEATS, **extra}
        refused = client.post("/v1/matches", headers=bearer(life["owner"]), json=body)
        assert (refused.status_code, refused.json()["code"]) == (422, "bad-options")
    body = {"game": "metro-x", "seats": people(2), "options": {"entropy_deadline": 30}}
    refused = client.post("/v1/matches", headers=bearer(life["owner"]), json=body)
    assert (refused.status_code, refused.json()["code"]) == (422, "bad-options")
    after = len(client.get("/v1/matches?mine=true&limit=200", headers=bearer(life["owner"])).json()["items"])
    assert after == before
