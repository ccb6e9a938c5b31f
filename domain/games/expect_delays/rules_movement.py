"""How riders move along a line (rulebook "Run the Line"; readings 6 and 7, and the end-of-line queue decided in
this package's README)."""

from __future__ import annotations

from domain.games.expect_delays.events import RiderMove, RidersMoved
from domain.games.expect_delays.state import Stops


def move_riders(line: str, stops: Stops, steps: int, *, leave_end_queue: bool) -> RidersMoved:
    """Every rider on `line` moves up to `steps` stops, resolved from the front rider back.

    Reading 6: a rider never moves onto an occupied stop and never overtakes, so it stops behind the
    rider ahead; a Commuter waits on the last stop; a Tourist moved past the last stop returns to the
    Platform. Reading 7: a rider on the last stop still blocks the riders behind it.

    The end-of-line queue (README): a Tourist that is moved but cannot advance a single stop stands right
    behind riders that fill every stop to the last one, headed by a Commuter waiting there; it has ridden as
    far as its line goes and returns to the Platform, as if moved off the last stop. Otherwise it could
    stay stuck for as long as that Commuter waits. (Edition 2; `leave_end_queue` False is edition 1's rule.)
    """
    last = len(stops) - 1
    moves: list[RiderMove] = []
    limit = last  # the furthest stop the next rider (going back) may reach
    for position in range(last, -1, -1):
        rider = stops[position]
        if rider is None:
            continue
        target = position + steps
        off_the_end = target > last and limit == last
        queued_at_end = leave_end_queue and steps > 0 and limit == position
        if rider == "tourist" and (off_the_end or queued_at_end):
            moves.append(RiderMove(from_stop=position, to_stop=None))
            continue  # it left the line: the stop ahead of the next rider is still free
        target = min(target, limit)
        if target != position:
            moves.append(RiderMove(from_stop=position, to_stop=target))
        limit = target - 1
    return RidersMoved(line=line, stops=steps, moves=tuple(moves))
