"""The worked examples of rules/expect-delays.md ("Worked examples to reproduce as rule tests"), one test each."""

from __future__ import annotations

from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import (
    Board,
    Disembark,
    Repair,
    RunTheLine,
    TakeOutOfService,
)
from domain.games.expect_delays.events import (
    ActionPhaseEnded,
    ActionTaken,
    AdvisoryRevealed,
    CardRepaired,
    CardsDiscarded,
    CardsDrawn,
    CardTakenOutOfService,
    CommuterBoarded,
    CommuterDisembarked,
    FareSwipesReturned,
    GameOver,
    RiderMove,
    RidersMoved,
    TouristBoarded,
    TrainDeckShuffled,
    TurnPassed,
)
from tests.games.expect_delays.tables import DOWNTOWN, UPTOWN, table, track
from tests.games.given import given, names, of_type


def test_example_1_run_the_line_moves_both_lines_of_a_dual_card() -> None:
    """Example 1 (rulebook, Run the Line): Uptown discards 2 cards showing the chosen line; its riders move
    2 stops; one card also shows a second line, whose riders move 1 stop."""
    state = table(hands=(("T01", "T13", "T04"), ()), lines={"U1": "C.t....", "D1": ".C....."})

    move = given(GAME, state).when(RunTheLine(line="U1", cards=("T01", "T13")))
    events, after = move.events, move.state

    assert events == [
        ActionTaken(seat=UPTOWN, action="run-the-line"),
        CardsDiscarded(seat=UPTOWN, cards=("T01", "T13")),
        RidersMoved(line="U1", stops=2, moves=(RiderMove(from_stop=2, to_stop=4), RiderMove(from_stop=0, to_stop=2))),
        RidersMoved(line="D1", stops=1, moves=(RiderMove(from_stop=1, to_stop=2),)),
    ]
    assert (track(after, "U1"), track(after, "D1")) == ("..C.t..", "..C....")
    assert after.hands[UPTOWN] == ("T04",) and after.discard_pile == ("T01", "T13")
    assert after.actions_left == 1


def test_example_2_action_phase_example() -> None:
    """Example 2 (rulebook, Action Phase Example): Run the Line discarding 3 cards moves the line's riders
    3 stops; Disembark from the 0 stop of the other line scores 0, boards a Tourist on an open 0 stop of an
    opponent line, and the active Fare Dispute (SA13) makes the opponent return half their swipes.
    Two actions used: the Action Phase ends (and Upkeep follows)."""
    deck = ("T07", "T08", "T09", "T10", "T11")
    state = table(
        hands=(("T01", "T02", "T03"), ("T12", "T14", "T15")),
        deck=deck,
        lines={"U1": ".C.....", "U2": "C......"},
        active_advisory="SA13",
        fare_swipes=(0, 5),
        platform_fare_swipes=3,
    )

    move = given(GAME, state).when(RunTheLine(line="U1", cards=("T01", "T02", "T03")))
    first, state = move.events, move.state
    assert of_type(first, RidersMoved) == [RidersMoved(line="U1", stops=3, moves=(RiderMove(from_stop=1, to_stop=4),))]
    assert state.actions_left == 1

    move = given(GAME, state).when(Disembark(line="U2", stop=0, tourists=("D1",)))
    second, state = move.events, move.state
    assert second == [
        ActionTaken(seat=UPTOWN, action="disembark"),
        CommuterDisembarked(seat=UPTOWN, line="U2", stop=0, points=0),
        TouristBoarded(line="D1"),
        FareSwipesReturned(seat=DOWNTOWN, count=2),
        ActionPhaseEnded(seat=UPTOWN, early=False),
        CardsDrawn(seat=UPTOWN, cards=("T07", "T08", "T09"), count=3),
        TurnPassed(seat=DOWNTOWN, turn=2),
    ]
    assert state.points == (0, 0) and state.fare_swipes == (0, 3) and state.platform_fare_swipes == 5
    assert track(state, "D1") == "t......" and state.platform_tourists == 5


def test_example_3_board_pays_the_fare_and_its_refusals() -> None:
    """Example 3 (rulebook, Board): Boarding pays 2 Fare Swipes to the Platform; it is refused with 3
    Commuters already out, with fewer than 2 swipes, on an occupied 0 stop, or on an opponent line."""
    state = table(fare_swipes=(2, 2), platform_fare_swipes=4)
    move = given(GAME, state).when(Board(line="U1"))
    events, after = move.events, move.state
    assert events[1] == CommuterBoarded(seat=UPTOWN, line="U1", fare_paid=2)
    assert after.fare_swipes == (0, 2) and after.platform_fare_swipes == 6 and track(after, "U1") == "C......"

    all_out = table(fare_swipes=(2, 2), platform_fare_swipes=4, lines={"U1": ".C.C...", "U2": "..C...."})
    given(GAME, all_out).when(Board(line="U2")).then_refused("no-commuter-in-pool")
    (
        given(GAME, table(fare_swipes=(1, 2), platform_fare_swipes=5))
        .when(Board(line="U1"))
        .then_refused("not-enough-fare-swipes")
    )
    occupied = table(fare_swipes=(2, 2), platform_fare_swipes=4, lines={"U1": "t......"})
    given(GAME, occupied).when(Board(line="U1")).then_refused("stop-occupied")
    given(GAME, state).when(Board(line="D1")).then_refused("not-your-line")


def test_example_4_out_of_service_with_an_empty_platform() -> None:
    """Example 4 (rulebook, Out of Service; reading 11): with no swipes on the Platform the card still goes
    Out of Service and no swipes are gained."""
    state = table(hands=(("T03", "T04", "T05"), ()), fare_swipes=(6, 2), platform_fare_swipes=0)

    move = given(GAME, state).when(TakeOutOfService(card="T03"))
    events, after = move.events, move.state

    assert events[1] == CardTakenOutOfService(seat=UPTOWN, card="T03", fare_swipes=0)
    assert after.out_of_service == ("T03",) and after.fare_swipes == (6, 2) and after.hands[UPTOWN] == ("T04", "T05")


def test_example_5_upkeep_reshuffles_and_reveals_then_breaks_down() -> None:
    """Example 5 (rulebook, Upkeep; readings 1, 2): with fewer than 3 cards in the deck, the Discard pile is
    shuffled in and a new Service Advisory replaces the active one; when 3 still cannot be drawn, the game
    ends at once."""
    state = table(
        hands=(("T01",), ("T07", "T08", "T09")),
        deck=("T02", "T03"),
        discard=("T04", "T05"),
        out_of_service=("T06", "T10", "T11", "T12", "T13", "T14", "T15", "T16"),
        actions_left=1,
        active_advisory="SA07",
        advisory_deck=("SA02", "SA03", "SA04"),
    )
    move = given(GAME, state).when(Repair(card="T06"))
    events, after = move.events, move.state
    assert names(events) == [
        "action-taken", "card-repaired", "action-phase-ended", "cards-discarded",
        "train-deck-shuffled", "advisory-revealed", "cards-drawn", "turn-passed",
    ]
    shuffled = of_type(events, TrainDeckShuffled)[0]
    assert sorted(shuffled.order) == ["T01", "T02", "T03", "T04", "T05", "T06"]
    assert of_type(events, AdvisoryRevealed) == [AdvisoryRevealed(advisory="SA02", next="SA03")]
    assert after.active_advisory == "SA02" and after.advisory_discard == ("SA07",) and after.next_advisory == "SA03"
    assert len(after.train_deck) == 3 and len(after.hands[UPTOWN]) == 3 and after.end_reason is None

    broken = table(
        hands=(("T01",), ("T07", "T08", "T09")),
        deck=(),
        discard=("T02",),
        out_of_service=("T03", "T04", "T05", "T06", "T10", "T11", "T12", "T13", "T14", "T15", "T16"),
        actions_left=1,
        advisory_deck=("SA02", "SA03"),
    )
    move = given(GAME, broken).when(TakeOutOfService(card="T01"))
    events, after = move.events, move.state
    assert names(events) == [
        "action-taken", "card-taken-out-of-service", "action-phase-ended",
        "train-deck-shuffled", "advisory-revealed", "game-over",
    ]
    assert events[-1] == GameOver(reason="subway-broken-down")
    assert after.hands[UPTOWN] == () and GAME.outcome(after) is not None


def test_example_6_ten_points_end_the_game_and_ties_are_broken() -> None:
    """Example 6 (rulebook, Ending the Game; readings 13, 14): the 10th Destination Point ends the game at
    once; a tie goes to most riders on one's own lines, then most Fare Swipes."""
    state = table(points=(8, 9), lines={"U1": "....C.."})
    given(GAME, state).when(Disembark(line="U1", stop=4, tourists=("D1",))).then_refused("choice-not-applicable")
    move = given(GAME, state).when(Disembark(line="U1", stop=4))
    events, after = move.events, move.state
    assert names(events) == ["action-taken", "commuter-disembarked", "game-over"]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.reason == "ten-points"
    assert [(r.seat, r.rank, r.winner) for r in outcome.results] == [(0, 1, True), (1, 2, False)]

    def ranks(**changes: object) -> list[int]:
        done = table(points=(4, 4), end_reason="subway-broken-down", **changes)
        result = GAME.outcome(done)
        assert result is not None
        return [r.rank for r in result.results]

    assert ranks(lines={"D1": "C.....t"}, fare_swipes=(5, 0), platform_fare_swipes=3) == [2, 1]
    assert ranks(lines={"U1": "t......", "D1": "C......"}, fare_swipes=(1, 0), platform_fare_swipes=7) == [1, 2]
    assert ranks(fare_swipes=(1, 1), platform_fare_swipes=6) == [1, 1]


def test_example_7_tourists() -> None:
    """Example 7 (rulebook, Disembark): a Tourist moved off the last stop returns to the Platform; Tourists
    cannot be Disembarked; no Tourist boards when the Platform has none."""
    state = table(hands=(("T01", "T02"), ()), lines={"U1": "......t"}, platform_tourists=5)
    move = given(GAME, state).when(RunTheLine(line="U1", cards=("T01",)))
    events, after = move.events, move.state
    off_the_line = RiderMove(from_stop=6, to_stop=None)
    assert of_type(events, RidersMoved) == [RidersMoved(line="U1", stops=1, moves=(off_the_line,))]
    assert track(after, "U1") == "......." and after.platform_tourists == 6

    given(GAME, table(lines={"U1": "..t...."})).when(Disembark(line="U1", stop=2)).then_refused("no-commuter-there")

    empty = table(lines={"U1": "..C...."}, platform_tourists=0)
    given(GAME, empty).when(Disembark(line="U1", stop=2, tourists=("D1",))).then_refused("no-tourists-left")
    listed = [c for c in GAME.legal(empty, UPTOWN) if isinstance(c, Disembark)]
    assert listed == [Disembark(line="U1", stop=2)]


def test_example_8_repair_and_the_out_of_service_pile() -> None:
    """Example 8 (rulebook, Repair; Upkeep): Repair puts an Out of Service card into the Discard pile; cards
    still Out of Service are never shuffled back into the Train deck."""
    state = table(
        hands=(("T01", "T02", "T03"), ("T07", "T08", "T09")),
        deck=("T10",),
        discard=("T11", "T12"),
        out_of_service=("T04", "T05", "T06"),
        advisory_deck=("SA01", "SA02"),
    )
    move = given(GAME, state).when(Repair(card="T05"))
    events, after = move.events, move.state
    assert events == [ActionTaken(seat=UPTOWN, action="repair"), CardRepaired(card="T05")]
    assert after.out_of_service == ("T04", "T06") and after.discard_pile == ("T11", "T12", "T05")

    events = given(GAME, after).when(Repair(card="T04")).events
    shuffled = of_type(events, TrainDeckShuffled)[0]
    assert sorted(shuffled.order) == ["T01", "T02", "T03", "T04", "T05", "T10", "T11", "T12"]
    assert "T06" not in shuffled.order
