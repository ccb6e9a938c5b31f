"""Move deadlines: `deadline_at` per seat to move, from recorded times; the sweep with a fake clock records
`match.timed-out` and the game's rule; a second sweep writes nothing; the record verifies, a forged early timeout
does not; the notification feed sees the end."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

import pytest

import store.postgres
import store.sqlite
from domain.lifecycle import TimeOut
from ledger.records import encode_record
from ledger.verify import verify_text
from service.matches.deadlines import at, sweep, time_out
from service.matches.matches import MatchService
from service.outbox.notifications import Follower
from service.reads.audit import Audit
from tests.life.conftest import bearer


def create(life: dict[str, Any], game: str, players: int, **options: Any) -> dict[str, Any]:
    """A match of `players` people with these options, as created (its seat tokens)."""
    body = {"game": game, "seats": [{"player": f"p{i}"} for i in range(players)], "options": options}
    answer = life["client"].post("/v1/matches", headers=bearer(life["owner"]), json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def due(life: dict[str, Any], match_id: str) -> dict[int, datetime]:
    """Each seat's deadline as the API shows it (seats not to move have none)."""
    seats = life["client"].get(f"/v1/matches/{match_id}").json()["seats"]
    return {s["seat"]: at(s["deadline_at"]) for s in seats if "deadline_at" in s}


def first_due(life: dict[str, Any], match_id: str) -> tuple[int, datetime]:
    """The (first) seat to move and its deadline."""
    return min(due(life, match_id).items())


def events(life: dict[str, Any], match_id: str) -> list[dict[str, Any]]:
    """Every event of the match (spectator's view)."""
    return list(life["client"].get(f"/v1/matches/{match_id}/events?limit=500").json()["items"])


def clock(moment: datetime) -> Any:
    """A fake clock stopped at `moment`."""
    return lambda: moment


def test_the_deadline_is_the_recorded_time_that_put_the_seat_to_move_plus_move_deadline(life: dict[str, Any]) -> None:
    """The first seat is put to move by set-up: its deadline is set-up's recorded time + 90 s, kept through the
    commands of its turn; once its turn passes, the other seat's is the recorded time of the move that put it to
    move + 90 s, and the first has none. A match without the option shows no deadline."""
    client = life["client"]
    created = create(life, "touched-on", 2, move_deadline=90)
    match_id = created["id"]
    first = due(life, match_id)
    seat = min(first)
    token = created["seats"][seat]["token"]
    assert first == {seat: at(events(life, match_id)[-1]["recorded_at"]) + timedelta(seconds=90)}
    for _ in range(20):
        legal = client.get(f"/v1/matches/{match_id}/legal-moves", headers=bearer(token)).json()["moves"]
        moved = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(token), json={"move": legal[0]})
        assert moved.status_code == 201, moved.text
        now = due(life, match_id)
        assert {d["seat"]: at(d["deadline_at"]) for d in moved.json()["deadlines"]} == now  # the answer says it too
        if seat not in now:
            break
        assert now[seat] == first[seat]
    put_at = at(events(life, match_id)[-1]["recorded_at"])
    assert list(now) == [1 - seat] and now[1 - seat] == put_at + timedelta(seconds=90)
    assert due(life, create(life, "touched-on", 2)["id"]) == {}


def test_a_move_answers_with_the_deadline_it_started_without_reading_the_store(life: dict[str, Any]) -> None:
    """The move that puts a seat to move carries its deadline in the answer, from the events it just stored; a match
    without the option answers an empty list."""
    client, store = life["client"], life["service"].store
    reads: list[Any] = []
    read_match = store.read_match
    store.read_match = lambda *a, **k: reads.append(a) or read_match(*a, **k)
    try:
        for options in ({"move_deadline": 45}, {}):
            created = create(life, "touched-on", 2, **options)
            match_id = created["id"]
            for _ in range(40):
                seat = min(client.get(f"/v1/matches/{match_id}").json()["to_move"])
                token = created["seats"][seat]["token"]
                legal = client.get(f"/v1/matches/{match_id}/legal-moves", headers=bearer(token)).json()["moves"]
                reads.clear()
                moved = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(token), json={"move": legal[0]})
                answer = moved.json()
                if seat not in answer["to_move"]:
                    break
            assert moved.status_code == 201 and answer["to_move"] and seat not in answer["to_move"]
            if not options:
                assert answer["deadlines"] == []
                continue
            put_at = at(answer["events"][-1]["recorded_at"])
            assert [d["seat"] for d in answer["deadlines"]] == sorted(answer["to_move"])
            assert all(at(d["deadline_at"]) == put_at + timedelta(seconds=45) for d in answer["deadlines"])
            assert reads == [], "the deadline came from the events the move stored"
    finally:
        store.read_match = read_match


def test_the_sweep_times_out_a_competitive_seat_only_at_its_deadline_and_once(life: dict[str, Any]) -> None:
    """Before the deadline the sweep writes nothing; at it, the seat to move times out and resigns (ranked last, the
    match ended `timed-out`); timing out on the stale state again, or sweeping twice, writes nothing more."""
    service: MatchService = life["service"]
    match_id = create(life, "touched-on", 2, move_deadline=60)["id"]
    seat, deadline = first_due(life, match_id)
    stale = service.load(match_id)
    assert time_out(service, stale, deadline - timedelta(microseconds=1)) == 0
    assert service.load(match_id).state.version == stale.state.version
    assert time_out(service, stale, deadline) == 1
    assert time_out(service, stale, deadline) == 0  # the same command id: the first answer, nothing written
    count = len(events(life, match_id))
    late = clock(deadline + timedelta(days=1))
    assert sweep(service, late) >= 0 and sweep(service, late) == 0  # the second sweep finds nothing due
    assert len(events(life, match_id)) == count
    tail = [e["event"] for e in events(life, match_id)][-3:]
    assert [e["type"] for e in tail] == ["match.timed-out", "match.seat-resigned", "match.ended"]
    assert tail[0]["seat"] == seat and tail[2]["reason"] == "timed-out"
    assert {r["seat"]: r["winner"] for r in tail[2]["results"]} == {seat: False, 1 - seat: True}


def test_two_sweeps_at_once_record_one_timeout(life: dict[str, Any]) -> None:
    """Two sweepers (two workers) see the same lapse at once: exactly one `match.timed-out` is written."""
    service: MatchService = life["service"]
    match_id = create(life, "touched-on", 3, move_deadline=60)["id"]
    late = clock(first_due(life, match_id)[1] + timedelta(seconds=1))
    barrier = threading.Barrier(2)
    counts: list[int] = []

    def run() -> None:
        barrier.wait()
        counts.append(time_out(service, service.load(match_id), late()))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(counts) == [0, 1]
    assert [e["event"]["type"] for e in events(life, match_id)].count("match.timed-out") == 1


def test_a_cooperative_match_is_lost_when_a_seat_times_out(life: dict[str, Any]) -> None:
    """Mass Transit: the team loses together (no resignation), the end says `timed-out`."""
    service: MatchService = life["service"]
    match_id = create(life, "mass-transit", 2, move_deadline=30)["id"]
    seat, deadline = first_due(life, match_id)
    assert time_out(service, service.load(match_id), deadline) == 1
    tail = [e["event"] for e in events(life, match_id)][-2:]
    assert [e["type"] for e in tail] == ["match.timed-out", "match.ended"] and tail[0]["seat"] == seat
    assert (tail[1]["reason"], tail[1]["cooperative"], tail[1]["team_won"]) == ("timed-out", True, False)


def test_a_timed_out_match_replays_and_verifies_and_a_forged_early_timeout_does_not(
        life: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The record of a match timed out by the sweep verifies (the stores' clock, too, stopped at the deadline); a
    timeout appended before the deadline (the rules alone cannot tell) fails verification at that event with
    `early-timeout`."""
    service: MatchService = life["service"]
    audit = Audit(life["store"])
    honest = create(life, "touched-on", 2, move_deadline=60)["id"]
    deadline = first_due(life, honest)[1]
    for module in (store.sqlite, store.postgres):  # the time the store records appends at
        monkeypatch.setattr(module, "utc_now", clock(deadline))
    assert time_out(service, service.load(honest), deadline) == 1
    monkeypatch.undo()
    assert at(events(life, honest)[-1]["recorded_at"]) == deadline
    verdict = verify_text(encode_record(audit.export(honest, None)))
    assert (verdict.ok, verdict.code) == (True, "verified"), verdict.message
    assert "deadlines" in verdict.passed
    forged = create(life, "touched-on", 2, move_deadline=60)["id"]
    version = service.load(forged).state.version
    service.play(forged, None, TimeOut(seat=first_due(life, forged)[0]), expected_version=version,
                 command_id="forged")
    verdict = verify_text(encode_record(audit.export(forged, None)))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "early-timeout", version + 1)


def test_the_feed_tells_a_timed_out_match_ended(life: dict[str, Any]) -> None:
    """A consumer of the notifications (webhooks, the feed) hears `match.timed-out` with the seat that missed its
    deadline, then `match.ended` with the timed-out result."""
    service: MatchService = life["service"]
    follower = Follower(service.store)
    _, position = follower.read(0, limit=100_000)
    match_id = create(life, "touched-on", 2, move_deadline=60)["id"]
    seat, due = first_due(life, match_id)
    time_out(service, service.load(match_id), due)
    told, _ = follower.read(position)
    kinds = [(n.kind, n.seat) for n in told if n.match_id == match_id and n.kind != "match.created"]
    assert kinds[-2:] == [("match.timed-out", seat), ("match.ended", None)], kinds
    ended = [n for n in told if n.match_id == match_id and n.kind == "match.ended"]
    assert len(ended) == 1 and ended[0].outcome is not None and ended[0].outcome["reason"] == "timed-out"


def test_bad_deadlines_are_refused_and_nobody_sends_a_timeout_as_a_move(life: dict[str, Any]) -> None:
    """`move_deadline` must be a whole number of seconds >= 1 (422 `bad-options`, nothing created); a seat cannot
    time another out through the moves endpoint (the command is the sweep's)."""
    client = life["client"]
    before = len(life["store"].list_matches(limit=1000))
    for bad in ("60", 0, -5, 1.5, True):
        body = {"game": "touched-on", "seats": [{"player": "a"}, {"player": "b"}], "options": {"move_deadline": bad}}
        answer = client.post("/v1/matches", headers=bearer(life["owner"]), json=body)
        assert answer.status_code == 422 and answer.json()["code"] == "bad-options", (bad, answer.text)
    assert len(life["store"].list_matches(limit=1000)) == before
    created = create(life, "touched-on", 2, move_deadline=60)
    version = life["service"].load(created["id"]).state.version
    sent = client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(created["seats"][1]["token"]),
                       json={"move": {"type": "match.time-out", "seat": 0}})
    assert sent.status_code in (400, 422), sent.text
    assert life["service"].load(created["id"]).state.version == version
