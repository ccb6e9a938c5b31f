"""The 2-player Automa's Build (Rules, 2-Player Game, Trigger 2: a player increases their Capacity; readings 22, 25).

It lays Rails one orthogonal rail space at a time in its Main direction (relative to the Direction Marker, which
keeps its orientation), placing a Station on an empty plot or connecting to a player's Stop, until it has made
`n` placements or is blocked; then it continues in its Alternate direction; then its card flips.
"""

from __future__ import annotations

from domain.games.terminus.components import AutomaSide, turn
from domain.games.terminus.events import AutomaBuilt, AutomaFlipped, AutomaStep
from domain.games.terminus.rules_table import board_of
from domain.games.terminus.state import State


def side_of(state: State) -> AutomaSide:
    """Rules, Automa Card Layout: the face-up side of the Automa card."""
    assert state.automa is not None
    card = board_of(state).automa_cards[state.automa.card]
    return card.side_a if state.automa.side == "a" else card.side_b


def automa_build(state: State) -> tuple[AutomaBuilt, AutomaFlipped]:
    """Rules, 2-Player Game, Trigger 2: the Automa's Build, then the flip of its card."""
    automa = state.automa
    assert automa is not None
    city = board_of(state)
    side = side_of(state)
    itself = state.seats  # the Automa's owner number
    here, stations, rails = automa.terminus, automa.stations, automa.rails
    visited = {automa.prime, *automa.line}
    used: set[int] = set()
    new_stations: set[int] = set()
    steps: list[AutomaStep] = []
    for relative in (side.main, side.alt):
        direction = turn(automa.arrow, relative)
        while len(steps) < side.n:
            ahead = city.step[here].get(direction)
            if ahead is None:
                break  # the board edge
            rail, plot = ahead
            owners = state.rail_owners[rail]
            need = city.board.rails[rail].rails
            if rail in used or itself in owners or len(owners) >= city.board.rails[rail].sides or rails < need:
                break
            owner = itself if plot in new_stations else state.stop_owner[plot]
            if owner == itself or plot in visited:
                break  # its own Stop, or a Stop it already connected to
            if owner is None and stations < 1:
                break
            station = owner is None
            steps.append(AutomaStep(start=city.plots[here].id, end=city.plots[plot].id, rail=city.board.rails[rail].id,
                                    station=station, owner=-1 if owner is None else owner))  # the event's -1: none
            used.add(rail)
            visited.add(plot)
            rails -= need
            if station:
                stations -= 1
                new_stations.add(plot)
            here = plot
    return AutomaBuilt(steps=tuple(steps)), AutomaFlipped(side="b" if automa.side == "a" else "a")
