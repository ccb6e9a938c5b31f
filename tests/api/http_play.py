"""Plays a whole match through HTTP only: legal moves in, moves out."""

from __future__ import annotations

import random
from typing import Any

from litestar.testing import TestClient

from tests.api.conftest import bearer


def create(client: TestClient, app_key: str, game: str, seats: int, options: dict[str, Any] | None = None,
           seed: str | None = None) -> dict[str, Any]:
    """POST /v1/matches, asserting success; returns the body."""
    body: dict[str, Any] = {"game": game, "seats": [{"player": f"player-{i}"} for i in range(seats)]}
    if options:
        body["options"] = options
    if seed:
        body["seed"] = seed
    response = client.post("/v1/matches", json=body, headers=bearer(app_key))
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"/v1/matches/{response.json()['id']}"
    return response.json()


def play_moves(client: TestClient, created: dict[str, Any], rng: random.Random, count: int) -> int:
    """Play up to `count` random legal moves (fewer if the match ends); returns how many were played."""
    match_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    for moves in range(count):
        # Read as a seat: any match's seats may read it, whatever its visibility.
        state = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[0])).json()
        if state["status"] == "finished":
            return moves
        seat = rng.choice(state["to_move"])
        legal = client.get(f"/v1/matches/{match_id}/legal-moves", headers=bearer(tokens[seat])).json()
        assert legal["moves"], f"seat {seat} is to move but lists no legal move"
        move = rng.choice(legal["moves"])
        response = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat]),
                               json={"move": move, "expected_version": legal["version"]})
        assert response.status_code == 201, response.text
        assert response.json()["version"] > legal["version"]
    return count


def play_to_end(client: TestClient, created: dict[str, Any], rng: random.Random, max_moves: int = 20_000) -> int:
    """Play random legal moves until the match ends; returns the number of moves."""
    moves = play_moves(client, created, rng, max_moves)
    assert moves < max_moves, "the match did not end"
    return moves
