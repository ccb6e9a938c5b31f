"""The bot levels over HTTP: the catalog lists each bot with its level, what it does, its handle and its current
rating (issue 41); a seat takes any of them with `{"bot": name}`, and an unknown one is refused before anything is
written."""

from __future__ import annotations

import random
from typing import Any

from litestar.testing import TestClient

from domain.catalog import GAMES
from service.reads.runner import catch_up
from tests.api.conftest import bearer
from tests.api.http_play import play_to_end

GAME = "expect-delays"


def test_every_game_lists_its_bots_weakest_first_with_levels_and_handles(client: TestClient) -> None:
    for game in GAMES:
        info = client.get(f"/v1/games/{game.slug}").json()
        levels = info["bot_levels"]
        assert [level["name"] for level in levels] == info["bots"]
        assert levels[0] | {"rating": None} == {"name": "random", "level": 0, "handle": "bot:random",
                                                "description": "a uniformly random legal move", "rating": None}
        search = [level for level in levels if level["name"].startswith("ismcts-")]
        assert [level["name"] for level in search] == ["ismcts-1", "ismcts-2", "ismcts-3"]
        assert [level["level"] for level in levels] == sorted(level["level"] for level in levels)
        assert all(level["handle"] == f"bot:{level['name']}" and level["description"] for level in levels)
        assert all("sees only its own seat" in level["description"] for level in search)
    greedy = next(level for level in client.get("/v1/games/mass-transit").json()["bot_levels"]
                  if level["name"] == "greedy")
    assert greedy["level"] == 1 and "greedy" in greedy["description"]
    listed = client.get("/v1/games").json()["items"]
    assert all(level["rating"] is None for item in listed for level in item["bot_levels"])


def test_a_person_plays_a_search_bot_and_the_catalog_shows_its_rating(client: TestClient, app_key: str,
                                                                      store: Any) -> None:
    """A seat takes `ismcts-1`; the bot answers every turn in the person's requests; once the ratings are folded,
    GET /v1/games/{slug} shows the level's rating (one match), as the leaderboard has it."""
    body = {"game": GAME, "seats": [{"player": "ada"}, {"bot": "ismcts-1"}], "options": {"max_turns": 4}}
    created = client.post("/v1/matches", json=body, headers=bearer(app_key))
    assert created.status_code == 201, created.text
    assert created.json()["seats"][1]["player"] == "bot:ismcts-1"
    play_to_end(client, created.json(), random.Random(3))
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
