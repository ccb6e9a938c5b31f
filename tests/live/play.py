"""Playing and reading a match over real HTTP (httpx), as an integrating app does."""

from __future__ import annotations

import random
from typing import Any

import httpx


def auth(secret: str | None) -> dict[str, str]:
    """The Authorization header of a token (none for a spectator)."""
    return {"Authorization": f"Bearer {secret}"} if secret else {}


def tokens(created: dict[str, Any]) -> dict[int, str]:
    """Seat → seat token, from a creation's answer."""
    return {seat["seat"]: seat["token"] for seat in created["seats"]}


def log(url: str, match_id: str, token: str | None = None, http: Any = httpx) -> list[dict[str, Any]]:
    """GET .../events, every page, as the caller of `token` sees it (through `http`, a client or httpx itself)."""
    items: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = http.get(f"{url}/v1/matches/{match_id}/events", params={"after": after, "limit": 500},
                         headers=auth(token))
        assert page.status_code == 200, page.text
        items += page.json()["items"]
        after = page.json()["next_after"]
    return items


def move(url: str, created: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One random legal move by a seat to move (posted to `url`); its answer, or None when the match is over."""
    seats = tokens(created)
    state = httpx.get(f"{url}/v1/matches/{created['id']}", headers=auth(seats[0])).json()
    if state["status"] == "finished":
        return None
    seat = rng.choice(state["to_move"])
    legal = httpx.get(f"{url}/v1/matches/{created['id']}/legal-moves", headers=auth(seats[seat])).json()
    answer = httpx.post(f"{url}/v1/matches/{created['id']}/moves", headers=auth(seats[seat]),
                        json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def play_to_end(url: str, created: dict[str, Any], rng: random.Random, limit: int = 5000) -> int:
    """Random legal moves until the match ends; its final version."""
    for _ in range(limit):
        if move(url, created, rng) is None:
            return int(httpx.get(f"{url}/v1/matches/{created['id']}").json()["version"])
    raise AssertionError("the match did not end")
