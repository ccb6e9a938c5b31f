"""How riders move (rulebook, Run the Line and Disembark; readings 6 and 7)."""

from __future__ import annotations

import pytest

from domain.games.expect_delays.movement import move_riders
from domain.games.expect_delays.state import evolve

from .helpers import table, track


def after_run(stops: str, steps: int) -> str:
    state = table(lines={"U1": stops})
    return track(evolve(state, move_riders("U1", state.track("U1"), steps)), "U1")


@pytest.mark.parametrize(
    ("before", "steps", "after", "why"),
    [
        ("C......", 3, "...C...", "a rider moves one stop per symbol"),
        ("..C..C.", 4, ".....CC", "reading 6: the front rider moves first; the next stops behind it"),
        ("CC.....", 1, ".CC....", "reading 6: riders in a queue all move up"),
        ("....C.C", 2, ".....CC", "reading 7: a Commuter waits on the last stop and blocks the rider behind"),
        ("....C..", 5, "......C", "rulebook: Commuters wait at the last stop until Disembarked"),
        ("....t..", 2, "......t", "rulebook: a Tourist rides to the end of its line"),
        ("......t", 1, ".......", "rulebook: a Tourist moved off the last stop returns to the Platform"),
        ("....C.t", 2, "......C", "reading 6: the stop a leaving Tourist frees can be taken in the same move"),
        ("...t..C", 3, ".....tC", "reading 7: a Tourist queues behind a Commuter waiting on the last stop"),
    ],
)
def test_riders_move_front_first_without_overtaking(before: str, steps: int, after: str, why: str) -> None:
    """Reading 6: riders resolve front to back, each up to N stops, never onto an occupied stop."""
    assert after_run(before, steps) == after, why


def test_tourists_leaving_the_line_go_back_to_the_platform() -> None:
    """Rulebook, Disembark: Tourists return to the Platform when moved off the last stop."""
    state = table(lines={"U1": ".....tt"}, platform_tourists=4)
    after = evolve(state, move_riders("U1", state.track("U1"), 2))
    assert track(after, "U1") == "......." and after.platform_tourists == 6
