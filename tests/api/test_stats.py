"""Statistics, ratings, leaderboards and projection status over HTTP."""

from __future__ import annotations

import random
from typing import Any

from litestar.testing import TestClient

from ledger.events import NewEvent
from service.reads.runner import catch_up
from tests.api.conftest import bearer
from tests.api.http_play import create, play_to_end

GAME = "expect-delays"
SHORT = {"max_turns": 12}


def finished_matches(client: TestClient, app_key: str, count: int) -> list[dict[str, Any]]:
    """Play `count` short matches between ada, bob and cy (rotating) to their end."""
    rng = random.Random(5)
    names = ["ada", "bob", "cy"]
    matches = []
    for n in range(count):
        body = {"game": GAME, "seats": [{"player": names[n % 3]}, {"player": names[(n + 1) % 3]}], "options": SHORT}
        response = client.post("/v1/matches", json=body, headers=bearer(app_key))
        assert response.status_code == 201
        play_to_end(client, response.json(), rng)
        matches.append(client.get(f"/v1/matches/{response.json()['id']}").json())
    return matches


def test_statistics_after_finished_matches(client: TestClient, app_key: str, store: Any) -> None:
    """Once folded, the leaderboard, player and game statistics agree with the matches' outcomes."""
    matches = finished_matches(client, app_key, 6)
    catch_up(store)
    head = store.head_position()
    board = client.get(f"/v1/leaderboards/{GAME}", params={"min_position": head}).json()
    assert board["position"] == head
    ordinals = [e["ordinal"] for e in board["items"]]
    assert ordinals == sorted(ordinals, reverse=True) and {e["player"] for e in board["items"]} == {"ada", "bob", "cy"}
    assert sum(e["matches"] for e in board["items"]) == 12

    wins = sum(1 for m in matches for r in m["outcome"]["results"]
               if r["winner"] and m["seats"][r["seat"]]["player"] == "ada"
               and sum(x["winner"] for x in m["outcome"]["results"]) == 1)
    ada = client.get("/v1/players/ada/stats").json()
    (stats,) = ada["games"]
    assert stats["game"] == GAME and stats["played"] == 4 and stats["won"] == wins
    assert stats["won"] + stats["lost"] + stats["drawn"] == 4
    assert stats["rating"]["player"] == "ada"
    assert client.get("/v1/players/ada").json()["games"] == {GAME: 4}

    game = client.get(f"/v1/games/{GAME}/stats").json()
    assert (game["started"], game["finished"]) == (6, 6)
    assert sum(game["end_reasons"].values()) == 6 and game["moves_min"] >= 1
    assert sum(game["scores"].values()) == 12


def test_leaderboard_pages_and_minimum_matches(client: TestClient, app_key: str, store: Any) -> None:
    """Cursor pagination walks the board once; `min_matches` filters players with fewer rated matches."""
    finished_matches(client, app_key, 3)
    catch_up(store)
    first = client.get(f"/v1/leaderboards/{GAME}", params={"limit": 2}).json()
    rest = client.get(f"/v1/leaderboards/{GAME}", params={"limit": 2, "cursor": first["next_cursor"]}).json()
    players = [e["player"] for e in first["items"] + rest["items"]]
    assert sorted(players) == ["ada", "bob", "cy"] and rest["next_cursor"] is None
    assert client.get(f"/v1/leaderboards/{GAME}", params={"min_matches": 3}).json()["items"] == []
    assert client.get(f"/v1/leaderboards/{GAME}", params={"cursor": "nonsense"}).status_code == 400


def test_min_position_answers_not_yet_until_the_projections_catch_up(client: TestClient, app_key: str,
                                                                     store: Any) -> None:
    """A read asking for data fresher than folded gets a clear 409 `not-yet`; after the fold, the data."""
    finished_matches(client, app_key, 1)
    head = store.head_position()
    response = client.get(f"/v1/games/{GAME}/stats", params={"min_position": head})
    assert response.status_code == 409 and response.json()["code"] == "not-yet"
    assert response.json()["position"] == 0 and "current_version" not in response.json()
    catch_up(store)
    assert client.get(f"/v1/games/{GAME}/stats", params={"min_position": head}).json()["finished"] == 1


def test_projection_status_shows_position_lag_and_errors(client: TestClient, app_key: str, store: Any) -> None:
    """GET /v1/projections: every projection with its lag, and the error it stopped on."""
    created = create(client, app_key, GAME, 2)
    status = client.get("/v1/projections").json()
    assert status["head"] == store.head_position() and all(p["lag"] == status["head"] for p in status["items"])
    record = store.get_match(created["id"])
    store.append(record.id, record.version, [NewEvent(type="match.paused", payload={"type": "match.paused"})],
                 seat=None, command=None, command_id=None)
    catch_up(store)
    status = client.get("/v1/projections").json()
    assert {p["name"] for p in status["items"]} == {"match-summaries", "player-stats", "game-stats", "ratings",
                                                     "insights"}
    assert all(p["lag"] == 1 and "match.paused" in p["error"] for p in status["items"])


def test_unknown_players_and_games_are_404(client: TestClient) -> None:
    """Nothing folded for a name: 404 with a code."""
    assert client.get("/v1/players/nobody/stats").json()["code"] == "unknown-player"
    assert client.get("/v1/players/nobody").status_code == 404
    assert client.get("/v1/leaderboards/chess").json()["code"] == "unknown-game"
    assert client.get("/v1/games/chess/stats").status_code == 404


def test_waiting_for_a_position_gives_up_after_its_time_without_sleeping_for_real(store: Any) -> None:
    """The wait for fresh data is bounded: with a fake clock, `NotYet` names how far the data is folded."""
    import pytest

    from service.reads.statistics import NotYet, Statistics

    now = [0.0]
    naps: list[float] = []

    def nap(seconds: float) -> None:
        naps.append(seconds)
        now[0] += seconds

    stats = Statistics(store, wait_seconds=1.0, clock=lambda: now[0], sleep=nap)
    assert stats.position("game-stats", None) == 0
    with pytest.raises(NotYet) as waited:
        stats.position("game-stats", 1)
    assert waited.value.position == 0 and 19 <= len(naps) <= 21


def test_ada_and_Ada_are_one_player_with_one_rating_found_by_either_spelling(client: TestClient, app_key: str,
                                                                              store: Any) -> None:
    """Found: "Ada" and "ada" were two players, with two ratings and two pages. A handle names its player whatever
    its case (and Unicode form); the records keep each spelling as written, the pages show the one seen first."""
    rng = random.Random(7)
    spelt = []
    for ada in ("Ada", "ada"):
        body = {"game": GAME, "seats": [{"player": ada}, {"player": "bob"}], "options": SHORT}
        created = client.post("/v1/matches", json=body, headers=bearer(app_key)).json()
        play_to_end(client, created, rng)
        spelt.append(client.get(f"/v1/matches/{created['id']}").json()["seats"][0]["player"])
    assert spelt == ["Ada", "ada"]  # as written
    catch_up(store)
    board = client.get(f"/v1/leaderboards/{GAME}").json()["items"]
    assert sorted((e["player"], e["matches"]) for e in board) == [("Ada", 2), ("bob", 2)]
    for asked in ("ada", "Ada", "ADA"):
        page = client.get(f"/v1/players/{asked}/stats").json()
        assert page["player"] == "Ada" and [g["played"] for g in page["games"]] == [2], (asked, page)
        assert page["games"][0]["rating"]["matches"] == 2
        assert client.get(f"/v1/players/{asked}").json() == {**client.get("/v1/players/ada").json()}
    assert client.get("/v1/players/ada").json()["games"] == {GAME: 2}
