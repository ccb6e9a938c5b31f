"""Shared judgements: which Zone offers an action, which Development a seat may use, board queries.

Checks return None when a command is allowed, else an error pair (refusal code, message).
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.games.terminus.cards import DATA, RESOURCES, TILE_INDEX, TILES, ZONES, BoardIndex, Tile, board
from domain.games.terminus.events import ActionDone, FollowUpOffered
from domain.games.terminus.state import Player, State, has_upgrade

Error = tuple[str, str] | None
RES_INDEX = {r: i for i, r in enumerate(RESOURCES)}
SHORT = ("not-enough-permits", "not-enough-blueprints", "not-enough-power", "not-enough-construction")
DEV_SLOTS = 2  # reading 11: a Development has 2 Lobbyist spaces, one per player


def geo(state: State) -> BoardIndex:
    """The indexed board of this match."""
    return board(state.board)


def zone_offers(state: State, seat: int, action: str) -> bool:
    """The seat's Player Marker is in a Zone offering this Action Loop action."""
    zone = state.players[seat].zone
    return zone >= 0 and action in DATA.zone_actions[ZONES[zone]]


def tile_usable(state: State, seat: int, tile: int) -> bool:
    """A Development's action is open to a seat with a Lobbyist on it whose marker is in the matching Zone."""
    zone = state.players[seat].zone
    return (
        state.tile_at[tile] >= 0
        and seat in state.tile_lobbyists[tile]
        and zone >= 0
        and TILES[tile].zone == ZONES[zone]
    )


def usable_tiles(state: State, seat: int, kind: str) -> Iterator[str]:
    """Ids of the Developments of this kind the seat may use now."""
    for i, tile in enumerate(TILES):
        if tile.kind == kind and tile_usable(state, seat, i):
            yield tile.id


def ways(state: State, seat: int, action: str, kind: str) -> Iterator[str]:
    """'' when the Zone offers the action itself, then each usable Development tile offering it instead."""
    if zone_offers(state, seat, action):
        yield ""
    yield from usable_tiles(state, seat, kind)


def via_error(state: State, seat: int, via: str, action: str, kind: str) -> Error:
    """Whether the action may be taken here, from the Zone (via '') or from Development `via`."""
    if not via:
        if zone_offers(state, seat, action):
            return None
        return "wrong-zone", f"your Player Marker is not in a Zone offering {action.replace('_', ' ')}"
    tile = TILE_INDEX.get(via)
    if tile is None:
        return "unknown-tile", f"there is no Development {via!r}"
    if TILES[tile].kind != kind:
        return "wrong-development", f"Development {via} does not offer this action"
    if not tile_usable(state, seat, tile):
        return "development-not-usable", f"you need a Lobbyist on {via} in the City and your marker in its Zone"
    return None


def via_tile(via: str) -> Tile | None:
    """The Development record named by `via`, if any."""
    return TILES[TILE_INDEX[via]] if via else None


def resource_index(name: str) -> int | None:
    """The index of a resource name, or None."""
    return RES_INDEX.get(name)


def afford(player: Player, coins: int = 0, res: tuple[int, ...] = (0, 0, 0, 0)) -> Error:
    """Whether the player holds these coins and resources."""
    if player.coins < coins:
        return "not-enough-coins", f"this costs {coins} coins; you have {player.coins}"
    for r, need in enumerate(res):
        if player.res[r] < need:
            return SHORT[r], f"this costs {need} {RESOURCES[r]}; you have {player.res[r]}"
    return None


def cost(resource: str, n: int) -> tuple[int, int, int, int]:
    """A resource vector with `n` of one resource."""
    out = [0, 0, 0, 0]
    if n:
        out[RES_INDEX[resource]] = n
    return (out[0], out[1], out[2], out[3])


def own_stops(state: State, seat: int) -> list[int]:
    """Plots holding the seat's Stops (Prime Hub, Stations, Hubs) — never Stops it connected to."""
    return [pi for pi, owner in enumerate(state.stop_owner) if owner == seat]


def stops_in_district(state: State, seat: int, district: int) -> int:
    """The seat's Stops inside one District."""
    g = geo(state)
    return sum(1 for pi in own_stops(state, seat) if g.plot_district[pi] == district)


def block_free(state: State, block: int) -> bool:
    """An empty Block: no Development and no Rails on a rail space inside it."""
    if state.block_tile[block] >= 0:
        return False
    return not any(state.rail_owners[ri] for ri in geo(state).block_rails[block])


def block_adjacent(state: State, seat: int, block: int) -> bool:
    """A Block cornered by one of the seat's own Stops."""
    return any(state.stop_owner[pi] == seat for pi in geo(state).block_corners[block])


def discs_free(player: Player) -> int:
    """Station discs left of the Capacity Marker still on the Station Track (reading 13)."""
    return min(player.capacity, DATA.player_board.station_discs) - player.discs_used


def stop_is_free(state: State, seat: int) -> bool:
    """A6 (DEFAULT): the first Stop of this Build costs no Blueprint."""
    return has_upgrade(state.players[seat], "free_first_stop") and not state.turn.free_used


def finish_action(
    state: State, seat: int, follow: tuple[str, ...] = (), via: str = ""
) -> list[ActionDone | FollowUpOffered]:
    """The last event of an action: done, or an offer of optional follow-ups."""
    return [FollowUpOffered(seat=seat, options=follow, via=via)] if follow else [ActionDone(seat=seat)]
