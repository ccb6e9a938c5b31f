"""Bots as seats: a person plays any game alone against the machine; bot matches end at every seat count."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain import bots, match
from domain.catalog import GAMES
from domain.engine import Game
from domain.games.mass_transit import GAME as MASS_TRANSIT
from domain.playout import play
from ledger.records import parse_record
from ledger.verify import verify_text
from tests.life.conftest import bearer

EVERY_GAME = pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
MAX_MOVES = 5_000  # the longest bot match seen (Expect Delays, 2 seats) takes about 500


@EVERY_GAME
def test_a_match_of_random_bots_ends_at_every_seat_count(game: Game[Any]) -> None:
    """Every seat a `random` bot, every seat count the game takes: the match ends within MAX_MOVES moves, each
    move one of the seat's legal commands."""
    for seats in range(game.min_seats, game.max_seats + 1):
        seed = f"bots-{game.slug}-{seats}"
        played = play(game, seats, None, seed, chooser=bots.chooser(game, "random", seed), max_moves=MAX_MOVES)
        assert played.state is not None and played.state.finished, f"{game.slug} at {seats} seats did not end"
        assert len(played.moves) < MAX_MOVES


def test_the_greedy_bot_is_mass_transits_and_ends_its_matches() -> None:
    """Mass Transit has its own `greedy` bot (moved from the tests to the game package), between `random` and the
    search levels; the competitive games have the generic one (domain/greedy.py, tests/bots/test_greedy.py)."""
    assert bots.names(MASS_TRANSIT) == ("random", "greedy", "ismcts-1", "ismcts-2", "ismcts-3")
    for seats in range(MASS_TRANSIT.min_seats, MASS_TRANSIT.max_seats + 1):
        played = play(MASS_TRANSIT, seats, None, f"g{seats}", chooser=bots.chooser(MASS_TRANSIT, "greedy", "g"),
                      max_moves=MAX_MOVES)
        assert played.state is not None and played.state.finished
    for game in GAMES:
        assert bots.names(game) == ("random", "greedy", "ismcts-1", "ismcts-2", "ismcts-3")


@EVERY_GAME
def test_a_match_of_greedy_bots_ends_at_the_fewest_and_the_most_seats(game: Game[Any]) -> None:
    """Every seat the game's `greedy` bot, at the fewest and the most seats: the match ends within MAX_MOVES moves."""
    for seats in sorted({game.min_seats, game.max_seats}):
        seed = f"greedy-{game.slug}-{seats}"
        played = play(game, seats, None, seed, chooser=bots.chooser(game, "greedy", seed), max_moves=MAX_MOVES)
        assert played.state is not None and played.state.finished, f"{game.slug} at {seats} seats did not end"
        assert len(played.moves) < MAX_MOVES


@EVERY_GAME
def test_a_person_plays_every_game_alone_against_bots_over_http(life: dict[str, Any], game: Game[Any]) -> None:
    """Seat 0 a person, the others random bots: after each of the person's moves (and at creation) the bots have
    already replied, recorded with their seat and a `bot:` command id; the answer says it is the person's turn
    again; the finished match's record verifies."""
    client = life["client"]
    seats = [{"player": "solo"}, *({"bot": "random"} for _ in range(max(game.min_seats, 2) - 1))]
    created = client.post("/v1/matches", headers=bearer(life["owner"]), json={"game": game.slug, "seats": seats})
    assert created.status_code == 201, created.text
    body = created.json()
    assert [s["token"] is None for s in body["seats"]] == [False, *([True] * (len(body["seats"]) - 1))]
    assert all(s["player"] == "bot:random" for s in body["seats"][1:])
    token, match_id, rng = body["seats"][0]["token"], body["id"], random.Random(game.slug)
    detail = client.get(f"/v1/matches/{match_id}?include=legal", headers=bearer(token)).json()
    for _ in range(MAX_MOVES):
        if detail["status"] == "finished":
            break
        assert detail["to_move"] == [0], "the bots move at once: only the person can be waited for"
        moved = client.post(f"/v1/matches/{match_id}/moves?include=legal", headers=bearer(token),
                            json={"move": rng.choice(detail["legal"]), "expected_version": detail["version"]})
        assert moved.status_code == 201, moved.text
        detail = moved.json()
    assert detail["status"] == "finished"
    stored = life["store"].read_match(match_id)
    by_bots = [e for e in stored if e.seat not in (None, 0)]
    assert by_bots and all(e.command_id.startswith("bot:") for e in by_bots if e.command_id)
    record = client.get(f"/v1/matches/{match_id}/export").text
    assert verify_text(record).code == "verified"
    assert parse_record(record).header.players[1:] == tuple("bot:random" for _ in body["seats"][1:])


def test_a_match_of_bots_alone_is_played_out_at_creation(life: dict[str, Any]) -> None:
    """No person at all: the creating request plays the whole match (bounded), and nothing is left to do."""
    seats = [{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]
    created = life["client"].post("/v1/matches", headers=bearer(life["owner"]),
                                  json={"game": "mass-transit", "seats": seats})
    assert created.status_code == 201, created.text
    loaded = life["service"].load(created.json()["id"])
    assert loaded.state.finished and loaded.record.status == "finished"
    assert match.to_move(loaded.game, loaded.state) == []


@pytest.mark.parametrize(("seats", "code"), [
    ([{"player": "a"}, {"bot": "greedy-2"}], "unknown-bot"),
    ([{"player": "a"}, {"bot": "nobody"}], "unknown-bot"),
    ([{"player": "a", "bot": "random"}, {"player": "b"}], "bad-seat"),
    ([{"player": "a"}, {}], "bad-seat"),
    ([{"player": "a"}, {"open": True, "bot": "random"}], "bad-seat"),
])
def test_a_bad_seat_is_refused_and_nothing_is_created(life: dict[str, Any], seats: list[Any], code: str) -> None:
    """Expect Delays has no bot of either name; a seat names exactly one of player, bot and open."""
    client = life["client"]
    before = client.get("/v1/matches?mine=true", headers=bearer(life["owner"])).json()["items"]
    answer = client.post("/v1/matches", headers=bearer(life["owner"]), json={"game": "expect-delays", "seats": seats})
    assert answer.status_code == 422 and answer.json()["code"] == code
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert client.get("/v1/matches?mine=true", headers=bearer(life["owner"])).json()["items"] == before


def test_a_bot_handle_cannot_be_taken_by_a_person(life: dict[str, Any]) -> None:
    """`bot:` names only bots: a person's handle cannot hold a colon, so nobody can pose as a bot."""
    answer = life["client"].post("/v1/matches", headers=bearer(life["owner"]),
                                 json={"game": "expect-delays", "seats": [{"player": "bot:random"}, {"player": "b"}]})
    assert answer.status_code == 400 and answer.json()["code"] == "invalid-request"
