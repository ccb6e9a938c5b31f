"""The six actions of the Action Phase (rulebook, "A. Action Phase"; readings 8-13, 16, 19)."""

from __future__ import annotations

import pytest

from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import (
    Board,
    Disembark,
    EndActions,
    Repair,
    RunTheLine,
    TakeOutOfService,
)
from domain.games.expect_delays.events import (
    ActionPhaseEnded,
    CardTakenOutOfService,
    CommuterDisembarked,
    RiderMove,
    RidersMoved,
    TouristBoarded,
)
from tests.games.expect_delays.tables import DOWNTOWN, UPTOWN, table, track
from tests.games.given import given, names, of_type


@pytest.mark.parametrize(("stop", "points"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_disembark_scores_the_stop(stop: int, points: int) -> None:
    """Rulebook, Disembark: score Destination Points equal to the number on the Commuter's stop (DEFAULT
    track 0,1,1,2,3,4,5); the Commuter returns to the pool."""
    lines = {"U1": "".join("C" if i == stop else "." for i in range(7))}
    move = given(GAME, table(lines=lines)).when(Disembark(line="U1", stop=stop))
    events, after = move.events, move.state
    scored = CommuterDisembarked(seat=UPTOWN, line="U1", stop=stop, points=points)
    assert of_type(events, CommuterDisembarked) == [scored]
    assert after.points == (points, 0) and after.commuters_in_pool(UPTOWN) == 3 and track(after, "U1") == "......."


def test_disembark_may_board_a_tourist_on_an_open_opponent_stop() -> None:
    """Rulebook, Disembark: you *may* Board 1 Tourist onto an open 0 stop of your opponent's lines."""
    state = table(lines={"U1": "..C....", "D1": "C......"})
    move = given(GAME, state).when(Disembark(line="U1", stop=2, tourists=("D2",)))
    events, after = move.events, move.state
    assert of_type(events, TouristBoarded) == [TouristBoarded(line="D2")]
    assert track(after, "D2") == "t......" and after.platform_tourists == 5
    given(GAME, state).when(Disembark(line="U1", stop=2, tourists=("D1",))).then_refused("stop-occupied")
    given(GAME, state).when(Disembark(line="U1", stop=2, tourists=("U2",))).then_refused("not-an-opponent-line")
    given(GAME, state).when(Disembark(line="U1", stop=2, tourists=("D2", "D2"))).then_refused("non-canonical-choice")
    (
        given(GAME, table(lines={"U1": "..C...."}))
        .when(Disembark(line="U1", stop=2, tourists=("D1", "D2")))
        .then_refused("too-many-tourists")
    )
    declined = given(GAME, state).when(Disembark(line="U1", stop=2)).state
    assert declined.platform_tourists == 6


def test_a_commuter_can_only_be_disembarked_from_its_own_line() -> None:
    """Rulebook, Board: Commuters never ride the other player's lines, so only your own line's Commuters
    Disembark; the Commuter must stand on the named stop."""
    state = table(lines={"U1": "...C...", "D1": "...C..."})
    given(GAME, state).when(Disembark(line="D1", stop=3)).then_refused("not-your-line")
    given(GAME, state).when(Disembark(line="U1", stop=2)).then_refused("no-commuter-there")
    given(GAME, state).when(Disembark(line="U1", stop=9)).then_refused("no-commuter-there")


def test_repair_takes_any_out_of_service_card() -> None:
    """Reading 12: Repair may take any card on the shared Out of Service pile, not only your own."""
    state = table(out_of_service=("T09",))
    after = given(GAME, state).when(Repair(card="T09")).state
    assert after.out_of_service == () and after.discard_pile == ("T09",)
    given(GAME, state).when(Repair(card="T01")).then_refused("not-out-of-service")


def test_take_out_of_service_gains_the_card_value() -> None:
    """Rulebook, Out of Service: gain Fare Swipes equal to those shown on the card, from the Platform; a
    short Platform gives what it has (reading 11)."""
    state = table(hands=(("T03", "T01"), ()), fare_swipes=(0, 2), platform_fare_swipes=6)
    move = given(GAME, state).when(TakeOutOfService(card="T03"))
    events, after = move.events, move.state
    assert events[1] == CardTakenOutOfService(seat=UPTOWN, card="T03", fare_swipes=2)
    assert after.fare_swipes == (2, 2) and after.platform_fare_swipes == 4
    short = table(hands=(("T03",), ()), fare_swipes=(5, 2), platform_fare_swipes=1)
    assert given(GAME, short).when(TakeOutOfService(card="T03")).state.fare_swipes == (6, 2)
    given(GAME, state).when(TakeOutOfService(card="T07")).then_refused("card-not-in-hand")


def test_run_the_line_discards_only_cards_showing_the_chosen_line() -> None:
    """Reading 8: every discarded card must show the chosen line; the chosen line must be your own."""
    state = table(hands=(("T01", "T04", "T13"), ()), lines={"U1": "C......"})
    given(GAME, state).when(RunTheLine(line="U1", cards=("T01", "T04"))).then_refused("symbol-missing")
    given(GAME, state).when(RunTheLine(line="D1", cards=("T13",))).then_refused("not-your-line")
    given(GAME, state).when(RunTheLine(line="U1", cards=())).then_refused("missing-choice")
    given(GAME, state).when(RunTheLine(line="U1", cards=("T02",))).then_refused("card-not-in-hand")
    given(GAME, state).when(RunTheLine(line="U1", cards=("T13", "T01"))).then_refused("non-canonical-choice")


def test_run_the_line_with_a_dual_card_moves_the_opponent_line_too() -> None:
    """Rulebook, Run the Line: a card with 2 symbols moves the riders of both lines (spacebiff: cards move
    your rival's passengers too)."""
    state = table(hands=(("T14",), ()), lines={"U1": "C......", "D2": "..C...."})
    move = given(GAME, state).when(RunTheLine(line="U1", cards=("T14",)))
    events, after = move.events, move.state
    assert of_type(events, RidersMoved) == [
        RidersMoved(line="U1", stops=1, moves=(RiderMove(from_stop=0, to_stop=1),)),
        RidersMoved(line="D2", stops=1, moves=(RiderMove(from_stop=2, to_stop=3),)),
    ]
    assert track(after, "D2") == "...C..."


def test_run_the_line_with_no_riders_still_discards() -> None:
    """Rulebook, Run the Line: the discard happens even when no rider is on the line."""
    move = given(GAME, table(hands=(("T01",), ()))).when(RunTheLine(line="U1", cards=("T01",)))
    events, after = move.events, move.state
    assert of_type(events, RidersMoved) == [RidersMoved(line="U1", stops=1)]
    assert after.discard_pile == ("T01",)


def test_the_same_action_may_be_taken_twice_and_two_actions_end_the_phase() -> None:
    """Rulebook, Action Phase: any combination of up to 2 actions, the same one twice allowed (reading 16);
    after the second, the Action Phase ends and Upkeep follows."""
    state = table(hands=(("T01", "T02", "T03"), ("T07", "T08", "T09")), lines={"U1": "C......"})
    state = given(GAME, state).when(RunTheLine(line="U1", cards=("T01",))).state
    move = given(GAME, state).when(RunTheLine(line="U1", cards=("T02",)))
    events, state = move.events, move.state
    assert names(events)[2:] == ["riders-moved", "action-phase-ended", "cards-discarded", "cards-drawn", "turn-passed"]
    assert track(state, "U1") == "..C...." and state.active_seat == DOWNTOWN and state.actions_left == 2


def test_a_seat_may_end_its_action_phase_early() -> None:
    """Rulebook, Action Phase: you do not need to use both of your actions."""
    state = table(hands=(("T01", "T02", "T03"), ("T07", "T08", "T09")))
    move = given(GAME, state).when(EndActions())
    events, after = move.events, move.state
    assert events[0] == ActionPhaseEnded(seat=UPTOWN, early=True)
    assert after.active_seat == DOWNTOWN and after.hands[UPTOWN] != ("T01", "T02", "T03")


def test_board_twice_in_one_turn() -> None:
    """Rulebook, Board, with reading 16: Board both lines in one Action Phase, paying each time."""
    state = table(hands=((), ("T07", "T08", "T09")), fare_swipes=(4, 2), platform_fare_swipes=2)
    state = given(GAME, state).when(Board(line="U1")).state
    state = given(GAME, state).when(Board(line="U2")).state
    assert (track(state, "U1"), track(state, "U2")) == ("C......", "C......")
    assert state.fare_swipes == (0, 2) and state.platform_fare_swipes == 6 and state.commuters_in_pool(UPTOWN) == 1
    assert GAME.to_move(state) == [DOWNTOWN]
