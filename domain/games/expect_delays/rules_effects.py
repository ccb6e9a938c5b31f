"""Effects shared by several actions and advisories: each returns the events it causes (none if nothing)."""

from __future__ import annotations

from collections import Counter

from domain.engine import Event
from domain.games.expect_delays.components import LINE_ORDER, TRAIN_CARDS
from domain.games.expect_delays.events import CardsDrawn, FareSwipesGained, RidersMoved
from domain.games.expect_delays.rules_in_effect import dual_cards_move_chosen_line_only, run_line_max_stops
from domain.games.expect_delays.rules_movement import move_riders
from domain.games.expect_delays.state import State


def gain_fare_swipes(state: State, seat: int, wanted: int) -> list[Event]:
    """Take up to `wanted` Fare Swipes from the Platform (no more than it holds, reading 11)."""
    count = min(wanted, state.platform_fare_swipes)
    return [FareSwipesGained(seat=seat, count=count)] if count > 0 else []


def draw_train_cards(state: State, seat: int, wanted: int) -> list[Event]:
    """Draw up to `wanted` cards from the top of the Train deck, never reshuffling (reading 18)."""
    cards = state.train_deck[:wanted]
    return [CardsDrawn(seat=seat, cards=cards, count=len(cards))] if cards else []


def run_the_line(state: State, line: str, cards: tuple[str, ...]) -> list[RidersMoved]:
    """The rider moves of Run the Line on `line` discarding `cards` (rulebook, Run the Line; reading 8).

    Each symbol on each discarded card moves its line one stop: the chosen line first, then any
    other line shown on a two-symbol card, in table order. Signal Problems keeps the other lines
    still; Ice on the Tracks caps every line's stops.
    """
    symbols = Counter(symbol for card in cards for symbol in TRAIN_CARDS[card].symbols)
    if dual_cards_move_chosen_line_only(state):
        symbols = Counter({line: symbols[line]})
    cap = run_line_max_stops(state)
    order = [line, *(other for other in LINE_ORDER if other != line and symbols[other])]
    leave = state.rules.tourist_leaves_end_queue
    return [move_riders(moved, state.track(moved), min(symbols[moved], cap or symbols[moved]), leave_end_queue=leave)
            for moved in order]
