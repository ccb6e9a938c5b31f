"""The deck as data, dealing, the Suburbs mulligan and the first player (seed: Components, Setup)."""

from __future__ import annotations

from collections import Counter

import pytest

from domain import match
from domain.engine import Refusal
from domain.games.mass_transit import GAME
from domain.games.mass_transit.components import CARDS, DECK, DECK_IDS, LINES
from domain.games.mass_transit.events import Dealt, Mulligan
from domain.games.mass_transit.options import Options
from domain.games.mass_transit.setup import deal, start, suburbs_count
from domain.games.mass_transit.state import BIG_CITY, evolve
from domain.lifecycle import MatchEnded, Resign
from domain.rng import Rng
from tests.games.mass_transit.tables import card


def test_the_deck_has_52_cards_with_unique_ids() -> None:
    """Seed, Components: "52 Mass Transit cards"; every card has its own id for hidden-zone checks."""
    assert len(DECK) == 52
    assert len(set(DECK_IDS)) == 52
    assert all(c.startswith("MT") for c in DECK_IDS)


def test_movement_icons_urgent_and_features_match_the_rules_file_totals() -> None:
    """rules/mass-transit.md, cross-checks: Walk 9, Bus 11, Ferry 11, Train 11, Null 10; Urgent 13;
    Traffic Stops 6 per line; dead-end Stations 6 per line (2 of them on Suburbs cards)."""
    assert Counter(c.move for c in DECK) == {"walk": 9, "bus": 11, "ferry": 11, "train": 11, "null": 10}
    assert sum(c.urgent for c in DECK) == 13
    for line in LINES:
        assert sum(c.feature(line) == "traffic" for c in DECK) == 6
        assert sum(c.feature(line) == "station_deadend" for c in DECK) == 6
        assert sum(c.feature(line) == "station_deadend" and c.is_suburbs for c in DECK) == 2


def test_six_suburbs_two_per_mode_each_with_a_3_and_a_4() -> None:
    """Seed, Suburbs: "Six cards feature Suburbs—two for each type of transportation mode", distance 3 or 4."""
    suburbs = sorted((c.move, c.suburbs) for c in DECK if c.is_suburbs)
    assert suburbs == [("bus", 3), ("bus", 4), ("ferry", 3), ("ferry", 4), ("train", 3), ("train", 4)]
    for c in DECK:
        if c.is_suburbs:
            # Reading / data: a Suburbs card shows only its own mode's line, ending at a station.
            own = {"bus": "road", "ferry": "canal", "train": "rail"}[c.move]
            assert [c.feature(line) for line in LINES if line != own] == ["none", "none"]
            assert c.feature(own) == "station_deadend"


def test_null_and_suburbs_cards_cannot_be_discarded() -> None:
    """Seed, Null: "cannot be discarded to transport a Commuter"; reading 15: Suburbs cards are never discarded."""
    assert not CARDS[card(move="null")].discardable
    assert not CARDS[card(suburbs=3)].discardable
    assert CARDS[card(move="walk")].discardable
    assert all(c.urgent and c.has_traffic for c in DECK if c.move == "null" and c.urgent)


@pytest.mark.parametrize("seats", [1, 2, 4, 6])
def test_each_seat_is_dealt_four_and_the_rest_is_the_draw_pile(seats: int) -> None:
    """Seed, Setup: "deal each player four cards face down ... Place the remaining cards ... as the draw pile"."""
    events = start(Options(), seats, Rng.derive("deal", 0))
    dealt = events[0]
    assert isinstance(dealt, Dealt) and len(events) == 1
    assert [len(h) for h in dealt.hands] == [4] * seats
    assert len(dealt.deck) == 52 - 4 * seats == dealt.deck_size
    assert sorted((*dealt.deck, *(c for h in dealt.hands for c in h))) == sorted(DECK_IDS)
    assert all(suburbs_count(h) < 3 for h in dealt.hands)
    state = evolve(None, dealt)
    assert state.active == 0 and state.turn == 1 and state.played == 0
    assert all(c.pos == BIG_CITY for c in state.commuters)


def test_worked_example_5_an_opening_hand_with_three_suburbs_is_set_aside_and_redrawn() -> None:
    """rules/mass-transit.md worked example 5; seed, Setup: "If your starting hand contains three or more Suburbs
    cards, you must set aside your cards and draw four new ones, then reshuffle the set-aside cards into the draw
    pile"."""
    suburbs = [card(move="bus", suburbs=3), card(move="ferry", suburbs=3), card(move="train", suburbs=4)]
    others = [c for c in DECK_IDS if c not in suburbs]
    order = [*suburbs, *others]
    dealt = deal(order, 2, Rng.derive("mulligan", 0))
    first = (*suburbs, others[0])
    assert dealt.mulligans == (Mulligan(seat=0, set_aside=first, count=4),)
    assert dealt.hands[0] == tuple(order[8:12])  # the next four from the draw pile, after both deals
    assert dealt.hands[1] == tuple(order[4:8])
    assert set(first) <= set(dealt.deck)  # shuffled back into the draw pile
    assert len(dealt.deck) == 52 - 8


def test_the_mulligan_repeats_while_the_new_hand_still_has_three_suburbs() -> None:
    """Reading 9: "repeat if the new hand also has 3+ Suburbs"."""
    six = [c.id for c in DECK if c.is_suburbs]
    others = [c for c in DECK_IDS if c not in six]
    order = [*six[:3], others[0], *six[3:], others[1], *others[2:]]
    dealt = deal(order, 1, Rng.derive("mulligan", 1))
    assert [m.seat for m in dealt.mulligans] == [0, 0]
    assert dealt.mulligans[1].set_aside == (*six[3:], others[1])
    assert suburbs_count(dealt.hands[0]) < 3 and len(dealt.hands[0]) == 4
    assert sorted((*dealt.deck, *dealt.hands[0])) == sorted(DECK_IDS)


def test_two_suburbs_in_an_opening_hand_are_kept() -> None:
    """Seed, Setup: the mulligan is for "three or more" Suburbs cards only."""
    two = [card(move="bus", suburbs=3), card(move="bus", suburbs=4)]
    others = [c for c in DECK_IDS if c not in two]
    dealt = deal([*two, *others], 1, Rng.derive("mulligan", 2))
    assert dealt.mulligans == () and dealt.hands[0] == (*two, *others[:2])


def test_the_first_seat_is_an_option() -> None:
    """Seed: "any player may volunteer to take the first turn"; reading 16: a match option, default seat 0."""
    events = match.open_match(GAME, ["a", "b", "c"], {"first_seat": 2}, "first")
    assert match.fold(GAME, events).game_state.active == 2
    assert match.to_move(GAME, match.fold(GAME, events)) == [2]


def test_a_first_seat_that_is_not_at_the_table_is_refused() -> None:
    """Options are checked at set-up: `bad-options`."""
    with pytest.raises(Refusal) as refused:
        match.open_match(GAME, ["a", "b"], {"first_seat": 2}, "first")
    assert refused.value.code == "bad-options"
    with pytest.raises(Refusal) as unknown:
        match.open_match(GAME, ["a"], {"first_player": 0}, "first")
    assert unknown.value.code == "bad-options"


@pytest.mark.parametrize("seats", [1, 6])
def test_one_to_six_seats_play_as_one_team(seats: int) -> None:
    """Seed: "Players: 1-6"; "Mass Transit can be played solo"; "Players collectively win the game": when one seat
    gives up, the whole team has lost."""
    state = match.fold(GAME, match.open_match(GAME, [f"p{i}" for i in range(seats)], {}, "team"))
    ended = match.decide(GAME, state, 0, Resign(), Rng.derive("team", state.version))[-1]
    assert isinstance(ended, MatchEnded) and ended.cooperative and ended.team_won is False
    assert [r.winner for r in ended.results] == [False] * seats


@pytest.mark.parametrize("seats", [0, 7])
def test_no_other_seat_count(seats: int) -> None:
    """Seed: "Players: 1-6"."""
    with pytest.raises(Refusal) as refused:
        match.open_match(GAME, [f"p{i}" for i in range(seats)], {}, "team")
    assert refused.value.code == "bad-seat-count"
