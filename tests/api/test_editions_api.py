"""Rules editions over HTTP: the catalog lists every edition, a match may be created at an older one and is played,
viewed, rematched and verified under it to its end; an edition this release lacks is refused, and changes nothing."""

from __future__ import annotations

import random
from typing import Any

from litestar.testing import TestClient

from domain.catalog import GAMES
from ledger.events import NewEvent, NewMatch
from service.reads.runner import catch_up
from store.base import EventStore
from tests.api.conftest import bearer
from tests.api.http_play import play_to_end


def create(client: TestClient, key: str, game: str, seats: int, **extra: Any) -> Any:
    body = {"game": game, "seats": [{"player": f"p{i}"} for i in range(seats)], **extra}
    return client.post("/v1/matches", json=body, headers=bearer(key))


def events_of(client: TestClient, match_id: str) -> list[dict[str, Any]]:
    return [item["event"] for item in client.get(f"/v1/matches/{match_id}/events?limit=200").json()["items"]]


def test_the_catalog_lists_every_edition_and_the_current_one(client: TestClient) -> None:
    """GET /v1/games/{game}: `current`, and `editions` oldest first, each saying what it changed and taking its own
    options; Terminus edition 1's Automa is off unless asked for, edition 2's follows the seat count."""
    for game in GAMES:
        info = client.get(f"/v1/games/{game.slug}").json()
        assert info["current"] == info["rules_version"] == info["editions"][-1]["rules_version"]
        assert [e["rules_version"] for e in info["editions"]] == [e.rules_version for e in game.editions]
        assert all(edition["changes"] and edition["released"] for edition in info["editions"])
    terminus = {e["rules_version"]: e for e in client.get("/v1/games/terminus").json()["editions"]}
    assert terminus["1"]["options_schema"]["$defs"]["OptionsV1"]["properties"]["automa"]["default"] is False
    assert any("Capacity" in change for change in terminus["2"]["changes"])
    touched_on = {e["rules_version"]: e for e in client.get("/v1/games/touched-on").json()["editions"]}
    assert "free_tram_zone" not in str(touched_on["1"]["options_schema"])
    assert "free_tram_zone" in str(touched_on["2"]["options_schema"])


def test_a_terminus_match_at_edition_1_is_set_up_and_played_by_edition_1(client: TestClient, app_key: str) -> None:
    """Edition 1: two seats without the Automa, Capacity Markers at 0. The current edition: the Automa, at 2."""
    old = create(client, app_key, "terminus", 2, rules_version="1")
    assert old.status_code == 201, old.text
    assert old.json()["rules_version"] == "1"
    new = create(client, app_key, "terminus", 2).json()
    assert new["rules_version"] == "2"
    old_events, new_events = events_of(client, old.json()["id"]), events_of(client, new["id"])
    assert old_events[0]["rules_version"] == "1"
    assert next(e for e in old_events if e["type"] == "terminus.set-up")["capacity_start"] == 0
    assert next(e for e in new_events if e["type"] == "terminus.set-up")["capacity_start"] == 2
    assert not any(e["type"] == "terminus.automa-set-up" for e in old_events)
    assert any(e["type"] == "terminus.automa-set-up" for e in new_events)
    assert client.get(f"/v1/matches/{old.json()['id']}").json()["rules_version"] == "1"


def test_an_old_edition_is_played_to_its_end_rematched_and_verified_under_itself(client: TestClient,
                                                                                 app_key: str) -> None:
    """Touched On edition 1 (L1 always the Free Tram Zone): played to the end over HTTP, its record verifies, and its
    rematch is edition 1 too."""
    created = create(client, app_key, "touched-on", 2, rules_version="1").json()
    view = client.get(f"/v1/matches/{created['id']}").json()["view"]
    assert view["free_tram_zone"] == "L1"
    play_to_end(client, created, random.Random(7))
    record = client.get(f"/v1/matches/{created['id']}/export").text
    verdict = client.post("/v1/verifications", json={"record": record}).json()
    assert (verdict["ok"], verdict["code"]) == (True, "verified"), verdict["message"]
    assert any("edition '1'" in check["detail"] for check in verdict["checks"] if check["name"] == "rules")
    again = client.post(f"/v1/matches/{created['id']}/rematch", headers=bearer(app_key)).json()
    assert again["rules_version"] == "1"


def test_an_edition_this_release_lacks_is_refused_and_writes_nothing(client: TestClient, app_key: str) -> None:
    """A `rules_version` no edition has: 422 unknown-edition, naming the editions there are; an option an older
    edition did not take: 422 bad-options. No match is created either way."""
    before = client.get("/v1/matches?mine=true", headers=bearer(app_key)).json()["items"]
    answer = create(client, app_key, "terminus", 2, rules_version="9")
    assert (answer.status_code, answer.json()["code"]) == (422, "unknown-edition")
    assert "editions here: 1, 2" in answer.json()["detail"]
    answer = create(client, app_key, "touched-on", 2, rules_version="1", options={"free_tram_zone": "L2"})
    assert (answer.status_code, answer.json()["code"]) == (422, "bad-options")
    assert create(client, app_key, "metro-x", 1, rules_version="x1").status_code == 400
    assert client.get("/v1/matches?mine=true", headers=bearer(app_key)).json()["items"] == before


def test_a_match_of_a_newer_edition_is_not_served_as_if_it_were_this_ones(client: TestClient,
                                                                          store: EventStore) -> None:
    """A match a newer release started (rules edition 9, after a downgrade): 409 unknown-edition, never played or
    shown under rules it was not created with."""
    started = {"type": "match.started", "game": "terminus", "rules_version": "9", "players": ["a", "b"],
               "options": {}, "seed_commitment": "c"}
    store.create_match(NewMatch(id="from-the-future", game="terminus", rules_version="9", seats=(), options={},
                                seed="s", seed_commitment="c"), [NewEvent(type="match.started", payload=started)])
    answer = client.get("/v1/matches/from-the-future")
    assert (answer.status_code, answer.json()["code"]) == (409, "unknown-edition")
    assert "newer than this release" in answer.json()["detail"]


def test_game_statistics_are_split_by_edition_and_leaderboards_say_what_they_count(client: TestClient, app_key: str,
                                                                                   store: EventStore) -> None:
    """Two Touched On matches of edition 1 and one of edition 2, each ended by a resignation: the game's statistics
    count three, `editions` two and one; the leaderboard counts every edition and says so."""
    for edition in ("1", "1", "2"):
        created = create(client, app_key, "touched-on", 2, rules_version=edition).json()
        answer = client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(created["seats"][0]["token"]),
                             json={"move": {"type": "match.resign"}})
        assert answer.json()["status"] == "finished"
    catch_up(store)
    stats = client.get("/v1/games/touched-on/stats").json()
    assert (stats["started"], stats["finished"]) == (3, 3)
    assert {edition: (part["started"], part["finished"]) for edition, part in stats["editions"].items()} == {
        "1": (2, 2), "2": (1, 1)}
    assert stats["editions"]["1"]["end_reasons"] == {"resigned": 2}
    assert client.get("/v1/leaderboards/touched-on").json()["editions"] == ["1", "2"]
