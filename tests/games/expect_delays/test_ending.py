"""Ending the game (rulebook, "Ending the Game"; readings 13, 14, 20)."""

from __future__ import annotations

from domain import match
from domain.engine import Command
from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import Disembark, EndActions
from domain.games.expect_delays.events import CardsDrawn, FareSwipesGained, GameOver
from domain.lifecycle import MatchEnded
from domain.match import MatchState
from domain.playout import play as play_match
from domain.rng import Rng
from tests.games.expect_delays.tables import UPTOWN, table
from tests.games.given import given, names, of_type

END = EndActions()


def test_the_turn_limit_ends_the_match_after_the_last_turns_upkeep() -> None:
    """Reading 20 (an engine limit, listed in `deviations`): after `max_turns` turns the match ends and is
    scored like a deck-exhaustion end: points, then riders on own lines, then Fare Swipes."""
    state = table(hands=(("T01", "T02", "T03"), ("T04", "T05", "T06")), max_turns=4, turn=4, points=(3, 3),
                  lines={"D2": "..C...."})
    move = given(GAME, state).when(END)
    events, after = move.events, move.state
    assert isinstance(events[-2], CardsDrawn) and events[-1] == GameOver(reason="turn-limit")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.reason == "turn-limit"
    assert [(r.seat, r.rank, r.winner, r.score) for r in outcome.results] == [(0, 2, False, 3.0), (1, 1, True, 3.0)]


def test_a_limited_match_ends_through_the_match_layer() -> None:
    """Reading 20: the limit ends a whole match (the match layer writes `match.ended` with the reason)."""

    def end_every_turn(state: MatchState, seats: list[int]) -> tuple[int, Command]:
        return seats[0], END

    played = play_match(GAME, 2, {"max_turns": 5}, "limit", chooser=end_every_turn)
    assert played.state is not None and played.state.ended is not None
    assert played.state.ended.reason == "turn-limit" and len(played.moves) == 5


def test_nine_points_do_not_end_the_game() -> None:
    """Rulebook, Ending the Game: only the 10th point ends it; below that the Disembark goes on (here the
    Transfer advisory SA14 fires)."""
    state = table(points=(5, 0), lines={"U1": ".....C."}, active_advisory="SA14")
    move = given(GAME, state).when(Disembark(line="U1", stop=5))
    events, after = move.events, move.state
    assert after.points == (9, 0) and after.end_reason is None and of_type(events, FareSwipesGained)


def test_the_tenth_point_ends_the_game_at_once() -> None:
    """Reading 13: the 10th Destination Point ends the game immediately: no Tourist, no Transfer effect, no
    Upkeep, no further action."""
    state = table(points=(6, 0), lines={"U1": ".....C."}, active_advisory="SA14")
    move = given(GAME, state).when(Disembark(line="U1", stop=5))
    events, after = move.events, move.state
    assert names(events) == ["action-taken", "commuter-disembarked", "game-over"]
    assert after.points == (10, 0) and GAME.to_move(after) == [] and GAME.legal(after, UPTOWN) == []
    given(GAME, after).when(UPTOWN, END).then_refused("game-over")
    given(GAME, state).when(Disembark(line="U1", stop=5, repair="T01")).then_refused("choice-not-applicable")
    given(GAME, state).when(Disembark(line="U1", stop=5, board="U1")).then_refused("choice-not-applicable")


def test_scores_are_destination_points() -> None:
    """Object of the Game: the score is Destination Points (also used to rank a resignation)."""
    assert list(GAME.scores(table(points=(7, 4)))) == [7.0, 4.0]


def test_a_full_tie_is_shared() -> None:
    """Reading 14: equal points, riders and Fare Swipes share the win (the rulebook does not say)."""
    done = table(points=(6, 6), fare_swipes=(1, 1), platform_fare_swipes=6, end_reason="turn-limit",
                 lines={"U1": "C......", "D2": ".....t."})
    outcome = GAME.outcome(done)
    assert outcome is not None and [(r.rank, r.winner) for r in outcome.results] == [(1, True), (1, True)]


def test_the_match_layer_records_the_games_reason_and_winner() -> None:
    """The match ends with the game's reason and results as soon as `outcome` is known (domain/match.py)."""
    state = table(points=(6, 0), lines={"U1": ".....C."})
    wrapped = MatchState(game="expect-delays", players=("a", "b"), options={}, version=9, game_state=state)
    ended = match.decide(GAME, wrapped, UPTOWN, Disembark(line="U1", stop=5), Rng(b"key"))[-1]
    assert isinstance(ended, MatchEnded) and ended.reason == "ten-points"
    assert [r.winner for r in ended.results] == [True, False]
