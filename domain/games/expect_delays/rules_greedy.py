"""What the `greedy` bot (domain/greedy.py's `Lookahead`) counts a seat's position worth in Expect Delays.

Judged by its points alone, a one-move greedy Disembarks every Commuter at the first stop that scores (1 point at
stop 1) and lost to random play (14 of 40 matches, bench/README.md, issue 41): a Commuter is worth most left on its
line to ride on (5 points at the last stop). Here a Commuter on its owner's line counts as `RIDING` plus `SHARE` of
its stop's Destination Points, which is less than those points only at the last stops: Disembarking pays from then
on, Boarding and running a line with Commuters on it pay at once.
"""

from __future__ import annotations

from domain.games.expect_delays.components import TRACK, lines_of
from domain.games.expect_delays.state import State

RIDING = 2.0  # a Commuter on board, before it has ridden anywhere
SHARE = 0.5  # of its stop's points: Disembarking gains only from 4 points (stop 5) on, and most at the last stop


def worth(state: State) -> list[float]:
    """Each seat's points plus what its Commuters on its lines are worth."""
    return [state.points[seat] + sum(RIDING + SHARE * TRACK.stop_points[stop]
                                     for line in lines_of(seat)
                                     for stop, rider in enumerate(state.track(line)) if rider == "commuter")
            for seat in range(len(state.points))]
