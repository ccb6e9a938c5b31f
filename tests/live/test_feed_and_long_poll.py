"""GET /v1/feed (an app's matches as they live) and the long poll of GET /v1/matches/{id}, over real HTTP."""

from __future__ import annotations

import random
import threading
import time

import httpx
import pytest

from tests.live.conftest import Server
from tests.live.play import auth, tokens
from tests.live.sse import Message, Stream


def notes(messages: list[Message], match_id: str) -> list[tuple[str, int, int | None]]:
    """(kind, version, seat) of each notification of one match."""
    return [(m.event, m.body["version"], m.body.get("seat")) for m in messages if m.body["match_id"] == match_id]


def test_the_feed_tells_an_app_of_its_own_matches_in_log_order_and_resumes(server: Server) -> None:
    feed = Stream(f"{server.url}/v1/feed", headers=auth(server.app_key))
    try:
        mine = server.create(seed="feed-mine")
        theirs = server.create(key=server.other_app_key, seed="feed-theirs")
        rng = random.Random(4)
        version = server.finish(mine["id"], rng)
        server.finish(theirs["id"], rng)
        deadline = time.monotonic() + 10
        while not any(m.event == "match.ended" for m in feed.events) and time.monotonic() < deadline:
            time.sleep(0.01)
        received = list(feed.events)
    finally:
        feed.close()
    assert {m.body["match_id"] for m in received} == {mine["id"]}, "another app's matches are not in the feed"
    kinds = notes(received, mine["id"])
    assert kinds[0] == ("match.created", mine["version"], None)
    assert kinds[-1][:2] == ("match.ended", version)
    assert received[-1].body["outcome"]["results"], "the ending carries the outcome"
    assert {kind for kind, _, _ in kinds} == {"match.created", "moved", "turn", "match.ended"}
    assert all(seat in (0, 1) for kind, _, seat in kinds if kind == "turn")
    positions = [m.body["position"] for m in received]
    assert positions == sorted(positions)
    # Only the last notification of each append carries an id, so a client cut off inside one resumes before it.
    ids = [int(m.id) for m in received if m.id]
    assert ids == sorted(set(ids)) and received[-1].id
    assert all(not m.id for m, after in zip(received, received[1:], strict=False)
               if after.body["position"] == m.body["position"])
    # Resuming after any id gives exactly what followed it.
    for cut in (ids[0], ids[len(ids) // 2], ids[-2]):
        resumed = Stream(f"{server.url}/v1/feed", headers={**auth(server.app_key), "Last-Event-ID": str(cut)})
        try:
            expected = [m.body for m in received if m.body["position"] > cut]
            resumed.wait_for(int(received[-1].id))
            assert [m.body for m in resumed.events] == expected
        finally:
            resumed.close()


def test_the_feed_never_carries_a_card(server: Server) -> None:
    """Notifications say who moved and whose turn it is: their fields are the Notification's, nothing more."""
    feed = Stream(f"{server.url}/v1/feed", headers=auth(server.app_key))
    try:
        created = server.create(seed="feed-cards")
        version = server.move(created["id"], random.Random(5))
        assert version is not None
        deadline = time.monotonic() + 10
        # This match's move (the server is shared: another match's event may carry the same version number).
        while not any(m.body["match_id"] == created["id"] and m.body["version"] == version for m in feed.events) \
                and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        feed.close()
    allowed = {"kind", "match_id", "game", "position", "version", "to_move", "seat", "outcome", "rules_version", "text"}
    assert feed.events and all(set(m.body) <= allowed for m in feed.events)
    # The words are the spectator's: each is a line of the event log a spectator reads with include=text.
    told = [text for m in feed.events if m.body["match_id"] == created["id"] for text in m.body.get("text", [])]
    spectator = server.http.get(f"{server.url}/v1/matches/{created['id']}/events",
                                params={"include": "text", "limit": 500}).json()["items"]
    assert told and set(told) <= {item["text"] for item in spectator}


@pytest.mark.parametrize(("headers", "status", "code"), [
    ({}, 401, "app-key-required"),
    ({"Authorization": "Bearer app_unknown"}, 403, "unknown-app-key"),
    ({"Authorization": "Basic eDp5"}, 401, "bad-authorization"),
])
def test_the_feed_is_for_app_keys(server: Server, headers: dict[str, str], status: int, code: str) -> None:
    answer = httpx.get(f"{server.url}/v1/feed", headers=headers)
    assert (answer.status_code, answer.json()["code"]) == (status, code)


def test_a_seat_token_has_no_feed(server: Server) -> None:
    created = server.create(seed="feed-seat")
    answer = httpx.get(f"{server.url}/v1/feed", headers=auth(tokens(created)[0]))
    assert (answer.status_code, answer.json()["code"]) == (403, "unknown-app-key")


def test_a_long_poll_answers_as_soon_as_the_match_moves(server: Server) -> None:
    created = server.create(seed="poll-move")
    mover = threading.Timer(0.3, server.move, args=(created["id"], random.Random(6)))
    mover.start()
    began = time.monotonic()
    answer = server.http.get(f"/v1/matches/{created['id']}",
                             params={"wait_for_version": created["version"], "timeout": 20}, timeout=30)
    waited = time.monotonic() - began
    mover.join()
    assert answer.status_code == 200
    assert answer.json()["version"] > created["version"]
    assert answer.headers["etag"] == f'"{answer.json()["version"]}"'
    assert 0.25 <= waited < 10, "it waited for the move, and not for the timeout"


def test_a_long_poll_answers_the_match_as_it_is_at_the_timeout(server: Server) -> None:
    created = server.create(seed="poll-timeout")
    began = time.monotonic()
    answer = server.http.get(f"/v1/matches/{created['id']}",
                             params={"wait_for_version": created["version"], "timeout": 1})
    assert time.monotonic() - began >= 0.95
    assert (answer.status_code, answer.json()["version"]) == (200, created["version"])


def test_a_long_poll_for_a_version_passed_already_answers_at_once(server: Server) -> None:
    created = server.create(seed="poll-passed")
    began = time.monotonic()
    answer = server.http.get(f"/v1/matches/{created['id']}", params={"wait_for_version": 1, "timeout": 20})
    assert answer.status_code == 200 and time.monotonic() - began < 5


@pytest.mark.parametrize("params", [{"wait_for_version": -1}, {"wait_for_version": 1, "timeout": 0},
                                    {"wait_for_version": 1, "timeout": 61}, {"wait_for_version": "x"}])
def test_bad_long_polls_get_problems(server: Server, params: dict[str, object]) -> None:
    created = server.create(seed="poll-bad")
    answer = server.http.get(f"/v1/matches/{created['id']}", params=params)
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid-request")
