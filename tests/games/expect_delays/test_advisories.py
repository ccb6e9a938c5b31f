"""The 18 Service Advisories (rulebook, "Use Service Advisory"; DEFAULT card data; readings 5, 15, 18).

New Action advisories cost an action to use; Event advisories change rules while active; Transfer
advisories fire when a Commuter Disembarks from a ◇ stop (DEFAULT ◇ stops: 0, 3, 5).
"""

from __future__ import annotations

from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import (
    Board,
    Disembark,
    RunTheLine,
    TakeOutOfService,
    UseServiceAdvisory,
)
from domain.games.expect_delays.components import ADVISORIES
from domain.games.expect_delays.events import (
    ActionTaken,
    CardRepaired,
    CardsDiscarded,
    CardsDrawn,
    CardTakenOutOfService,
    CommuterBoarded,
    ExtraActionGained,
    FareSwipesGained,
    FareSwipesReturned,
    RiderMove,
    RidersMoved,
    TouristBoarded,
    TouristReturned,
)
from tests.games.expect_delays.tables import DOWNTOWN, UPTOWN, table, track
from tests.games.given import given, of_type


def test_the_deck_has_six_advisories_of_each_kind() -> None:
    """Rulebook, Components: 18 Service Advisory cards of three kinds (the 6/6/6 split is DEFAULT)."""
    kinds = [advisory.kind for advisory in ADVISORIES.values()]
    assert len(kinds) == 18 and {kind: kinds.count(kind) for kind in set(kinds)} == {
        "new-action": 6, "event": 6, "transfer": 6,
    }


# New Action advisories: each use costs one action (reading 15).


def test_sa01_express_run_moves_one_own_line() -> None:
    """SA01 Express Run: every rider on one of your lines moves 1 stop."""
    state = table(active_advisory="SA01", lines={"U2": "C.t...."})
    move = given(GAME, state).when(UseServiceAdvisory(line="U2"))
    events, after = move.events, move.state
    assert events == [
        ActionTaken(seat=UPTOWN, action="use-service-advisory"),
        RidersMoved(line="U2", stops=1, moves=(RiderMove(from_stop=2, to_stop=3), RiderMove(from_stop=0, to_stop=1))),
    ]
    assert track(after, "U2") == ".C.t..." and after.actions_left == 1
    given(GAME, state).when(UseServiceAdvisory(line="D1")).then_refused("not-your-line")
    given(GAME, state).when(UseServiceAdvisory()).then_refused("missing-choice")
    given(GAME, state).when(UseServiceAdvisory(line="U2", stop=2)).then_refused("choice-not-applicable")


def test_sa02_fare_collection_gains_a_swipe() -> None:
    """SA02 Fare Collection: gain 1 Fare Swipe from the Platform (none when it is empty, reading 11)."""
    move = given(GAME, table(active_advisory="SA02")).when(UseServiceAdvisory())
    events, after = move.events, move.state
    assert events[1:] == [FareSwipesGained(seat=UPTOWN, count=1)] and after.fare_swipes == (1, 2)
    empty = table(active_advisory="SA02", fare_swipes=(6, 2), platform_fare_swipes=0)
    move = given(GAME, empty).when(UseServiceAdvisory())
    events, after = move.events, move.state
    assert events == [ActionTaken(seat=UPTOWN, action="use-service-advisory")] and after.actions_left == 1
    given(GAME, empty).when(UseServiceAdvisory(line="U1")).then_refused("choice-not-applicable")


def test_sa03_night_crew_repairs_up_to_two_cards() -> None:
    """SA03 Night Crew: Repair 1 or 2 Out of Service cards as one action."""
    state = table(active_advisory="SA03", out_of_service=("T02", "T05", "T09"))
    move = given(GAME, state).when(UseServiceAdvisory(cards=("T02", "T09")))
    events, after = move.events, move.state
    assert events[1:] == [CardRepaired(card="T02"), CardRepaired(card="T09")]
    assert after.out_of_service == ("T05",) and after.discard_pile == ("T02", "T09")
    given(GAME, state).when(UseServiceAdvisory(cards=("T02", "T05", "T09"))).then_refused("too-many-cards")
    given(GAME, state).when(UseServiceAdvisory(cards=("T01",))).then_refused("not-out-of-service")
    given(GAME, state).when(UseServiceAdvisory(cards=("T09", "T02"))).then_refused("non-canonical-choice")
    given(GAME, state).when(UseServiceAdvisory()).then_refused("missing-choice")


def test_sa04_card_swap_discards_then_draws_without_reshuffling() -> None:
    """SA04 Card Swap: discard 1 card, draw 1; with an empty deck nothing is drawn (reading 18)."""
    state = table(active_advisory="SA04", hands=(("T01", "T07"), ()), deck=("T10", "T11"))
    move = given(GAME, state).when(UseServiceAdvisory(cards=("T07",)))
    events, after = move.events, move.state
    assert events[1:] == [CardsDiscarded(seat=UPTOWN, cards=("T07",)), CardsDrawn(seat=UPTOWN, cards=("T10",), count=1)]
    assert after.hands[UPTOWN] == ("T01", "T10") and after.train_deck == ("T11",)
    dry = table(active_advisory="SA04", hands=(("T01", "T07"), ()), deck=(), discard=("T02",))
    move = given(GAME, dry).when(UseServiceAdvisory(cards=("T07",)))
    events, after = move.events, move.state
    assert events[1:] == [CardsDiscarded(seat=UPTOWN, cards=("T07",))] and after.discard_pile == ("T02", "T07")
    given(GAME, state).when(UseServiceAdvisory(cards=("T02",))).then_refused("card-not-in-hand")
    given(GAME, state).when(UseServiceAdvisory(cards=("T01", "T07"))).then_refused("too-many-cards")


def test_sa05_free_boarding_boards_without_paying() -> None:
    """SA05 Free Boarding: Board a Commuter without paying the fare (the Board rules still hold)."""
    state = table(active_advisory="SA05", fare_swipes=(0, 2))
    move = given(GAME, state).when(UseServiceAdvisory(line="U1"))
    events, after = move.events, move.state
    assert events[1:] == [CommuterBoarded(seat=UPTOWN, line="U1", fare_paid=0)] and after.fare_swipes == (0, 2)
    (
        given(GAME, table(active_advisory="SA05", lines={"U1": "t......"}))
        .when(UseServiceAdvisory(line="U1"))
        .then_refused("stop-occupied")
    )
    full = table(active_advisory="SA05", lines={"U1": ".C.C...", "U2": ".C....."})
    given(GAME, full).when(UseServiceAdvisory(line="U2")).then_refused("no-commuter-in-pool")


def test_sa06_tourist_shuttle_returns_a_tourist_from_your_line() -> None:
    """SA06 Tourist Shuttle: one Tourist on one of your lines goes back to the Platform."""
    state = table(active_advisory="SA06", lines={"U1": "C.t...."}, platform_tourists=5)
    move = given(GAME, state).when(UseServiceAdvisory(line="U1", stop=2))
    events, after = move.events, move.state
    assert events[1:] == [TouristReturned(line="U1", stop=2)]
    assert track(after, "U1") == "C......" and after.platform_tourists == 6
    given(GAME, state).when(UseServiceAdvisory(line="U1", stop=0)).then_refused("no-tourist-there")
    given(GAME, state).when(UseServiceAdvisory(line="U1")).then_refused("missing-choice")


# Event advisories: always in effect while active; they cost no action and cannot be "used" (reading 15).


def test_sa07_fare_holiday_and_sa08_rush_hour_change_the_board_cost() -> None:
    """SA07 Fare Holiday: Board costs 1. SA08 Rush Hour: Board costs 3."""
    holiday = table(active_advisory="SA07", fare_swipes=(1, 2), platform_fare_swipes=5)
    assert of_type(given(GAME, holiday).when(Board(line="U1")).events, CommuterBoarded)[0].fare_paid == 1
    rush = table(active_advisory="SA08", fare_swipes=(2, 2), platform_fare_swipes=4)
    given(GAME, rush).when(Board(line="U1")).then_refused("not-enough-fare-swipes")
    assert Board(line="U1") not in GAME.legal(rush, UPTOWN)
    given(GAME, rush).when(UseServiceAdvisory()).then_refused("advisory-not-an-action")


def test_sa09_ice_on_the_tracks_caps_a_run_at_two_stops() -> None:
    """SA09 Ice on the Tracks: a line moves at most 2 stops per Run the Line (more cards may still be
    discarded)."""
    state = table(active_advisory="SA09", hands=(("T01", "T02", "T03"), ()), lines={"U1": "C......"})
    move = given(GAME, state).when(RunTheLine(line="U1", cards=("T01", "T02", "T03")))
    events, after = move.events, move.state
    assert of_type(events, RidersMoved)[0].stops == 2 and track(after, "U1") == "..C...."


def test_sa10_signal_problems_dual_cards_move_the_chosen_line_only() -> None:
    """SA10 Signal Problems: a two-symbol card moves only the line chosen for Run the Line (the command's
    `line` is that choice)."""
    state = table(active_advisory="SA10", hands=(("T13",), ()), lines={"U1": "C......", "D1": "C......"})
    move = given(GAME, state).when(RunTheLine(line="U1", cards=("T13",)))
    events, after = move.events, move.state
    assert [moved.line for moved in of_type(events, RidersMoved)] == ["U1"]
    assert (track(after, "U1"), track(after, "D1")) == (".C.....", "C......")


def test_sa11_budget_cuts_lowers_out_of_service_gains() -> None:
    """SA11 Budget Cuts: taking a card Out of Service gains 1 Fare Swipe less (never below 0)."""
    state = table(active_advisory="SA11", hands=(("T03", "T01"), ()))
    cuts = given(GAME, state)
    assert cuts.when(TakeOutOfService(card="T03")).events[1] == CardTakenOutOfService(seat=0, card="T03", fare_swipes=1)
    assert cuts.when(TakeOutOfService(card="T01")).events[1] == CardTakenOutOfService(seat=0, card="T01", fare_swipes=0)


def test_sa12_tourist_season_boards_two_tourists_per_disembark() -> None:
    """SA12 Tourist Season: a Disembark may board 2 Tourists (each on a different open opponent 0 stop)."""
    state = table(active_advisory="SA12", lines={"U1": "..C...."})
    move = given(GAME, state).when(Disembark(line="U1", stop=2, tourists=("D1", "D2")))
    events, after = move.events, move.state
    assert of_type(events, TouristBoarded) == [TouristBoarded(line="D1"), TouristBoarded(line="D2")]
    assert after.platform_tourists == 4
    one_left = table(active_advisory="SA12", lines={"U1": "..C...."}, platform_tourists=1)
    given(GAME, one_left).when(Disembark(line="U1", stop=2, tourists=("D1", "D2"))).then_refused("no-tourists-left")


# Transfer advisories: fire on a Disembark from a ◇ stop, after scoring and the Tourist (reading 19).


def test_sa13_fare_dispute_rounds_down() -> None:
    """SA13 Fare Dispute (the rulebook's example): the opponent returns half their swipes, rounded down;
    nothing happens when that is 0."""
    state = table(active_advisory="SA13", lines={"U1": "...C..."}, fare_swipes=(0, 3), platform_fare_swipes=5)
    move = given(GAME, state).when(Disembark(line="U1", stop=3))
    events, after = move.events, move.state
    assert of_type(events, FareSwipesReturned) == [FareSwipesReturned(seat=DOWNTOWN, count=1)]
    assert after.fare_swipes == (0, 2) and after.platform_fare_swipes == 6
    poor = table(active_advisory="SA13", lines={"U1": "...C..."}, fare_swipes=(0, 1), platform_fare_swipes=7)
    assert of_type(given(GAME, poor).when(Disembark(line="U1", stop=3)).events, FareSwipesReturned) == []


def test_sa14_lucky_metrocard_gains_two_swipes() -> None:
    """SA14 Lucky MetroCard: gain 2 Fare Swipes (at most what the Platform holds)."""
    state = table(active_advisory="SA14", lines={"U1": ".....C."})
    assert of_type(given(GAME, state).when(Disembark(line="U1", stop=5)).events, FareSwipesGained) == [
        FareSwipesGained(seat=UPTOWN, count=2)
    ]
    short = table(active_advisory="SA14", lines={"U1": ".....C."}, fare_swipes=(5, 2), platform_fare_swipes=1)
    assert given(GAME, short).when(Disembark(line="U1", stop=5)).state.fare_swipes == (6, 2)


def test_sa15_maintenance_crew_repairs_a_chosen_card_or_none() -> None:
    """SA15 Maintenance Crew: Repair 1 Out of Service card, chosen in the Disembark command (None declines)."""
    state = table(active_advisory="SA15", lines={"U1": "...C..."}, out_of_service=("T04", "T08"))
    move = given(GAME, state).when(Disembark(line="U1", stop=3, repair="T08"))
    events, after = move.events, move.state
    assert of_type(events, CardRepaired) == [CardRepaired(card="T08")] and after.out_of_service == ("T04",)
    assert of_type(given(GAME, state).when(Disembark(line="U1", stop=3)).events, CardRepaired) == []
    given(GAME, state).when(Disembark(line="U1", stop=3, repair="T01")).then_refused("not-out-of-service")
    given(GAME, state).when(Disembark(line="U1", stop=3, board="U2")).then_refused("choice-not-applicable")


def test_sa16_quick_transfer_boards_free_even_on_the_stop_just_left() -> None:
    """SA16 Quick Transfer: Board a Commuter without fare; the 0 stop the Disembarked Commuter left is open."""
    state = table(active_advisory="SA16", lines={"U1": "C......", "U2": "t......"}, fare_swipes=(0, 2))
    move = given(GAME, state).when(Disembark(line="U1", stop=0, board="U1"))
    events, after = move.events, move.state
    assert of_type(events, CommuterBoarded) == [CommuterBoarded(seat=UPTOWN, line="U1", fare_paid=0)]
    assert track(after, "U1") == "C......"
    given(GAME, state).when(Disembark(line="U1", stop=0, board="U2")).then_refused("stop-occupied")
    given(GAME, state).when(Disembark(line="U1", stop=0, board="D1")).then_refused("not-your-line")


def test_sa17_extra_hands_draws_a_card_into_a_hand_of_four() -> None:
    """SA17 Extra Hands: draw 1 Train card; Run the Line then takes any number of cards (reading 18)."""
    state = table(active_advisory="SA17", hands=(("T01", "T02", "T03"), ()), deck=("T14", "T10"),
                  lines={"U1": "C....C."})
    move = given(GAME, state).when(Disembark(line="U1", stop=5))
    events, after = move.events, move.state
    assert of_type(events, CardsDrawn) == [CardsDrawn(seat=UPTOWN, cards=("T14",), count=1)]
    assert len(after.hands[UPTOWN]) == 4
    move = given(GAME, after).when(RunTheLine(line="U1", cards=("T01", "T02", "T03", "T14")))
    events, after = move.events, move.state
    assert track(after, "U1") == "....C.."


def test_sa18_service_change_gives_a_third_action() -> None:
    """SA18 Service Change: one more action this Action Phase."""
    state = table(active_advisory="SA18", hands=(("T01", "T02"), ()), lines={"U1": "...C..."}, actions_left=1)
    move = given(GAME, state).when(Disembark(line="U1", stop=3))
    events, after = move.events, move.state
    assert of_type(events, ExtraActionGained) == [ExtraActionGained(seat=UPTOWN, count=1)]
    assert after.actions_left == 1 and after.active_seat == UPTOWN


def test_a_transfer_fires_only_on_a_transfer_stop() -> None:
    """Reading 5: Transfer advisories fire on a Disembark from a ◇ stop only (DEFAULT ◇ stops 0, 3, 5)."""
    state = table(active_advisory="SA14", lines={"U1": ".C....."})
    events = given(GAME, state).when(Disembark(line="U1", stop=1)).events
    assert of_type(events, FareSwipesGained) == []
    given(GAME, state).when(UseServiceAdvisory()).then_refused("advisory-not-an-action")


def test_no_advisory_can_be_used_before_one_is_revealed() -> None:
    """Reading 3: no advisory is in effect until the first reshuffle, so none can be used."""
    given(GAME, table()).when(UseServiceAdvisory()).then_refused("no-advisory-active")
