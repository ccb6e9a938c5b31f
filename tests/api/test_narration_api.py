"""`include=text`: each event told in words, redacted for the caller (the event log and a move's answer)."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from tests.api.conftest import bearer
from tests.api.http_play import create

DRAW = "expect-delays.cards-drawn"
CARD = re.compile(r"\bT\d\d\b")  # an Expect Delays Train card id


def events(client: TestClient, match_id: str, token: str | None, include: str = "text") -> list[dict[str, Any]]:
    """The whole log as the caller of `token` (None: a spectator) sees it."""
    answer = client.get(f"/v1/matches/{match_id}/events", params={"include": include, "limit": 500},
                        headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    return list(answer.json()["items"])


def draws(items: list[dict[str, Any]]) -> dict[int, str]:
    """The text of each seat's opening draw."""
    return {item["event"]["seat"]: item["text"] for item in items if item["event"]["type"] == DRAW}


def test_a_seat_reads_its_own_draw_by_name_and_the_others_as_a_count(client: TestClient, app_key: str) -> None:
    created = create(client, app_key, "expect-delays", 2)
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    mine = draws(events(client, created["id"], tokens[0]))
    assert mine[1] == "player-1 drew 3 cards."
    assert mine[0].startswith("player-0 drew 3 cards: ") and len(CARD.findall(mine[0])) == 3
    theirs = draws(events(client, created["id"], tokens[1]))
    assert theirs[0] == "player-0 drew 3 cards." and len(CARD.findall(theirs[1])) == 3
    spectator = events(client, created["id"], None)
    assert draws(spectator) == {0: "player-0 drew 3 cards.", 1: "player-1 drew 3 cards."}
    assert all(item["text"] for item in spectator)
    assert spectator[0]["text"] == "The match began: player-0 and player-1."


def test_without_include_there_is_no_text(client: TestClient, app_key: str) -> None:
    created = create(client, app_key, "expect-delays", 2)
    assert all("text" not in item for item in events(client, created["id"], None, include=""))
    refused = client.get(f"/v1/matches/{created['id']}/events", params={"include": "view"})
    assert refused.status_code == 400


def test_a_move_answers_with_its_events_told(client: TestClient, app_key: str) -> None:
    created = create(client, app_key, "expect-delays", 2)
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    legal = client.get(f"/v1/matches/{created['id']}/legal-moves", headers=bearer(token)).json()
    answer = client.post(f"/v1/matches/{created['id']}/moves", params={"include": "text,view"},
                         headers=bearer(token), json={"move": legal["moves"][0], "expected_version": legal["version"]})
    assert answer.status_code == 201, answer.text
    told = [item["text"] for item in answer.json()["events"]]
    assert told and all(text and text.startswith(("player-0", "player-1", "The", "A ", "Turn", "Service"))
                        for text in told), told
