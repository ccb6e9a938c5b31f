"""A tournament reveals its seed only when none of its matches is still dealing (issue 39, hole 5).

The attack: a two-player fair-deal knockout (option `entropy: "seats"`). Its one match opens `dealing`; the
organiser withdraws entrant 0 while it is (no resignation is possible before the deal), the forfeit ends the round,
the tournament finishes and reveals its seed. The other seat works out the match's server part from that seed
(`match_seed(seed_for(...))`), grinds its own entropy for the deal it wants, sends it, and the match deals exactly
that. Now the withdrawal calls the match off first (`match.ended`, reason `cancelled`, as the match service calls
off any match never dealt), and the finish follows only once no match of the tournament is dealing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.tournament_schemas import detail
from cli import main
from domain.catalog import by_slug
from domain.engine import Refusal
from domain.lifecycle import AddEntropy, Resign
from domain.match import recorded_options
from domain.rng import Rng, deal_seed, seed_commitment
from domain.tournaments import match_seed, seed_for
from domain.tournaments.commands import CreateTournament
from ledger import tournament_records
from service.matches.matches import MatchService
from service.reads.audit import Audit
from service.tournaments import records as tournament_exports
from service.tournaments.tournaments import TournamentService

APP = "club"


@pytest.fixture
def service(store: Any) -> Iterator[TournamentService]:
    """A tournament service whose every append of `tournament.finished` checks that no match of the tournament is
    dealing at that moment (the seed is revealed by that append)."""
    tournaments = TournamentService(store, MatchService(store))
    appended = store.append_tournament
    finishes: list[str] = []

    def append(tournament_id: str, expected_version: int, payloads: Any, **cap: Any) -> Any:
        if any(p["type"] == "tournament.finished" for p in payloads):
            assert store.dealing_tournament_matches(tournament_id) == [], "the seed is revealed while dealing"
            finishes.append(tournament_id)
        return appended(tournament_id, expected_version, payloads, **cap)

    store.append_tournament = append
    tournaments.finishes = finishes  # type: ignore[attr-defined]
    yield tournaments


def fair_knockout(tournaments: TournamentService) -> str:
    """A started two-player fair-deal knockout of Touched On (a dealt game); its id."""
    command = CreateTournament(game="touched-on", format="knockout", entrants=("ann", "bob"), seats=2,
                               seed_commitment="", options={"entropy": "seats"})
    tournament_id = tournaments.create(APP, command).loaded.record.id
    tournaments.start(tournament_id, APP)
    return tournament_id


def hand(tournaments: TournamentService, match_id: str, server_part: str, entropy: list[str | None]) -> Any:
    """The set-up the match would deal, were its seats' entropy `entropy`: what a seat knowing the server part can
    compute offline (the deal is decided at the version after the last entropy)."""
    loaded = tournaments.matches.load(match_id)
    game = by_slug("touched-on")
    assert game is not None
    rng = Rng.derive(deal_seed(server_part, entropy), loaded.state.version + 1)
    return game.start(recorded_options(game, loaded.state.options)[0], 2, rng)


def test_a_withdrawal_while_the_match_is_dealing_calls_it_off_before_the_seed_is_revealed(service: Any,
                                                                                          store: Any) -> None:
    """The attack, end to end: after the withdrawal the seed is out, and the other seat has what it needs to work out
    the server part; but the match was called off first, never dealt, and takes no entropy any more."""
    tournament_id = fair_knockout(service)
    loaded = service.load(tournament_id)
    (match_id,) = [m.match_id for t in loaded.state.rounds[0].matches for m in t]
    before = store.get_match(match_id)
    assert before is not None and before.status == "dealing"
    assert service.revealed_seed(loaded) is None and detail(loaded, service.revealed_seed(loaded)).seed is None

    after = service.withdraw(tournament_id, APP, 0)
    assert after.state.finished and service.finishes == [tournament_id]
    seed = detail(after, service.revealed_seed(after)).seed
    assert seed is not None and tournament_exports.export(after, Audit(store), seed).header.seed == seed
    # The seat's side of the attack: the revealed seed gives the match's server part (it opens the commitment).
    server_part = match_seed(seed_for(seed, after.state), 1, 0)
    events = store.read_match(match_id)
    assert events[0].payload["server_seed_commitment"] == seed_commitment(server_part)
    # ... but the match was called off before the seed was out: ended `cancelled`, never dealt.
    record = store.get_match(match_id)
    assert record is not None and record.status == "finished"
    assert [e.type for e in events][-1] == "match.ended" and events[-1].payload["reason"] == "cancelled"
    assert not [e for e in events if e.type in ("match.entropy-closed", "match.entropy-added")]
    assert store.dealing_tournament_matches(tournament_id) == []
    # Grinding its entropy for a chosen deal gains nothing: the match takes no entropy and deals nothing.
    wanted = hand(service, match_id, server_part, [None, "grind-0"])
    assert wanted  # the deal the seat could have chosen
    with pytest.raises(Refusal) as refused:
        service.matches.play(match_id, 1, AddEntropy(entropy="grind-0"), expected_version=None, command_id=None)
    assert refused.value.code == "match-finished"
    assert [e.type for e in store.read_match(match_id)] == [e.type for e in events]
    # The forfeit stands (bob wins on ann's withdrawal) and the record still verifies.
    assert [s.entrant for s in after.state.final] == [1, 0]
    verdict = tournament_records.verify(tournament_exports.export(after, Audit(store), seed))
    assert verdict.code == "verified", verdict


def test_a_round_is_not_advanced_past_a_match_still_dealing(service: Any, store: Any) -> None:
    """A withdrawal whose call-off never happened (the process stopped right after recording the forfeit): the next
    drive calls the match off before the finish, so the seed is never out while it deals."""
    tournament_id = fair_knockout(service)
    loaded = service.load(tournament_id)
    (match_id,) = [m.match_id for t in loaded.state.rounds[0].matches for m in t]
    from domain.tournaments.commands import Withdraw

    service.send(tournament_id, Withdraw(entrant=0))  # the forfeit is recorded; nothing else happens
    assert not service.load(tournament_id).state.finished
    assert store.dealing_tournament_matches(tournament_id) == [(match_id, 1)]
    service.sweep()
    assert service.load(tournament_id).state.finished and service.finishes == [tournament_id]
    record = store.get_match(match_id)
    assert record is not None and record.status == "finished"
    assert store.read_match(match_id)[-1].payload["reason"] == "cancelled"


def test_a_match_a_crash_left_dealing_after_the_finish_keeps_the_seed_hidden_until_the_sweep_calls_it_off(
        service: Any, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes: A reads the tournament while its table is owed and goes on to open the table's match; B records
    a withdrawal's forfeit meanwhile, and the finish. A's match is created for a round B moved past, its table is
    refused (`tournament-finished`), and A stops (a crash) before calling it off: a fair-deal match still dealing
    after the finish. The stream does not show it; the store does. The seed stays hidden from the view and the
    record until the sweep calls the orphan off; then it is revealed, and the record verifies."""
    from domain.tournaments.commands import Start, Withdraw

    command = CreateTournament(game="touched-on", format="knockout", entrants=("ann", "bob"), seats=2,
                               seed_commitment="", options={"entropy": "seats"})
    tournament_id = service.create(APP, command).loaded.record.id
    service.send(tournament_id, Start())  # entries closed, round 1 paired; its match not opened yet
    read_by_a = service.load(tournament_id)
    service.send(tournament_id, Withdraw(entrant=0))  # B: the forfeit, with no match to call off
    service.drive(tournament_id)  # B: nothing dealing, the round is over; the finish
    assert service.load(tournament_id).state.finished

    def crash(match_id: str) -> bool:
        raise SystemExit("the process stops before calling the match off")

    monkeypatch.setattr(service, "_call_off", crash)
    with pytest.raises(SystemExit):
        service._open(read_by_a, 1, 0, (0, 1), None)  # A: its match is created; its table refused; then the crash
    monkeypatch.undo()
    orphans = store.dealing_tournament_matches(tournament_id)
    assert len(orphans) == 1
    (match_id, _), = orphans
    finished = service.load(tournament_id)
    assert finished.state.finished and match_id not in tournament_exports.opened_matches(finished.events)
    # The seed stays hidden: the view and the record (the API's and the command line's) say nothing of it.
    assert service.revealed_seed(finished) is None and detail(finished, service.revealed_seed(finished)).seed is None
    assert tournament_exports.export(finished, Audit(store), service.revealed_seed(finished)).header.seed is None
    # The sweep calls the orphan off (`cancelled`, never dealt); then the seed is revealed and the record verifies.
    assert store.orphaned_dealing_matches() == [(match_id, tournament_id)]
    service.sweep()
    assert store.dealing_tournament_matches(tournament_id) == [] and store.orphaned_dealing_matches() == []
    events = store.read_match(match_id)
    assert events[-1].type == "match.ended" and events[-1].payload["reason"] == "cancelled"
    seed = service.revealed_seed(service.load(tournament_id))
    assert seed == store.get_tournament(tournament_id).seed
    verdict = tournament_records.verify(tournament_exports.export(service.load(tournament_id), Audit(store), seed))
    assert verdict.code == "verified", verdict


def test_a_record_revealing_the_seed_while_a_match_was_dealing_fails_verification(
        store: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The verifier's side of hole 5. A dishonest service (the call-offs skipped, as before the fix) finishes the
    tournament and reveals its seed while its match is dealing; seat 1, knowing the server part, grinds its entropy
    and the match deals after the reveal. Every record is genuine (sealed and chained by the service itself), every
    other check passes; the verdict is `seed-revealed-while-dealing`, from the API's verifier and `turnstile verify`.
    A record exported while the match is still dealing, the seed shown anyway, fails the same way."""
    dishonest = TournamentService(store, MatchService(store))
    monkeypatch.setattr(dishonest, "_call_off", lambda match_id: False)
    monkeypatch.setattr(dishonest, "_call_off_dealing", lambda tournament_id, through_round: None)
    tournament_id = fair_knockout(dishonest)
    (match_id,) = [m.match_id for t in dishonest.load(tournament_id).state.rounds[0].matches for m in t]
    finished = dishonest.withdraw(tournament_id, APP, 0)
    assert finished.state.finished and store.get_match(match_id).status == "dealing"
    seed = store.get_tournament(tournament_id).seed
    early = tournament_records.verify(tournament_exports.export(finished, Audit(store), seed))
    assert (early.ok, early.code) == (False, "seed-revealed-while-dealing"), early
    assert "still dealing" in early.message

    # The seat knows the server part now, so each entropy it might send shows it the deal it would get (the
    # grinding itself is the test above's); it sends one, and the match deals after the reveal.
    server_part = match_seed(seed_for(seed, finished.state), 1, 0)
    assert store.read_match(match_id)[0].payload["server_seed_commitment"] == seed_commitment(server_part)
    matches = dishonest.matches
    matches.play(match_id, 0, AddEntropy(entropy="ann's"), expected_version=None, command_id=None)
    matches.play(match_id, 1, AddEntropy(entropy="grind-0"), expected_version=None, command_id=None)
    matches.play(match_id, 0, Resign(), expected_version=None, command_id=None)
    assert [e.type for e in store.read_match(match_id)].count("match.entropy-closed") == 1
    document = msgspec.to_builtins(tournament_exports.export(dishonest.load(tournament_id), Audit(store), seed))
    verdict = tournament_records.verify(document)
    assert (verdict.ok, verdict.code) == (False, "seed-revealed-while-dealing"), verdict
    assert "after the tournament revealed its seed" in verdict.message
    assert [(c.name, c.status) for c in verdict.checks][:4] == [("format", "passed"), ("chain", "passed"),
                                                                 ("seed", "passed"), ("pairings", "passed")]
    assert [c.name for c in verdict.checks if c.status == "failed"] == ["matches"]
    with TestClient(create_app(store)) as client:
        answer = client.post("/v1/tournaments/verifications", json={"record": json.dumps(document)})
    assert (answer.status_code, answer.json()["code"]) == (200, "seed-revealed-while-dealing")
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(document))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "seed-revealed-while-dealing" in out
