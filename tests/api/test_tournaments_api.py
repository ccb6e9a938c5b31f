"""Tournaments over HTTP (issue 30): bot tournaments of every format for every game (each on one store, the stores
alternating), played to the end and verified; people's tournaments played with the seat tokens the owning app is told
of; who may see, start, join and withdraw; bad input refused with nothing written; tampered records failing
verification."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.ratelimit import Limit, Limits, RateLimiter
from ledger.chain import GENESIS, canonical_event_hash
from service.outbox.notifications import Follower
from service.reads.runner import catch_up
from store.base import EventStore
from tests.api.conftest import bearer
from tests.api.http_play import play_to_end

GAMES = ("expect-delays", "metro-x", "terminus", "touched-on", "mass-transit")
FORMATS: dict[str, dict[str, Any]] = {"round-robin": {}, "swiss": {"rounds": 3}, "knockout": {}}
SHORT = {"expect-delays": {"max_turns": 8}}  # people's matches in these tests: short ones


def bots(count: int) -> list[dict[str, str]]:
    """`count` random bots, each with its own name."""
    return [{"bot": "random", "name": f"r{i}"} for i in range(count)]


def create(client: TestClient, key: str, **body: Any) -> dict[str, Any]:
    """POST /v1/tournaments, asserting 201."""
    answer = client.post("/v1/tournaments", json=body, headers=bearer(key))
    assert answer.status_code == 201, answer.text
    assert answer.headers["location"] == f"/v1/tournaments/{answer.json()['id']}"
    return answer.json()  # type: ignore[no-any-return]


def played_out(client: TestClient, key: str, tournament_id: str) -> dict[str, Any]:
    """Start a tournament of bots and follow it to its end."""
    started = client.post(f"/v1/tournaments/{tournament_id}/start", headers=bearer(key))
    assert started.status_code == 200, started.text
    return followed_to_end(client, key, tournament_id)


def followed_to_end(client: TestClient, key: str, tournament_id: str) -> dict[str, Any]:
    """The tournament once it has finished, read (GET) until then: a start plays bots for its budget, and the
    process's background driver plays on."""
    deadline = time.monotonic() + 120
    while (body := client.get(f"/v1/tournaments/{tournament_id}", headers=bearer(key)).json())["status"] != "finished":
        assert time.monotonic() < deadline, body
        time.sleep(0.05)
    return body  # type: ignore[no-any-return]


def verdict(client: TestClient, tournament_id: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """The verification of the tournament's record as exported now."""
    record = client.get(f"/v1/tournaments/{tournament_id}/record", headers=headers or {})
    assert record.status_code == 200, record.text
    answer = client.post("/v1/tournaments/verifications", json={"record": record.text})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


# Each game in each format once, on one store: the pairing, standings and record are the same code over either store
# (tournament storage has its contract tests on both), and the stores alternate so that every game and every format
# still runs on each of them: 15 tournaments, not 30.
STORE_GAME_FORMAT = [("sqlite", "postgres")[(g + f) % 2] + "|" + game + "|" + format
                     for g, game in enumerate(GAMES) for f, format in enumerate(FORMATS)]


@pytest.mark.parametrize(("store", "game", "format"), [tuple(case.split("|")) for case in STORE_GAME_FORMAT],
                         indirect=["store"])
def test_a_tournament_of_bots_plays_itself_to_the_end_and_verifies(client: TestClient, app_key: str, game: str,
                                                                   format: str) -> None:
    """Five bots (an odd field: byes), every format, every game: started, it runs to its final standings; every
    match it opened has finished; the seed is revealed and opens its commitment; the record verifies."""
    created = create(client, app_key, game=game, format=format, players=bots(5), **FORMATS[format])
    assert created["status"] == "open" and created["join_codes"] == [] and created["seed"] is None
    body = played_out(client, app_key, created["id"])
    assert [s["place"] for s in body["standings"]] == [1, 2, 3, 4, 5]
    assert sorted(s["entrant"] for s in body["standings"]) == [0, 1, 2, 3, 4]
    assert set(body["standings"][0]["tiebreaks"]) == set(body["tiebreaks"])
    assert hashlib.sha256(body["seed"].encode()).hexdigest() == body["seed_commitment"]
    for number, paired in enumerate(body["rounds"], start=1):
        assert paired["round"] == number and paired["standings"] is not None
        seated = [e for table in paired["tables"] for e in table["players"]] + paired["byes"]
        assert len(seated) == len(set(seated))
        for table in paired["tables"]:
            assert table["done"] and table["matches"]
            for match_id in table["matches"]:
                assert client.get(f"/v1/matches/{match_id}").json()["status"] == "finished"
    if format == "swiss":
        assert len(body["rounds"]) == 3
    if format == "round-robin":  # every pair met once (two-seat tables)
        met = {frozenset(t["players"]) for r in body["rounds"] for t in r["tables"]}
        assert len(met) == 10
    checked = verdict(client, created["id"])
    assert checked["code"] == "verified", checked


# Once, on PostgreSQL: the point is a request racing the background driver over one tournament, where concurrent
# transactions can interleave; the driver is the same code over SQLite, whose single writer cannot interleave them.
@pytest.mark.parametrize("store", ["postgres"], indirect=True)
def test_the_start_of_a_large_tournament_of_bots_answers_at_its_budget_and_the_rest_plays_in_the_background(
        store: EventStore, app_key: str) -> None:
    """No request waits on a whole tournament of bots: with a budget of 0 the start answers `running` with round 1
    paired; a second start meanwhile is refused (nothing written twice); GET follows it to its end, which verifies."""
    with TestClient(create_app(store, tournament_budget_s=0.0)) as client:
        created = create(client, app_key, game="touched-on", format="round-robin", players=bots(8))
        started = client.post(f"/v1/tournaments/{created['id']}/start", headers=bearer(app_key))
        assert started.status_code == 200, started.text
        assert started.json()["status"] == "running" and len(started.json()["rounds"]) < 7
        again = client.post(f"/v1/tournaments/{created['id']}/start", headers=bearer(app_key))
        assert again.status_code == 409 and again.json()["code"] == "already-started"
        body = followed_to_end(client, app_key, created["id"])
        assert len(body["rounds"]) == 7 and all(t["done"] for r in body["rounds"] for t in r["tables"])
        assert verdict(client, created["id"])["code"] == "verified"


def test_the_organisers_entropy_at_the_start_is_recorded_and_the_record_verifies(client: TestClient,
                                                                                 app_key: str) -> None:
    """POST …/start {"entropy": …}: shown in the tournament, recorded in `tournament.started`, mixed into the seed
    played; the record verifies. Bad bodies are refused and start nothing."""
    created = create(client, app_key, game="metro-x", format="swiss", rounds=2, players=bots(4))
    path = f"/v1/tournaments/{created['id']}"
    for body, status in (({"entropy": ""}, 400), ({"entropy": "x" * 257}, 400), ({"entropy": 7}, 400),
                         ({"nope": 1}, 400), ([], 400)):
        refused = client.post(f"{path}/start", json=body, headers=bearer(app_key))
        assert refused.status_code == status and refused.json()["code"] == "invalid-request", refused.text
    as_text = client.post(f"{path}/start", content=b'{"entropy": "dice"}',
                          headers={**bearer(app_key), "Content-Type": "text/plain"})
    assert as_text.status_code == 415 and as_text.json()["code"] == "unsupported-media-type"
    assert client.get(path).json()["status"] == "open" and client.get(path).json()["version"] == 1
    started = client.post(f"{path}/start", json={"entropy": "organiser-dice"}, headers=bearer(app_key))
    assert started.status_code == 200, started.text
    body = followed_to_end(client, app_key, created["id"])
    assert body["entropy"] == "organiser-dice"
    record = client.get(f"{path}/record").json()
    started_event = next(line["event"] for line in record["events"] if line["event"]["type"] == "tournament.started")
    assert started_event["entropy"] == "organiser-dice"
    assert verdict(client, created["id"])["code"] == "verified"
    again = client.post(f"{path}/start", json={"entropy": "other"}, headers=bearer(app_key))
    assert again.status_code == 409 and again.json()["code"] == "tournament-finished"


def test_a_match_tells_the_tournament_round_and_table_it_was_played_at(client: TestClient, app_key: str) -> None:
    """GET /v1/matches/{id}/tournament: the way back from a match; null for a match of its own; bad ids refused."""
    created = create(client, app_key, game="metro-x", format="swiss", rounds=2, players=bots(4))
    body = played_out(client, app_key, created["id"])
    for paired in body["rounds"]:
        for table in paired["tables"]:
            (match_id,) = table["matches"]
            answer = client.get(f"/v1/matches/{match_id}/tournament")
            assert answer.status_code == 200, answer.text
            assert answer.json() == {"tournament": {"tournament_id": created["id"], "round": paired["round"],
                                                    "table": table["table"]}}  # nothing else: no owner, no secret
    alone = client.post("/v1/matches", headers=bearer(app_key),
                        json={"game": "metro-x", "seats": [{"player": "a"}, {"player": "b"}]}).json()
    assert client.get(f"/v1/matches/{alone['id']}/tournament").json() == {"tournament": None}
    unknown = client.get("/v1/matches/no-such-match/tournament")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown-match"
    assert client.get(f"/v1/matches/{'x' * 65}/tournament").status_code == 400


def test_a_private_tournaments_match_tells_its_tournament_only_to_those_who_may_read_the_match(
        client: TestClient, app_key: str, other_key: str) -> None:
    created = create(client, app_key, game="metro-x", format="knockout", players=bots(2), visibility="private")
    body = played_out(client, app_key, created["id"])
    match_id = body["rounds"][0]["tables"][0]["matches"][0]
    for headers in ({}, bearer(other_key)):
        answer = client.get(f"/v1/matches/{match_id}/tournament", headers=headers)
        assert answer.status_code == 404 and answer.json()["code"] == "unknown-match", answer.text
        assert created["id"] not in answer.text
    for headers in ({}, bearer(other_key), bearer("app_not-a-key")):  # as the match itself answers them
        told = client.get(f"/v1/matches/{match_id}/tournament", headers=headers)
        assert (told.status_code, told.json()["code"]) == (client.get(f"/v1/matches/{match_id}", headers=headers)
                                                           .status_code, told.json()["code"])
    mine = client.get(f"/v1/matches/{match_id}/tournament", headers=bearer(app_key))
    assert mine.json()["tournament"]["tournament_id"] == created["id"]


def test_reading_matches_tournaments_while_the_background_opens_them_never_fails(store: EventStore,
                                                                                 app_key: str) -> None:
    """The link is written before its match: read meanwhile, a match is either not there yet (404) or placed."""
    unlimited = RateLimiter(Limits(address=Limit(1e6, 1_000_000)))  # four readers as fast as they can, one address
    with TestClient(create_app(store, tournament_budget_s=0.0, limiter=unlimited)) as client:
        created = create(client, app_key, game="touched-on", format="round-robin", players=bots(6))
        client.post(f"/v1/tournaments/{created['id']}/start", headers=bearer(app_key))
        answers: list[int] = []

        def read_all() -> None:
            deadline = time.monotonic() + 120
            while (body := client.get(f"/v1/tournaments/{created['id']}").json()).get("status") != "finished":
                assert time.monotonic() < deadline and "rounds" in body, body
                for paired in body["rounds"]:
                    for table in paired["tables"]:
                        for match_id in table["matches"]:
                            answer = client.get(f"/v1/matches/{match_id}/tournament")
                            answers.append(answer.status_code)
                            if answer.status_code == 200:
                                assert answer.json()["tournament"]["round"] == paired["round"]

        with ThreadPoolExecutor(4) as pool:
            for future in [pool.submit(read_all) for _ in range(4)]:
                future.result()
        followed_to_end(client, app_key, created["id"])
        assert answers and set(answers) <= {200, 404}


@pytest.mark.parametrize("format", ["knockout", "swiss"])
def test_tables_of_three_advance_their_top_and_pair_by_standing(client: TestClient, app_key: str,
                                                                format: str) -> None:
    """Terminus at three seats, seven bots: knockout tables send their top two on; Swiss groups by standing."""
    created = create(client, app_key, game="terminus", format=format, seats=3, players=bots(7), **FORMATS[format])
    body = played_out(client, app_key, created["id"])
    assert all(len(t["players"]) in (2, 3) for r in body["rounds"] for t in r["tables"])
    if format == "knockout":
        assert len(body["rounds"][-1]["tables"]) == 1  # the final is one table
    assert verdict(client, created["id"])["code"] == "verified"


def matches_ready(client: TestClient, tournament_id: str) -> list[str]:
    """The ids of the tournament's matches being played now."""
    body = client.get(f"/v1/tournaments/{tournament_id}").json()
    return [m for r in body["rounds"] for t in r["tables"] if not t["done"] for m in t["matches"]]


def tokens_told(client: TestClient, app: str, match_id: str) -> dict[str, Any]:
    """What the owning app's feed says of a tournament match: its `tournament.match-ready` notification."""
    service = client.app.state.service
    notes, _ = Follower(service.store).read(0, owner=app, limit=10_000)
    ready = [n for n in notes if n.kind == "tournament.match-ready" and n.match_id == match_id]
    assert len(ready) == 1
    return {"id": match_id, "seats": [{"seat": s.seat, "token": s.token} for s in ready[0].tournament.seats]}


def test_a_fair_deal_tournament_deals_each_match_once_its_seats_have_added_entropy(client: TestClient,
                                                                                  app_key: str) -> None:
    """Option `entropy: "seats"`: the match a round opens waits `dealing` with the server's part committed to; each
    seat adds entropy with the token its app was told; then it is dealt, played, and the tournament verifies."""
    created = create(client, app_key, game="expect-delays", format="round-robin", players=["ann", "bob"],
                     options={**SHORT["expect-delays"], "entropy": "seats"})
    assert created["options"]["entropy"] == "seats"
    assert client.post(f"/v1/tournaments/{created['id']}/start", headers=bearer(app_key)).status_code == 200
    (match_id,) = matches_ready(client, created["id"])
    told = tokens_told(client, "tests", match_id)
    waiting = client.get(f"/v1/matches/{match_id}").json()
    assert waiting["status"] == "dealing" and waiting["seed_source"] == "server+seats"
    assert len(waiting["server_seed_commitment"]) == 64
    for seat in told["seats"]:
        added = client.post(f"/v1/matches/{match_id}/entropy", json={"entropy": f"{seat['seat']}-dice"},
                            headers=bearer(seat["token"]))
        assert added.status_code == 201, added.text
    assert client.get(f"/v1/matches/{match_id}").json()["status"] == "active"
    play_to_end(client, told, random.Random(5))
    followed_to_end(client, app_key, created["id"])
    assert verdict(client, created["id"])["code"] == "verified"


def test_people_play_with_the_tokens_their_app_is_told_of_and_an_open_place_is_joined(
        client: TestClient, app_key: str, other_key: str, store: EventStore) -> None:
    """A round robin of two players, a bot and an open place: the place is joined with its code (once); the owning
    app's feed tells each match's seat tokens (another app's feed never); playing them finishes the tournament."""
    created = create(client, app_key, game="expect-delays", format="round-robin", options=SHORT["expect-delays"],
                     players=["ann", "bob", {"bot": "random", "name": "r1"}, {"open": True}])
    (place,) = created["join_codes"]
    assert place["entrant"] == 3
    early = client.post(f"/v1/tournaments/{created['id']}/start", headers=bearer(app_key))
    assert early.status_code == 409 and early.json()["code"] == "places-open"
    wrong = client.post(f"/v1/tournaments/{created['id']}/join", json={"code": "join_nope", "player": "cy"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong-place-code"
    joined = client.post(f"/v1/tournaments/{created['id']}/join", json={"code": place["code"], "player": "cy"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["players"][3]["handle"] == "cy"
    again = client.post(f"/v1/tournaments/{created['id']}/join", json={"code": place["code"], "player": "dee"})
    assert again.status_code == 409 and again.json()["code"] == "place-taken"
    assert client.post(f"/v1/tournaments/{created['id']}/start", headers=bearer(app_key)).status_code == 200
    rng = random.Random(7)
    service = client.app.state.service
    for _ in range(20):
        ready = matches_ready(client, created["id"])
        if not ready:
            break
        for match_id in ready:
            told = tokens_told(client, "tests", match_id)
            assert Follower(service.store).read(0, owner="other-app")[0] == []  # another app hears nothing
            people = [s for s in told["seats"] if s["token"]]
            assert people, "a match of a bot alone is played by the service"
            play_to_end(client, {"id": match_id, "seats": [{**s, "token": s["token"] or people[0]["token"]}
                                                           for s in told["seats"]]}, rng)
    body = client.get(f"/v1/tournaments/{created['id']}").json()
    assert body["status"] == "finished", body
    assert len(body["rounds"]) == 3 and all(len(r["tables"]) == 2 for r in body["rounds"])
    assert verdict(client, created["id"])["code"] == "verified"
    catch_up(store)  # tournament matches are rated and counted like any other
    board = {e["player"] for e in client.get("/v1/leaderboards/expect-delays").json()["items"]}
    assert {"ann", "bob", "cy"} <= board


def test_a_private_tournament_exists_only_for_its_app(client: TestClient, app_key: str, other_key: str) -> None:
    """Another app, or anyone, gets 404 on every read of a private tournament and of its matches, and never sees it
    listed; its own app reads, lists (`mine`) and exports it."""
    created = create(client, app_key, game="metro-x", format="knockout", players=bots(4), visibility="private")
    mine = played_out(client, app_key, created["id"])
    match_id = mine["rounds"][0]["tables"][0]["matches"][0]
    for headers in ({}, bearer(other_key), bearer("app_not-a-key")):
        for path in ("", "/record"):
            answer = client.get(f"/v1/tournaments/{created['id']}{path}", headers=headers)
            assert answer.status_code in (403, 404), answer.text
            assert answer.json()["code"] in ("unknown-tournament", "unknown-app-key")
        assert client.get(f"/v1/matches/{match_id}", headers=headers).status_code in (403, 404)
        listed = client.get("/v1/tournaments", headers=headers).json()
        assert listed.get("items", []) == []
    assert client.post(f"/v1/tournaments/{created['id']}/start", headers=bearer(other_key)).json()["code"] == \
        "unknown-tournament"
    assert [t["id"] for t in client.get("/v1/tournaments?mine=true", headers=bearer(app_key)).json()["items"]] == \
        [created["id"]]
    assert verdict(client, created["id"], bearer(app_key))["code"] == "verified"


def test_only_the_owning_app_starts_or_withdraws(client: TestClient, app_key: str, other_key: str) -> None:
    """Another app may read a public tournament, not start it nor withdraw its entrants; no key is 401."""
    created = create(client, app_key, game="expect-delays", format="swiss", rounds=2, players=["ann", "bob", "cy"])
    path = f"/v1/tournaments/{created['id']}"
    assert client.post(f"{path}/start").status_code == 401
    assert client.post(f"{path}/start", headers=bearer(other_key)).json()["code"] == "not-your-tournament"
    withdrawn = client.post(f"{path}/withdraw", json={"entrant": 0}, headers=bearer(other_key))
    assert withdrawn.status_code == 403 and withdrawn.json()["code"] == "not-your-tournament"
    assert client.get(path, headers=bearer(other_key)).json()["status"] == "open"
    assert client.get(path).json()["version"] == 1  # nothing was written


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"game": "no-such-game", "format": "swiss", "rounds": 2, "players": ["a", "b"]}, 404, "unknown-game"),
    ({"game": "expect-delays", "format": "ladder", "players": ["a", "b"]}, 400, "invalid-request"),
    ({"game": "expect-delays", "format": "swiss", "players": ["a", "b"]}, 422, "bad-rounds"),
    ({"game": "expect-delays", "format": "knockout", "rounds": 2, "players": ["a", "b"]}, 422, "bad-rounds"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a"]}, 400, "invalid-request"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", "a"]}, 422, "duplicate-entrant"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", {"bot": "nope", "name": "x"}]}, 422,
     "unknown-bot"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", {"bot": "random"}]}, 422, "bad-entrant"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", {"open": True, "bot": "random"}]}, 422,
     "bad-entrant"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", {"team": "t", "members": ["x", "y"]}]},
     422, "bad-entrant"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", "b"], "seats": 9}, 422, "bad-seat-count"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", "b c"]}, 422, "bad-entrant"),
    ({"game": "expect-delays", "format": "swiss", "rounds": 10_000, "players": ["a", "b"]}, 422, "bad-rounds"),
    ({"game": "expect-delays", "format": "swiss", "rounds": 2, "players": ["a", "b"], "move_deadline": 0}, 422,
     "bad-option"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", "b"], "options": {"nope": 1}}, 422,
     "bad-options"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", "b"], "options": {"abandon_after": 60}},
     422, "bad-options"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", "b"], "options": {"entropy": "all"}},
     422, "bad-options"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", "b"], "options": {"entropy_deadline": 60}},
     422, "bad-options"),
    ({"game": "expect-delays", "format": "round-robin", "players": ["a", "b"], "rules_version": "99"}, 422,
     "unknown-edition"),
    ({"game": "expect-delays", "format": "knockout", "players": ["a", "b"], "advance": 2}, 422, "bad-advance"),
])
@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # refused before the store is asked: one store proves it
def test_bad_input_is_refused_and_nothing_is_written(client: TestClient, app_key: str, body: dict[str, Any],
                                                     status: int, code: str) -> None:
    """Each malformed or impossible tournament gets its problem code, and no tournament exists after it."""
    answer = client.post("/v1/tournaments", json=body, headers=bearer(app_key))
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == code
    assert client.get("/v1/tournaments?mine=true", headers=bearer(app_key)).json()["items"] == []


def test_a_withdrawal_forfeits_the_pending_match_and_leaves_the_pairings(client: TestClient, app_key: str) -> None:
    """Withdrawing a player mid-match forfeits that match (its seat resigns; the opponent scores the win) and the
    player is never paired again; the tournament still ends and verifies."""
    created = create(client, app_key, game="expect-delays", format="round-robin", options=SHORT["expect-delays"],
                     players=["ann", "bob", "cy", "dee"])
    path = f"/v1/tournaments/{created['id']}"
    client.post(f"{path}/start", headers=bearer(app_key))
    first = client.get(path).json()["rounds"][0]["tables"]
    table = next(t for t in first if 0 in t["players"])
    answer = client.post(f"{path}/withdraw", json={"entrant": 0}, headers=bearer(app_key))
    assert answer.status_code == 200, answer.text
    again = client.post(f"{path}/withdraw", json={"entrant": 0}, headers=bearer(app_key))
    assert again.status_code == 409 and again.json()["code"] == "already-withdrawn"
    body = answer.json()
    results = next(t for t in body["rounds"][0]["tables"] if t["table"] == table["table"])["results"]
    assert {r["entrant"]: r.get("forfeit") for r in results}[0] == "withdrawal"
    match = client.get(f"/v1/matches/{table['matches'][0]}").json()
    assert match["status"] == "finished"
    rng = random.Random(3)
    for _ in range(10):
        ready = matches_ready(client, created["id"])
        if not ready:
            break
        for match_id in ready:
            play_to_end(client, tokens_told(client, "tests", match_id), rng)
    body = client.get(path).json()
    assert body["status"] == "finished"
    assert all(0 not in t["players"] for r in body["rounds"][1:] for t in r["tables"])
    assert body["standings"][-1] == {**body["standings"][-1], "entrant": 0, "withdrawn": True}
    assert verdict(client, created["id"])["code"] == "verified"


def rehashed(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its chain hashed again after an edit (what a forger with database access would write)."""
    head = GENESIS
    tid = record["header"]["tournament_id"]
    for line in record["events"]:
        line["prev_hash"] = head
        line["hash"] = head = canonical_event_hash(head, tid, line["version"], line["event"]["type"], line["event"],
                                                   None, None, line["recorded_at"])
    record["header"]["head_hash"] = head
    return record


def test_a_tampered_tournament_record_fails_verification(client: TestClient, app_key: str) -> None:
    """Edits to a finished record fail: a result changed (chain broken; re-hashed: its match disagrees), a pairing
    swapped, a match's record replaced by another's, the seed changed, the tail cut."""
    created = create(client, app_key, game="touched-on", format="swiss", rounds=2, players=bots(4))
    played_out(client, app_key, created["id"])
    record = client.get(f"/v1/tournaments/{created['id']}/record").json()

    def check(edited: dict[str, Any]) -> str:
        answer = client.post("/v1/tournaments/verifications", json={"record": json.dumps(edited)}).json()
        assert answer["ok"] is False, answer
        return str(answer["code"])

    def edit(change: Any) -> dict[str, Any]:
        copied = copy.deepcopy(record)
        change(copied)
        return copied

    def result_line(doc: dict[str, Any]) -> dict[str, Any]:
        return next(e for e in doc["events"] if e["event"]["type"] == "tournament.match-result")

    def flip(doc: dict[str, Any]) -> None:
        results = result_line(doc)["event"]["results"]
        results[0]["rank"], results[1]["rank"] = results[1]["rank"], results[0]["rank"]
        if results[0]["rank"] == results[1]["rank"]:
            results[0]["rank"] = 2

    def swap_pairing(doc: dict[str, Any]) -> None:
        paired = next(e for e in doc["events"] if e["event"]["type"] == "tournament.round-paired")["event"]
        paired["tables"][0][0], paired["tables"][1][0] = paired["tables"][1][0], paired["tables"][0][0]

    def swap_match(doc: dict[str, Any]) -> None:
        doc["matches"][0]["record"] = doc["matches"][1]["record"]

    assert check(edit(flip)) == "chain-broken"
    assert check(rehashed(edit(flip))) in ("result-mismatch", "pairing-mismatch")
    assert check(rehashed(edit(swap_pairing))) in ("pairing-mismatch", "match-mismatch")
    assert check(edit(swap_match)) == "match-mismatch"
    assert check(edit(lambda d: d["header"].update(seed="0" * 64))) == "seed-mismatch"
    assert check(edit(lambda d: d["events"].pop())) == "truncated"
    assert check({"header": {"record": "nope"}}) == "malformed-record"


def test_each_seat_of_a_tournaments_bot_match_names_its_entrant_in_the_match_and_its_narration(
        client: TestClient, app_key: str) -> None:
    """Found: a Swiss of r1…r5 showed every seat as `bot:random` ("bot:random chose 2 stations … bot:random chose 2
    stations"), so a match page disagreed with its tournament's. Each seat now carries its entrant's name, and the
    narration tells it as "r1: Computer, level 0 (random moves)"."""
    created = create(client, app_key, game="metro-x", format="swiss", rounds=2, players=bots(5))
    body = played_out(client, app_key, created["id"])
    names = [entrant["name"] for entrant in body["players"]]
    for paired in body["rounds"]:
        for table in paired["tables"]:
            (match_id,) = table["matches"]
            seats = [seat["player"] for seat in client.get(f"/v1/matches/{match_id}").json()["seats"]]
            assert seats == [f"bot:random:{names[e]}" for e in table["players"]]
            log = client.get(f"/v1/matches/{match_id}/events", params={"include": "text", "limit": 500}).json()
            told = " ".join(item["text"] for item in log["items"])
            # The narration names each bot by its entrant's name and its level's title (the catalog's).
            shown = [f"{names[e]}: Computer, level 0 (random moves)" for e in table["players"]]
            assert all(name in told for name in shown) and "bot:random" not in told, told
    assert verdict(client, created["id"])["code"] == "verified"
