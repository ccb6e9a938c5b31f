"""A plain-text picture of the table (golden files, replay CLI). It shows everything, hands included."""

from __future__ import annotations

from domain.games.expect_delays.components import ADVISORIES, LINE_ORDER, LINES, SETUP, TRACK
from domain.games.expect_delays.state import State

RIDER_MARKS = {None: ".", "commuter": "C", "tourist": "t"}


def _advisory(card: str | None) -> str:
    if card is None:
        return "none"
    advisory = ADVISORIES[card]
    amount = f" {advisory.amount}" if advisory.amount else ""
    return f"{card} {advisory.name} ({advisory.kind}: {advisory.effect}{amount})"


def render(state: State) -> str:
    """The table: status line, advisories, each line's stops, each seat, then the shared piles."""
    name = SETUP.seat_names[state.active_seat]
    status = f"over: {state.end_reason}" if state.end_reason else f"{name} to act, {state.actions_left} action(s) left"
    points = " ".join(f"{p}{'◇' if i in TRACK.transfer_stops else ' '}" for i, p in enumerate(TRACK.stop_points))
    lines = [
        f"Expect Delays, turn {state.turn}/{state.max_turns}: {status}",
        f"advisory: active {_advisory(state.active_advisory)}; next {_advisory(state.next_advisory)}",
        f"stop points      {points}",
    ]
    for line, stops in zip(LINE_ORDER, state.tracks, strict=True):
        owner = SETUP.seat_names[LINES[line].owner]
        lines.append(f"{line} {owner:<9}    " + " ".join(f"{RIDER_MARKS[rider]} " for rider in stops))
    for seat, hand in enumerate(state.hands):
        lines.append(
            f"seat {seat} {SETUP.seat_names[seat]}: {state.points[seat]} pts, {state.fare_swipes[seat]} swipes, "
            f"{state.commuters_in_pool(seat)} in pool, hand [{' '.join(hand)}]"
        )
    lines.append(
        f"platform: {state.platform_fare_swipes} swipes, {state.platform_tourists} tourists; "
        f"deck {len(state.train_deck)}; discard [{' '.join(state.discard_pile)}]; "
        f"out of service [{' '.join(state.out_of_service)}]"
    )
    return "\n".join(lines) + "\n"
