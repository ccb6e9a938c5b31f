"""The 2-player Automa's Build (Trigger 2). Rules, 2-Player Game; readings 22 and 25.

It lays Rails one orthogonal rail space at a time in its Main direction (relative to the Direction Marker, which
keeps its orientation), placing a Station on an empty plot or connecting to a player's Stop, until it has made
`n` placements or is blocked; then it continues in its Alternate direction; then its card flips.
"""

from __future__ import annotations

from domain.games.terminus.cards import AutomaSide, turn
from domain.games.terminus.common import geo
from domain.games.terminus.events import AutomaBuilt, AutomaFlipped, AutomaStep
from domain.games.terminus.state import State


def side_of(state: State) -> AutomaSide:
    """The face-up side of the Automa card."""
    assert state.automa is not None
    card = geo(state).automa_cards[state.automa.card]
    return card.side_a if state.automa.side == "a" else card.side_b


def automa_build(state: State) -> tuple[AutomaBuilt, AutomaFlipped]:
    """The Automa's Build and the flip of its card that follows."""
    a = state.automa
    assert a is not None
    g = geo(state)
    side = side_of(state)
    me = state.seats
    pos, stations, rails = a.terminus, a.stations, a.rails
    visited = {a.prime, *a.line}
    used: set[int] = set()
    new_stations: set[int] = set()
    steps: list[AutomaStep] = []
    for relative in (side.main, side.alt):
        direction = turn(a.arrow, relative)
        while len(steps) < side.n:
            nxt = g.step[pos].get(direction)
            if nxt is None:
                break  # the board edge
            rail, plot = nxt
            owners = state.rail_owners[rail]
            need = g.board.rails[rail].rails
            if rail in used or me in owners or len(owners) >= g.board.rails[rail].sides or rails < need:
                break
            owner = me if plot in new_stations else state.stop_owner[plot]
            if owner == me or plot in visited:
                break  # its own Stop, or a Stop it already connected to
            if owner < 0 and stations < 1:
                break
            station = owner < 0
            steps.append(AutomaStep(start=g.plots[pos].id, end=g.plots[plot].id, rail=g.board.rails[rail].id,
                                    station=station, owner=-1 if station else owner))
            used.add(rail)
            visited.add(plot)
            rails -= need
            if station:
                stations -= 1
                new_stations.add(plot)
            pos = plot
    return AutomaBuilt(steps=tuple(steps)), AutomaFlipped(side="b" if a.side == "a" else "a")

