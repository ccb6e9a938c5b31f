"""How a match stands and ends (rulebook, Ending the Game; reading 14)."""

from __future__ import annotations

from domain.engine import Outcome, ranked_results
from domain.games.expect_delays.state import State


def scores(state: State) -> list[float]:
    """Destination Points per seat (rulebook, Disembark: score the stop's Destination Points)."""
    return [float(points) for points in state.points]


def outcome(state: State) -> Outcome | None:
    """Once over: most Destination Points wins; ties go to most riders on own lines, then most Fare
    Swipes (rulebook, Ending the Game; reading 14), and a tie on all three is shared."""
    if not state.end_reason:
        return None
    keys = [
        (state.points[seat], state.riders_on_lines(seat), state.fare_swipes[seat]) for seat in range(len(state.points))
    ]
    return Outcome(reason=state.end_reason, results=ranked_results(keys, scores(state)))
