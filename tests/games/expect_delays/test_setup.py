"""Set-up (rulebook, "Setup" steps 1-6; readings 1 and 3) and match options (reading 20)."""

from __future__ import annotations

import pytest

from domain import match
from domain.engine import Refusal
from domain.games.expect_delays import GAME
from domain.games.expect_delays.components import SETUP
from domain.games.expect_delays.events import AdvisoryDeckShuffled, CardsDrawn, GameSetUp, TrainDeckShuffled
from domain.games.expect_delays.options import Options
from domain.rng import Rng
from tests.games.expect_delays.tables import DOWNTOWN, UPTOWN
from tests.games.given import given


def set_up(seed: str = "setup") -> list:
    return list(GAME.start(Options(), 2, Rng.derive(seed, 0)))


def test_setup_shuffles_both_decks_and_deals_three_cards_each() -> None:
    """Setup 2-3: shuffle the Train deck and deal each player 3 cards; shuffle the Service Advisory deck."""
    events = set_up()
    assert [type(e) for e in events] == [GameSetUp, TrainDeckShuffled, AdvisoryDeckShuffled, CardsDrawn, CardsDrawn]
    deck, advisories = events[1], events[2]
    assert sorted(deck.order) == [f"T{n:02}" for n in range(1, 17)] and deck.size == 16
    assert sorted(advisories.order) == [f"SA{n:02}" for n in range(1, 19)] and advisories.size == 18
    assert events[3] == CardsDrawn(seat=UPTOWN, cards=deck.order[:3], count=3)
    assert events[4] == CardsDrawn(seat=DOWNTOWN, cards=deck.order[3:6], count=3)


def test_setup_table() -> None:
    """Setup 4-6 and Gameplay: 3 Commuters each, Downtown starts with 2 Fare Swipes and Uptown with none,
    the rest on the Platform with the 6 Tourists; Uptown goes first with 2 actions."""
    state = given(GAME, None, *set_up()).state  # type: ignore[arg-type]
    assert state.active_seat == UPTOWN and state.actions_left == 2 and state.turn == 1
    assert state.fare_swipes == (0, 2) and state.platform_fare_swipes == 6 and state.platform_tourists == 6
    assert state.commuters_in_pool(UPTOWN) == state.commuters_in_pool(DOWNTOWN) == SETUP.commuters_per_seat
    assert len(state.train_deck) == 10 and all(len(hand) == 3 for hand in state.hands)


def test_no_advisory_is_in_effect_at_the_start_but_the_next_one_is_readable() -> None:
    """Setup 3 and reading 3: no Service Advisory is in effect at the start; the deck lies face up, so the
    next card is public (reading 1: `active_advisory` and `next_advisory` are modelled apart)."""
    events = set_up()
    state = given(GAME, None, *events).state  # type: ignore[arg-type]
    assert state.active_advisory is None
    assert state.next_advisory == events[2].order[0]
    assert GAME.view(state, DOWNTOWN).next_advisory == events[2].order[0]


def test_set_up_depends_only_on_the_seed() -> None:
    """Every random outcome is written into the events: the same seed gives the same set-up."""
    assert set_up("a") == set_up("a") and set_up("a") != set_up("b")


def test_max_turns_option_defaults_to_300_and_is_validated() -> None:
    """Reading 20: `max_turns` (default 300) is an engine limit; nonsense and unknown options are refused."""
    assert Options().max_turns == 300
    started = match.open_match(GAME, ["a", "b"], {"max_turns": 12}, "seed")
    assert isinstance(started[1], GameSetUp) and started[1].max_turns == 12
    for bad in ({"max_turns": 0}, {"max_turn": 5}):
        with pytest.raises(Refusal) as refused:
            match.open_match(GAME, ["a", "b"], bad, "seed")
        assert refused.value.code == "bad-options"


def test_the_game_is_for_two_seats() -> None:
    """Expect Delays is a two-player game (rulebook, Object of the Game)."""
    with pytest.raises(Refusal) as refused:
        match.open_match(GAME, ["a", "b", "c"], {}, "seed")
    assert refused.value.code == "bad-seat-count"
