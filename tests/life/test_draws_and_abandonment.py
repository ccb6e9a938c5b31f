"""Draws by agreement (competitive games of two seats or more) and abandonment (`abandon_after`): both end the match
as events; a draw is a result (rated, a tie), an abandoned match is not counted; records verify; feeds see the end."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

import store.postgres
import store.sqlite
from domain.lifecycle import Abandon
from ledger.records import encode_record
from ledger.verify import verify_text
from service.matches.deadlines import abandon, at, sweep
from service.matches.matches import MatchService
from service.outbox.notifications import Follower
from service.reads.audit import Audit
from service.reads.runner import catch_up
from tests.life.conftest import bearer
from tests.life.test_deadlines import clock, create, events


def send(life: dict[str, Any], created: dict[str, Any], seat: int, move: dict[str, Any]) -> Any:
    """Seat `seat` sends `move`."""
    return life["client"].post(f"/v1/matches/{created['id']}/moves", headers=bearer(created["seats"][seat]["token"]),
                               json={"move": move})


def test_a_draw_offered_and_accepted_by_every_seat_ends_the_match_all_first(life: dict[str, Any]) -> None:
    """Three seats: one offers, the others accept; the last acceptance ends it `draw`, each seat ranked first. Its
    record verifies; a seat cannot accept twice, nor accept when nothing is on offer."""
    created = create(life, "touched-on", 3)
    assert send(life, created, 1, {"type": "match.accept-draw"}).json()["code"] == "no-draw-offer"
    assert send(life, created, 0, {"type": "match.offer-draw"}).status_code == 201
    assert send(life, created, 2, {"type": "match.offer-draw"}).json()["code"] == "draw-offered"
    refused = send(life, created, 0, {"type": "match.accept-draw"})
    assert (refused.status_code, refused.json()["code"]) == (422, "draw-agreed")
    assert send(life, created, 1, {"type": "match.accept-draw"}).json()["status"] == "active"
    ended = send(life, created, 2, {"type": "match.accept-draw"})
    assert ended.status_code == 201 and ended.json()["status"] == "finished", ended.text
    outcome = life["client"].get(f"/v1/matches/{created['id']}").json()["outcome"]
    assert outcome["reason"] == "draw" and {(r["rank"], r["winner"]) for r in outcome["results"]} == {(1, True)}
    verdict = verify_text(encode_record(Audit(life["store"]).export(created["id"], None)))
    assert (verdict.ok, verdict.code) == (True, "verified"), verdict.message


def test_a_move_withdraws_the_offer_and_a_team_cannot_draw(life: dict[str, Any]) -> None:
    """The seat to move offers, then moves: the offer lapses (`no-draw-offer`). Mass Transit (cooperative) and a
    solo match refuse draws (`draw-not-allowed`), writing nothing."""
    created = create(life, "touched-on", 2)
    seat = life["client"].get(f"/v1/matches/{created['id']}").json()["to_move"][0]
    assert send(life, created, seat, {"type": "match.offer-draw"}).status_code == 201
    legal = life["client"].get(f"/v1/matches/{created['id']}/legal-moves",
                               headers=bearer(created["seats"][seat]["token"])).json()["moves"]
    assert send(life, created, seat, legal[0]).status_code == 201
    assert send(life, created, 1 - seat, {"type": "match.accept-draw"}).json()["code"] == "no-draw-offer"
    for game, seats in (("mass-transit", 2), ("metro-x", 1)):
        other = create(life, game, seats)
        version = life["client"].get(f"/v1/matches/{other['id']}").json()["version"]
        refused = send(life, other, 0, {"type": "match.offer-draw"})
        assert (refused.status_code, refused.json()["code"]) == (422, "draw-not-allowed")
        assert life["client"].get(f"/v1/matches/{other['id']}").json()["version"] == version


def test_a_match_without_moves_for_abandon_after_is_closed_once_and_verifies(
        life: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Before `abandon_after` has passed since the last event nothing is written; at it the match ends `abandoned`
    (no results); a second sweep writes nothing; the record verifies. A forged early abandonment does not verify."""
    service: MatchService = life["service"]
    match_id = create(life, "touched-on", 2, abandon_after=3600)["id"]
    loaded = service.load(match_id)
    due = at(loaded.record.updated_at) + timedelta(seconds=3600)
    assert abandon(service, loaded, due - timedelta(microseconds=1)) == 0
    for module in (store.sqlite, store.postgres):  # the time the store records appends at
        monkeypatch.setattr(module, "utc_now", clock(due))
    assert abandon(service, loaded, due) == 1
    monkeypatch.undo()
    assert abandon(service, loaded, due) == 0 and sweep(service, clock(due + timedelta(days=1))) >= 0
    assert sweep(service, clock(due + timedelta(days=1))) == 0
    last = events(life, match_id)[-1]["event"]
    assert (last["type"], last["reason"], last["results"]) == ("match.ended", "abandoned", [])
    audit = Audit(life["store"])
    verdict = verify_text(encode_record(audit.export(match_id, None)))
    assert (verdict.ok, verdict.code) == (True, "verified"), verdict.message
    forged = create(life, "touched-on", 2, abandon_after=3600)["id"]
    version = service.load(forged).state.version
    service.play(forged, None, Abandon(), expected_version=version, command_id="forged")
    verdict = verify_text(encode_record(audit.export(forged, None)))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "early-timeout", version + 1)


def test_ratings_and_statistics_skip_abandoned_matches_and_count_draws(life: dict[str, Any]) -> None:
    """After the projections catch up: the abandoned match's players have no statistics and no game counts it as
    finished; the drawn match's players each have one drawn game and a rating; the feed told both ends."""
    client, service = life["client"], life["service"]
    follower = Follower(service.store)
    _, position = follower.read(0, limit=100_000)
    body = {"game": "terminus", "seats": [{"player": "quitter-a"}, {"player": "quitter-b"}],
            "options": {"abandon_after": 60}}
    quit_id = client.post("/v1/matches", headers=bearer(life["owner"]), json=body).json()["id"]
    loaded = service.load(quit_id)
    assert abandon(service, loaded, at(loaded.record.updated_at) + timedelta(seconds=60)) == 1
    body = {"game": "terminus", "seats": [{"player": "peace-a"}, {"player": "peace-b"}]}
    drawn = client.post("/v1/matches", headers=bearer(life["owner"]), json=body).json()
    assert send(life, drawn, 0, {"type": "match.offer-draw"}).status_code == 201
    assert send(life, drawn, 1, {"type": "match.accept-draw"}).status_code == 201
    catch_up(life["store"])
    for player in ("quitter-a", "quitter-b"):
        assert client.get(f"/v1/players/{player}/stats").json().get("games", []) == []
    assert "abandoned" not in client.get("/v1/games/terminus/stats").json()["end_reasons"]
    for player in ("peace-a", "peace-b"):
        games = client.get(f"/v1/players/{player}/stats").json()["games"]
        assert [(g["drawn"], g["rating"] is not None) for g in games] == [(1, True)]
    told, _ = follower.read(position)
    ends = {n.match_id: n.outcome["reason"] for n in told if n.kind == "match.ended" and n.outcome}
    assert ends == {quit_id: "abandoned", drawn["id"]: "draw"}
