"""From `match.ended` to tournament results (domain/tournaments/results.py), on real matches of the catalog."""

from __future__ import annotations

from domain import catalog, match
from domain.engine import SeatResult
from domain.lifecycle import MatchEnded, Resign
from domain.rng import Rng
from domain.tournaments.results import entrant_results
from domain.tournaments.scoring import table_points


def test_a_resignation_is_a_forfeit_worth_a_win_to_the_others() -> None:
    """Terminus, three seats, seat 1 resigns at once: entrant at seat 1 forfeits `resignation`; the others win."""
    game = catalog.by_slug("terminus")
    assert game is not None
    state = match.fold(game, match.open_match(game, ["a", "b", "c"], {}, "seed"))
    events = match.decide(game, state, 1, Resign(), Rng.derive("seed", state.version))
    state = match.fold(game, events, state)
    assert state.ended is not None
    results = entrant_results((7, 4, 9), state.ended, state.resigned)
    assert [(r.entrant, r.forfeit) for r in results] == [(7, None), (4, "resignation"), (9, None)]
    assert table_points(results, False) == {7: 1, 4: 0, 9: 1}


def test_ranks_and_scores_come_from_the_seats() -> None:
    """A finished match: seat s is entrant seated[s], with its rank and score."""
    ended = MatchEnded(reason="finished", results=(SeatResult(seat=0, rank=2, score=3.0, winner=False),
                                                   SeatResult(seat=1, rank=1, score=5.0, winner=True)))
    results = entrant_results((5, 2), ended)
    assert [(r.entrant, r.rank, r.score, r.forfeit) for r in results] == [(5, 2, 3.0, None), (2, 1, 5.0, None)]


def test_an_abandoned_match_is_forfeited_by_everyone() -> None:
    """No results (abandoned for want of moves): every entrant forfeits by deadline, and nobody scores."""
    results = entrant_results((0, 1), MatchEnded(reason="abandoned", results=()))
    assert all(r.forfeit == "deadline" for r in results)
    assert table_points(results, False) == {0: 0, 1: 0}


def test_a_cooperative_team_takes_the_games_shared_result() -> None:
    """Mass Transit: won, Commuters home (every seat's score), turns; a team timing out forfeits by deadline."""
    won = MatchEnded(reason="team-won", cooperative=True, team_won=True,
                     results=(SeatResult(seat=0, rank=1, score=6.0, winner=True),
                              SeatResult(seat=1, rank=1, score=6.0, winner=True)))
    assert entrant_results((3,), won, turns=11)[0].won is True
    assert entrant_results((3,), won, turns=11)[0].turns == 11
    late = MatchEnded(reason="timed-out", cooperative=True, team_won=False,
                      results=(SeatResult(seat=0, rank=1, score=2.0, winner=False),))
    assert entrant_results((3,), late, turns=4)[0].forfeit == "deadline"
