"""The bot levels over HTTP: the catalog lists each bot with its level, what it does, its handle and its current
rating (issue 41); a seat takes any of them with `{"bot": name}`, and an unknown one is refused before anything is
written."""

from __future__ import annotations

import random
import time
from typing import Any

from litestar.testing import TestClient

from domain.catalog import GAMES
from service.reads.runner import catch_up
from tests.api.conftest import bearer

GAME = "expect-delays"


def test_every_game_lists_its_bots_weakest_first_with_levels_and_handles(client: TestClient) -> None:
    for game in GAMES:
        info = client.get(f"/v1/games/{game.slug}").json()
        levels = info["bot_levels"]
        assert [level["name"] for level in levels] == info["bots"]
        assert levels[0] | {"rating": None} == {"name": "random", "level": 0, "handle": "bot:random",
                                                "description": "a uniformly random legal move",
                                                "title": "Computer, level 0 (random moves)", "rating": None}
        search = [level for level in levels if level["name"].startswith("ismcts-")]
        assert [level["name"] for level in search] == ["ismcts-1", "ismcts-2", "ismcts-3"]
        assert [level["level"] for level in levels] == sorted(level["level"] for level in levels)
        assert all(level["handle"] == f"bot:{level['name']}" and level["description"] for level in levels)
        assert all("sees only its own seat" in level["description"] for level in search)
        assert [level["title"] for level in search] == [f"Computer, level {n} (search)" for n in (2, 3, 4)]
        assert len({level["title"] for level in levels}) == len(levels)  # a seat's title names its bot
    greedy = next(level for level in client.get("/v1/games/mass-transit").json()["bot_levels"]
                  if level["name"] == "greedy")
    assert greedy["level"] == 1 and "greedy" in greedy["description"]
    for game in GAMES:  # the competitive games' generic one-move greedy (domain/greedy.py), just above `random`
        if not game.cooperative:
            second = client.get(f"/v1/games/{game.slug}").json()["bot_levels"][1]
            assert (second["name"], second["level"], second["title"]) == ("greedy", 1, "Computer, level 1 (greedy)")
            assert "one move ahead" in second["description"] and "own seat's view" in second["description"]
    listed = client.get("/v1/games").json()["items"]
    assert all(level["rating"] is None for item in listed for level in item["bot_levels"])


def play_against_the_bot(client: TestClient, created: dict[str, Any], rng: random.Random) -> int:
    """Seat 0 plays random legal moves whenever it is to move; in between, the bot (seat 1) plays its turns in the
    background: the answers to seat 0's moves show seat 1 to move, never the bot's reply. Returns the bot's turns."""
    match_id, token = created["id"], created["seats"][0]["token"]
    waited = bot_turns = 0
    while True:
        state = client.get(f"/v1/matches/{match_id}", headers=bearer(token)).json()
        if state["status"] == "finished":
            return bot_turns
        if 0 not in state["to_move"]:
            assert state["to_move"] == [1]
            waited += 1
            assert waited < 3000, "the bot never played its turn"
            time.sleep(0.01)
            continue
        legal = client.get(f"/v1/matches/{match_id}/legal-moves", headers=bearer(token)).json()
        answer = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(token),
                             json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
        assert answer.status_code == 201, answer.text
        if 1 in answer.json()["to_move"]:  # the request ended with the bot to move, not after the bot's reply
            assert all(event.get("seat") != 1 for event in answer.json()["events"])
            bot_turns += 1


def test_a_person_plays_a_search_bot_and_the_catalog_shows_its_rating(client: TestClient, app_key: str,
                                                                      store: Any) -> None:
    """A seat takes `ismcts-1`; the bot plays its turns in the background (no request of the person's waits for
    its search); once the ratings are folded, GET /v1/games/{slug} shows the level's rating (one match), as the
    leaderboard has it."""
    body = {"game": GAME, "seats": [{"player": "ada"}, {"bot": "ismcts-1"}], "options": {"max_turns": 4}}
    created = client.post("/v1/matches", json=body, headers=bearer(app_key))
    assert created.status_code == 201, created.text
    assert created.json()["seats"][1]["player"] == "bot:ismcts-1"
    assert play_against_the_bot(client, created.json(), random.Random(3)) >= 1
    finished = client.get(f"/v1/matches/{created.json()['id']}").json()
    assert finished["status"] == "finished"
    before = client.get(f"/v1/games/{GAME}").json()["bot_levels"]
    assert all(level["rating"] is None for level in before)
    catch_up(store)
    board = {e["player"]: e for e in client.get(f"/v1/leaderboards/{GAME}").json()["items"]}
    rated = next(level for level in client.get(f"/v1/games/{GAME}").json()["bot_levels"]
                 if level["name"] == "ismcts-1")
    assert rated["rating"] == {key: board["bot:ismcts-1"][key] for key in ("ordinal", "mu", "sigma", "matches")}
    assert rated["rating"]["matches"] == 1


def test_an_unknown_level_is_refused_and_writes_nothing(client: TestClient, app_key: str) -> None:
    before = client.get("/v1/matches").json()["items"]
    for name in ("ismcts-9", "ismcts"):
        body = {"game": GAME, "seats": [{"player": "ada"}, {"bot": name}]}
        answer = client.post("/v1/matches", json=body, headers=bearer(app_key))
        assert answer.status_code == 422 and answer.json()["code"] == "unknown-bot", answer.text
    assert client.get("/v1/matches").json()["items"] == before
