"""GET /v1/matches/{id}/stream over real HTTP: order, resume, redaction per caller, the end, heartbeats, limits."""

from __future__ import annotations

import random
import time

import httpx
import pytest

from tests.live.conftest import STREAMS_PER_CALLER, Server
from tests.live.play import auth, log, tokens
from tests.live.sse import Stream, read_whole


def stream_url(server: Server, match_id: str, after: int | None = None) -> str:
    """The stream of a match (from `after` when given)."""
    url = f"{server.url}/v1/matches/{match_id}/stream"
    return url if after is None else f"{url}?after={after}"


def as_items(stream: Stream) -> list[dict[str, object]]:
    """What a stream received, as event-log items (its `data`)."""
    return [m.body for m in stream.events]


def test_a_finished_match_streams_its_whole_log_in_order_then_closes(server: Server) -> None:
    created = server.create(seed="stream-finished")
    version = server.finish(created["id"], random.Random(1))
    received = read_whole(server.http, stream_url(server, created["id"]))
    assert [int(m.id) for m in received] == list(range(1, version + 1))
    assert [m.event for m in received] == [m.body["event"]["type"] for m in received]
    assert [m.body for m in received] == log(server.url, created["id"], http=server.http), "the stream is the log"


def test_resuming_from_every_last_event_id_gives_exactly_the_rest(server: Server) -> None:
    created = server.create(seed="stream-resume")
    version = server.finish(created["id"], random.Random(2))
    whole = log(server.url, created["id"], http=server.http)
    url = stream_url(server, created["id"])
    for last in range(version + 1):
        resumed = read_whole(server.http, url, {"Last-Event-ID": str(last)})
        assert [m.body for m in resumed] == whole[last:], f"resumed after {last}"
    # `after` does the same for clients that cannot set headers; Last-Event-ID wins when both are given.
    assert [m.body for m in read_whole(server.http, f"{url}?after={version - 3}")] == whole[version - 3:]
    both = read_whole(server.http, f"{url}?after=1", {"Last-Event-ID": str(version - 1)})
    assert [m.body for m in both] == whole[version - 1:]
    assert read_whole(server.http, url, {"Last-Event-ID": str(version + 5)}) == [], "nothing after the end"


def test_each_caller_streams_what_the_log_shows_it_and_the_end_reveals_everything(server: Server) -> None:
    """Seat 0, seat 1 and a spectator follow a live match: after every move each stream has exactly what GET events
    showed that caller at that moment (hidden cards redacted), and the ending comes unredacted, as the log then is."""
    created = server.create(seed="stream-redaction")
    seats = tokens(created)
    callers = {"seat 0": seats[0], "seat 1": seats[1], "spectator": None}
    streams = {name: Stream(stream_url(server, created["id"]), headers=auth(token))
               for name, token in callers.items()}
    seen: dict[str, list[dict[str, object]]] = {name: [] for name in callers}
    rng = random.Random(3)
    version: int | None = created["version"]
    try:
        while version is not None:
            for name, token in callers.items():
                streams[name].wait_for(version)
                seen[name] += log(server.url, created["id"], token, server.http)[len(seen[name]):]
            version = server.move(created["id"], rng)
        for name, stream in streams.items():
            stream.wait_until_ended()
            assert as_items(stream) == seen[name], f"{name}'s stream differs from its log"
    finally:
        for stream in streams.values():
            stream.close()
    final = log(server.url, created["id"], http=server.http)
    assert seen["spectator"] != final, "something was hidden from the spectator while the match ran"
    assert seen["seat 0"] != seen["seat 1"], "the seats see different hands"
    assert seen["spectator"][-1] == final[-1], "the ending is sent unredacted"


def test_a_quiet_stream_sends_heartbeat_comments(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    import api.routes.live as live_routes

    monkeypatch.setattr(live_routes, "HEARTBEAT_S", 0.2)
    monkeypatch.setattr(live_routes, "REREAD_S", 0.1)
    created = server.create(seed="stream-heartbeat")
    stream = Stream(stream_url(server, created["id"]))
    try:
        stream.wait_for(created["version"])
        deadline = time.monotonic() + 5
        while not any(m.comment == "heartbeat" for m in stream.messages) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any(m.comment == "heartbeat" for m in stream.messages)
        assert not stream.ended.is_set(), "a heartbeat does not end the stream"
    finally:
        stream.close()


def accepted(url: str, seconds: float = 5) -> Stream:
    """A stream of this address, once a place is free (the tests before may still hold some a moment)."""
    deadline = time.monotonic() + seconds
    while (stream := Stream(url)).status == 429 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stream.status == 200, stream.problem
    return stream


def test_a_caller_holds_a_bounded_number_of_streams(server: Server) -> None:
    created = server.create(seed="stream-caps")
    url = stream_url(server, created["id"])
    held = [accepted(url) for _ in range(STREAMS_PER_CALLER)]
    try:
        for stream in held:
            stream.wait_for(created["version"])
        refused = Stream(url)
        assert refused.status == 429
        assert refused.problem["code"] == "too-many-streams"
        seat = Stream(url, headers=auth(tokens(created)[0]))  # another caller counts on its own
        assert seat.status == 200
        seat.close()
        held.pop().close()
        deadline = time.monotonic() + 5
        while (again := Stream(url)).status == 429 and time.monotonic() < deadline:
            time.sleep(0.05)  # the server notices the hang-up at its next write or wait
        assert again.status == 200, "a closed stream frees its place"
        again.close()
    finally:
        for stream in held:
            stream.close()


@pytest.mark.parametrize(("headers", "status", "code"), [
    ({"Last-Event-ID": "abc"}, 400, "invalid-request"),
    ({"Authorization": "Bearer seat_not-a-token"}, 403, "wrong-token"),
    ({"Authorization": "Basic eDp5"}, 401, "bad-authorization"),
])
def test_bad_stream_requests_get_problems(server: Server, headers: dict[str, str], status: int, code: str) -> None:
    created = server.create(seed="stream-bad")
    answer = httpx.get(stream_url(server, created["id"]), headers=headers)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_an_unknown_match_has_no_stream(server: Server) -> None:
    answer = httpx.get(f"{server.url}/v1/matches/00000000-0000-0000-0000-000000000000/stream")
    assert (answer.status_code, answer.json()["code"]) == (404, "unknown-match")


def test_the_streams_of_a_match_share_one_read_per_move(server: Server) -> None:
    """Four streams follow a match: each move is read from the store about once for all of them, not once each.
    (Seats only: the spectator streams of the tests before may still hold this address's places a moment.)"""
    created = server.create(seed="stream-shared")
    seats = tokens(created)
    url = stream_url(server, created["id"])
    streams = [Stream(url, headers=auth(token)) for token in (seats[0], seats[0], seats[1], seats[1])]
    rng = random.Random(9)
    try:
        for stream in streams:
            stream.wait_for(created["version"])
        reads_before, moves = server.tails.reads, 0
        while moves < 5 and (version := server.move(created["id"], rng)) is not None:
            moves += 1
            for stream in streams:
                stream.wait_for(version)
        reads = server.tails.reads - reads_before
    finally:
        for stream in streams:
            stream.close()
    assert moves == 5
    assert reads <= 2 * moves, f"{reads} reads for {moves} moves and {len(streams)} streams"


def test_a_stream_with_include_text_tells_every_event_as_the_log_does(server: Server) -> None:
    """`include=text` on the stream: each event carries the same sentence the event log gives the same caller."""
    created = server.create(seed="stream-text")
    server.finish(created["id"], random.Random(2))
    url = f"{stream_url(server, created['id'])}?include=text"
    received = [m.body for m in read_whole(server.http, url)]
    page = server.http.get(f"{server.url}/v1/matches/{created['id']}/events",
                           params={"include": "text", "limit": 500}).json()["items"]
    assert received == page and all(item["text"] for item in received)
    assert received[-1]["text"].startswith("The match ended")


def test_a_stream_with_include_text_names_a_bot_by_its_level_as_the_log_does(server: Server) -> None:
    """Found: Touched On's page said "bot:ismcts-3 played…" for the moves it heard live (the stream told them with
    the seats' handles), and "Computer, level 4 (search) played…" for the same moves read from the log."""
    answer = server.http.post(f"{server.url}/v1/matches", headers={"Authorization": f"Bearer {server.app_key}"},
                              json={"game": "touched-on", "seats": [{"player": "ann"}, {"bot": "random"}],
                                    "options": {"max_journeys": 1}, "seed": "stream-bot"})
    assert answer.status_code == 201, answer.text
    match_id = answer.json()["id"]
    server.finish(match_id, random.Random(3))
    received = [m.body for m in read_whole(server.http, f"{stream_url(server, match_id)}?include=text")]
    page = server.http.get(f"{server.url}/v1/matches/{match_id}/events",
                           params={"include": "text", "limit": 500}).json()["items"]
    assert received == page
    texts = [str(item["text"]) for item in received]
    assert not [text for text in texts if "bot:" in text]
    assert any(text.startswith("Computer, level 0 (random moves) played") for text in texts), texts
