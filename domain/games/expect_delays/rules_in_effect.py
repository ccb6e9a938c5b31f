"""The rules as the active Service Advisory changes them (rulebook, Use Service Advisory: Event advisories
"are always in effect while they are active"; Transfer advisories fire on Disembark from a ◇ stop)."""

from __future__ import annotations

from domain.games.expect_delays.components import SETUP, TRACK, TRAIN_CARDS, Advisory
from domain.games.expect_delays.state import State


def _event(state: State, effect: str) -> Advisory | None:
    advisory = state.advisory
    if advisory is not None and advisory.kind == "event" and advisory.effect == effect:
        return advisory
    return None


def board_cost(state: State) -> int:
    """Fare Swipes a Board action costs: 2 (SEED), or the active Fare Holiday / Rush Hour value."""
    advisory = _event(state, "board-cost")
    return advisory.amount if advisory else SETUP.board_cost


def run_line_max_stops(state: State) -> int | None:
    """The most stops a line moves in one Run the Line (Ice on the Tracks), or None for no limit."""
    advisory = _event(state, "run-line-max-stops")
    return advisory.amount if advisory else None


def dual_cards_move_chosen_line_only(state: State) -> bool:
    """Signal Problems: a two-symbol card moves only the line chosen for Run the Line."""
    return _event(state, "dual-cards-move-chosen-line-only") is not None


def out_of_service_gain(state: State, card: str) -> int:
    """Fare Swipes gained for taking `card` Out of Service: its value (Budget Cuts: less), at most the
    Platform's supply (reading 11), never below 0."""
    advisory = _event(state, "out-of-service-swipe-modifier")
    value = TRAIN_CARDS[card].fare_swipes + (advisory.amount if advisory else 0)
    return max(0, min(value, state.platform_fare_swipes))


def tourists_per_disembark(state: State) -> int:
    """How many Tourists a Disembark may board: 1 (SEED), or Tourist Season's number."""
    advisory = _event(state, "tourists-per-disembark")
    return advisory.amount if advisory else 1


def transfer_fired(state: State, stop: int) -> Advisory | None:
    """The Transfer advisory that fires when a Commuter Disembarks from `stop`, if any (reading 5)."""
    advisory = state.advisory
    if advisory is not None and advisory.kind == "transfer" and stop in TRACK.transfer_stops:
        return advisory
    return None


def new_action(state: State) -> Advisory | None:
    """The active advisory if it is a New Action (usable as an action, reading 15)."""
    advisory = state.advisory
    return advisory if advisory is not None and advisory.kind == "new-action" else None
