"""The queries the rules ask of the table: which Zone offers an action, which Development a seat may use, and where
a seat's Stops, free Blocks and Station discs are."""

from __future__ import annotations

from collections.abc import Iterator

from domain.games.terminus.components import DATA, RESOURCES, TILE_INDEX, TILES, ZONES, BoardIndex, Tile, board
from domain.games.terminus.state import State
from domain.games.terminus.state_players import Player, has_upgrade

DEV_SLOTS = 2  # reading 11: a Development has 2 Lobbyist spaces, one per player
RESOURCE_INDEX = {resource: index for index, resource in enumerate(RESOURCES)}


def board_of(state: State) -> BoardIndex:
    """Rules, Main Board Set Up: the indexed city map of this match (the `board` option)."""
    return board(state.board)


def zone_offers(state: State, seat: int, action: str) -> bool:
    """Rules, Taking a Turn: the seat's Player Marker is in a Zone offering this action."""
    zone = state.players[seat].zone
    return zone is not None and action in DATA.zone_actions[ZONES[zone]]


def tile_usable(state: State, seat: int, tile: int) -> bool:
    """Rules, Developments: a Development's action is open to a seat with a Lobbyist on it, in the City, whose marker
    is in the matching Zone."""
    zone = state.players[seat].zone
    return (
        isinstance(state.tile_at[tile], int)
        and seat in state.tile_lobbyists[tile]
        and zone is not None
        and TILES[tile].zone == ZONES[zone]
    )


def usable_tiles(state: State, seat: int, kind: str) -> Iterator[str]:
    """Rules, Developments: ids of the Developments of this kind the seat may use now."""
    for index, tile in enumerate(TILES):
        if tile.kind == kind and tile_usable(state, seat, index):
            yield tile.id


def ways(state: State, seat: int, action: str, kind: str) -> Iterator[str]:
    """Rules, Developments: '' when the Zone offers the action itself, then each usable Development offering it."""
    if zone_offers(state, seat, action):
        yield ""
    yield from usable_tiles(state, seat, kind)


def via_tile(via: str) -> Tile | None:
    """Rules, Developments: the Development named by a command's `via` ('' names none: the Zone's own action)."""
    return TILES[TILE_INDEX[via]] if via else None


def resource_index(name: str) -> int | None:
    """Rules, Resources: the index of a resource name (RESOURCES order), or None for another name."""
    return RESOURCE_INDEX.get(name)


def own_stops(state: State, seat: int) -> list[int]:
    """Rules, End-Game Scoring: plots holding the seat's Stops (Prime Hub, Stations, Hubs), not Stops connected to."""
    return [plot for plot, owner in enumerate(state.stop_owner) if owner == seat]


def stops_in_district(state: State, seat: int, district: int) -> int:
    """Rules, Take Demand: the seat's Stops inside one District."""
    city = board_of(state)
    return sum(1 for plot in own_stops(state, seat) if city.plot_district[plot] == district)


def block_free(state: State, block: int) -> bool:
    """Rules, Place a Development: an empty Block, with no Development and no Rails on a rail space inside it."""
    if state.block_tile[block] is not None:
        return False
    return not any(state.rail_owners[rail] for rail in board_of(state).block_rails[block])


def block_adjacent(state: State, seat: int, block: int) -> bool:
    """Rules, Place a Development: a Block cornered by one of the seat's own Stops."""
    return any(state.stop_owner[plot] == seat for plot in board_of(state).block_corners[block])


def discs_free(player: Player) -> int:
    """Rules, Capacity (reading 13): Station discs left of the Capacity Marker still on the Station Track."""
    return min(player.capacity, DATA.player_board.station_discs) - player.discs_used


def stop_is_free(state: State, seat: int) -> bool:
    """Advanced Upgrade A6 (DEFAULT): the first Stop of this Build costs no Blueprint."""
    return has_upgrade(state.players[seat], "free_first_stop") and not state.turn.free_used
