"""A tournament reveals its seed only when none of its matches is still dealing (issue 39, hole 5).

The attack: a two-player fair-deal knockout (option `entropy: "seats"`). Its one match opens `dealing`; the
organiser withdraws entrant 0 while it is (no resignation is possible before the deal), the forfeit ends the round,
the tournament finishes and reveals its seed. The other seat works out the match's server part from that seed
(`match_seed(seed_for(...))`), grinds its own entropy for the deal it wants, sends it, and the match deals exactly
that. Now the withdrawal calls the match off first (`match.ended`, reason `cancelled`, as the match service calls
off any match never dealt), and the finish follows only once no match of the tournament is dealing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from api.tournament_schemas import detail
from domain.catalog import by_slug
from domain.engine import Refusal
from domain.lifecycle import AddEntropy
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
    assert detail(loaded).seed is None and tournament_exports.export(loaded, Audit(store)).header.seed is None

    after = service.withdraw(tournament_id, APP, 0)
    assert after.state.finished and service.finishes == [tournament_id]
    seed = detail(after).seed
    assert seed is not None and tournament_exports.export(after, Audit(store)).header.seed == seed
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
    verdict = tournament_records.verify(tournament_exports.export(after, Audit(store)))
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
