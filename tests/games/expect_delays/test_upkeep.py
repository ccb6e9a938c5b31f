"""The Upkeep Phase (rulebook, "B. Upkeep Phase"; readings 1-4, 18)."""

from __future__ import annotations

from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import Disembark, EndActions
from domain.games.expect_delays.events import (
    ActionPhaseEnded,
    AdvisoryDeckShuffled,
    AdvisoryRevealed,
    CardsDiscarded,
    CardsDrawn,
    GameOver,
    TrainDeckShuffled,
    TurnPassed,
)
from tests.games.expect_delays.tables import DOWNTOWN, UPTOWN, table
from tests.games.given import given, names, of_type

ALL_BUT = ("T04", "T05", "T06", "T07", "T08", "T09", "T10", "T11", "T12", "T13", "T14", "T15", "T16")


def test_upkeep_discards_the_hand_and_draws_three_from_the_top() -> None:
    """Rulebook, Upkeep: discard all remaining cards, then draw 3 new ones; no reshuffle while 3 remain."""
    state = table(hands=(("T01", "T02"), ("T04", "T05", "T06")), deck=("T07", "T08", "T09", "T10"))
    move = given(GAME, state).when(EndActions())
    events, after = move.events, move.state
    assert events == [
        ActionPhaseEnded(seat=UPTOWN, early=True),
        CardsDiscarded(seat=UPTOWN, cards=("T01", "T02")),
        CardsDrawn(seat=UPTOWN, cards=("T07", "T08", "T09"), count=3),
        TurnPassed(seat=DOWNTOWN, turn=2),
    ]
    assert after.hands[UPTOWN] == ("T07", "T08", "T09") and after.train_deck == ("T10",)
    assert after.discard_pile == ("T01", "T02") and after.active_advisory is None


def test_a_reshuffle_takes_the_rest_of_the_deck_and_the_discard_pile() -> None:
    """Reading 2: the Discard pile (now holding the discarded hand) is shuffled together with the cards left
    in the deck, in one shuffle event, and the hand is drawn from its top."""
    state = table(hands=(("T01",), ("T04", "T05", "T06")), deck=("T02", "T03"), discard=("T07", "T08"),
                  out_of_service=("T09", "T10", "T11", "T12", "T13", "T14", "T15", "T16"), advisory_deck=("SA01",
                                                                                                        "SA02"))
    move = given(GAME, state).when(EndActions())
    events, after = move.events, move.state
    shuffles = of_type(events, TrainDeckShuffled)
    assert len(shuffles) == 1 and sorted(shuffles[0].order) == ["T01", "T02", "T03", "T07", "T08"]
    assert of_type(events, CardsDrawn) == [CardsDrawn(seat=UPTOWN, cards=shuffles[0].order[:3], count=3)]
    assert after.discard_pile == () and after.train_deck == shuffles[0].order[3:]


def test_every_reshuffle_reveals_a_new_advisory_that_replaces_the_active_one() -> None:
    """Rulebook, Upkeep: whenever the Train deck is shuffled, draw a new Service Advisory; the previous one
    is discarded."""
    state = table(hands=(("T01",), ("T04", "T05", "T06")), deck=("T02",), discard=("T03",),
                  active_advisory="SA09", advisory_deck=("SA12", "SA01", "SA07"))
    move = given(GAME, state).when(EndActions())
    events, after = move.events, move.state
    assert of_type(events, AdvisoryRevealed) == [AdvisoryRevealed(advisory="SA12", next="SA01")]
    assert (after.active_advisory, after.next_advisory, after.advisory_discard) == ("SA12", "SA01", ("SA09",))


def test_an_empty_advisory_deck_is_rebuilt_from_its_discards() -> None:
    """Reading 4: when the advisory deck runs out, its discards are shuffled into a new face-up deck."""
    state = table(hands=(("T01",), ("T04", "T05", "T06")), deck=("T02",), discard=("T03",),
                  active_advisory="SA04", advisory_deck=("SA05",), advisory_discard=("SA01", "SA02"))
    move = given(GAME, state).when(EndActions())
    events, after = move.events, move.state
    assert names(events)[2:5] == ["train-deck-shuffled", "advisory-revealed", "advisory-deck-shuffled"]
    assert of_type(events, AdvisoryRevealed) == [AdvisoryRevealed(advisory="SA05", next=None)]
    rebuilt = of_type(events, AdvisoryDeckShuffled)[0]
    assert sorted(rebuilt.order) == ["SA01", "SA02", "SA04"] and rebuilt.size == 3
    assert after.active_advisory == "SA05" and after.advisory_discard == () and after.next_advisory == rebuilt.order[0]


def test_the_subway_breaks_down_exactly_when_eleven_cards_are_out_of_service() -> None:
    """Reading 1: after the reshuffle, fewer than 3 cards to draw ends the game; with the opponent holding 3
    cards this happens exactly when 11 or more of the 16 are Out of Service."""
    ten_out = table(hands=(("T01", "T02", "T03"), ("T04", "T05", "T06")), deck=(), out_of_service=ALL_BUT[3:])
    move = given(GAME, ten_out).when(EndActions())
    events, after = move.events, move.state
    assert of_type(events, GameOver) == [] and len(after.hands[UPTOWN]) == 3
    eleven_out = table(hands=(("T01", "T02"), ("T04", "T05", "T06")), deck=(), out_of_service=ALL_BUT[3:] + ("T03",))
    move = given(GAME, eleven_out).when(EndActions())
    events, after = move.events, move.state
    assert events[-1] == GameOver(reason="subway-broken-down") and of_type(events, CardsDrawn) == []
    assert after.end_reason == "subway-broken-down" and after.hands[UPTOWN] == ()


def test_draws_during_the_action_phase_never_reshuffle() -> None:
    """Reading 18: a draw in the Action Phase (here Extra Hands, SA17) from an empty deck draws nothing;
    reshuffles happen only in Upkeep."""
    state = table(active_advisory="SA17", hands=(("T01",), ("T04", "T05", "T06")), deck=(), discard=("T02", "T03"),
                  lines={"U1": "...C..."})
    move = given(GAME, state).when(Disembark(line="U1", stop=3))
    events, after = move.events, move.state
    assert of_type(events, CardsDrawn) == [] and of_type(events, TrainDeckShuffled) == []
    assert after.discard_pile == ("T02", "T03")


def test_turns_alternate_and_are_counted() -> None:
    """Gameplay: Uptown goes first, then the seats alternate; `turn` counts every seat's turn."""
    state = table(hands=(("T01", "T02", "T03"), ("T04", "T05", "T06")), deck=ALL_BUT[3:])
    state = given(GAME, state).when(EndActions()).state
    assert (state.active_seat, state.turn, state.actions_left) == (DOWNTOWN, 2, 2)
    state = given(GAME, state).when(EndActions()).state
    assert (state.active_seat, state.turn) == (UPTOWN, 3)
