"""How riders move (rulebook, Run the Line and Disembark; readings 6 and 7)."""

from __future__ import annotations

import pytest

from domain.games.expect_delays.events import RiderMove
from domain.games.expect_delays.rules_movement import move_riders
from domain.games.expect_delays.state import evolve
from tests.games.expect_delays.tables import table, track


def after_run(stops: str, steps: int) -> str:
    state = table(lines={"U1": stops})
    return track(evolve(state, move_riders("U1", state.track("U1"), steps, leave_end_queue=True)), "U1")


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


@pytest.mark.parametrize(
    ("before", "steps", "after", "why"),
    [
        (".....tC", 1, "......C", "the Tourist right behind a waiting Commuter gets off"),
        (".....tC", 3, "......C", "however many stops it is moved"),
        ("....tCC", 1, ".....CC", "also behind a queue of riders that ends at the last stop"),
        ("....ttC", 1, ".....tC", "the Tourist behind it takes the stop it freed, and gets off next time"),
        ("....CtC", 2, ".....CC", "a Commuter behind it moves up"),
        ("...t.CC", 3, "....tCC", "a Tourist that can still advance moves up to the queue first"),
        (".....CC", 1, ".....CC", "Commuters keep waiting: their owner Disembarks them"),
    ],
)
def test_a_tourist_is_never_stuck_behind_riders_waiting_at_the_end(
    before: str, steps: int, after: str, why: str
) -> None:
    """Rulebook, Disembark: 'Tourists cannot be Disembarked. They want to see all the sites. They ride until the end
    of their Line before returning to the Platform when moved off the last Stop.' and 'Commuters know where they
    are going and will wait at the last Stop on your Line until you Disembark them.' With one rider per stop
    (Board: 'Only 1 Rider can be on any Stop at a time') the rulebook does not say what happens to a Tourist
    behind a waiting Commuter. Decided here (README): a Tourist that is moved but cannot advance a stop because
    the riders ahead fill every stop to the last one has come to the end of its ride and returns to the Platform;
    otherwise it would block its line for as long as the Commuter waits."""
    assert after_run(before, steps) == after, why


def test_a_tourist_leaving_from_behind_the_queue_goes_back_to_the_platform() -> None:
    """The Tourist that gets off behind a waiting Commuter returns to the Platform, like one moved off the last
    stop: the event names it as a move off the line."""
    state = table(lines={"U1": ".....tC"}, platform_tourists=5)
    moved = move_riders("U1", state.track("U1"), 1, leave_end_queue=True)
    assert moved.moves == (RiderMove(from_stop=5, to_stop=None),)
    assert evolve(state, moved).platform_tourists == 6


def test_tourists_leaving_the_line_go_back_to_the_platform() -> None:
    """Rulebook, Disembark: Tourists return to the Platform when moved off the last stop."""
    state = table(lines={"U1": ".....tt"}, platform_tourists=4)
    after = evolve(state, move_riders("U1", state.track("U1"), 2, leave_end_queue=True))
    assert track(after, "U1") == "......." and after.platform_tourists == 6
