"""Small Terminus tables for rule tests: a real set-up played to the first turn, then pieces placed by hand."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.games.terminus.components import PROJECT_INDEX, TILE_INDEX, ZONE_INDEX, board
from domain.games.terminus.options import Options
from domain.games.terminus.state import State, Turn
from domain.games.terminus.state_table import replace_player
from domain.rng import Rng
from tests.games.given import given

G = board("default")


def plot(name: str) -> int:
    return G.plot_index[name]


def started(seats: int = 3, seed: str = "rules", **options: Any) -> State:
    """The table right after set-up (seats choosing their secret Agenda)."""
    return given(GAME, *GAME.start(Options(**options), seats, Rng.derive(seed, 0))).state


def through_setup(state: State, hubs: dict[int, str], bonus: int = 0) -> State:
    """Keep the first dealt Agenda, place Prime Hubs, choose a Bonus: the loop of Year 1 is open."""
    table = given(GAME, state, seed="rules")
    for seat in range(state.seats):
        table = table.when(seat, C.KeepAgenda(agenda=state.players[seat].hand[0])).after
    while table.state.phase == "place-hub":
        table = table.when(C.PlaceHub(plot=hubs[table.state.current])).after
    for seat in range(state.seats):
        if table.state.phase == "bonus":
            table = table.when(seat, C.ChooseBonus(option=bonus)).after
    while table.state.phase == "income" or (GAME.to_move(table.state) and table.state.phase != "loop"):
        seat = GAME.to_move(table.state)[0]
        table = table.when(seat, GAME.legal(table.state, seat)[0]).after
    return table.state


DEFAULT_HUBS = {0: "P11", 1: "P51", 2: "P33", 3: "P03", 4: "P64"}


def table(seats: int = 3, seed: str = "rules", **options: Any) -> State:
    """A table at the first turn of Year 1 (hubs on P11, P51, P33, ...)."""
    return through_setup(started(seats, seed, **options), {s: DEFAULT_HUBS[s] for s in range(seats)})


def player(state: State, seat: int, **changes: Any) -> State:
    """Change one player's record (coins, res, capacity, zone...)."""
    return replace_player(state, seat, replace(state.players[seat], **changes))


def to_act(state: State, seat: int, zone: str, **changes: Any) -> State:
    """Seat `seat` to move, its marker already moved into `zone` (the act step)."""
    state = player(state, seat, zone=ZONE_INDEX[zone], **changes)
    return replace(state, current=seat, step="act", turn=Turn())


def to_move(state: State, seat: int, zone: str | None = None, **changes: Any) -> State:
    """Seat `seat` about to move its marker (from `zone`, or from the Turn Order card)."""
    state = player(state, seat, zone=ZONE_INDEX[zone] if zone else None, **changes)
    return replace(state, current=seat, step="move", turn=Turn())


def stop(state: State, seat: int, name: str, level: int = 1) -> State:
    """Put a Stop of `seat` (1 Station, 2 Hub, 3 Prime Hub) on a plot, outside any line."""
    p = plot(name)
    owners = list(state.stop_owner)
    levels = list(state.stop_level)
    owners[p], levels[p] = seat, level
    return replace(state, stop_owner=tuple(owners), stop_level=tuple(levels))


def line(state: State, seat: int, prime: str, branch: list[str], second: list[str] | None = None) -> State:
    """A player's whole line: Prime Hub, Stations along `branch` (and `second`), Rails between them."""
    old = state.players[seat]
    for p in old.branch_a + old.branch_b + ((old.prime,) if old.prime is not None else ()):
        owners = list(state.stop_owner)
        levels = list(state.stop_level)
        owners[p], levels[p] = None, 0
        state = replace(state, stop_owner=tuple(owners), stop_level=tuple(levels))
    state = stop(state, seat, prime, 3)
    rails = list(state.rail_owners)
    for chain in (branch, second or []):
        previous = prime
        for name in chain:
            if state.stop_owner[plot(name)] is None:
                state = stop(state, seat, name, 1)
            rails[G.rail_between[(plot(previous), plot(name))]] += (seat,)
            previous = name
    state = replace(state, rail_owners=tuple(rails))
    own_stations = sum(1 for name in branch + (second or []) if state.stop_owner[plot(name)] == seat)
    return player(state, seat, prime=plot(prime), branch_a=tuple(plot(n) for n in branch),
                  branch_b=tuple(plot(n) for n in second or []), discs_used=own_stations)


def development(state: State, tile: str, block: str, lobbyists: tuple[int, ...] = ()) -> State:
    """A Development placed in a block (with its Demand token, if it had one), with Lobbyists on it."""
    t, b = TILE_INDEX[tile], G.block_index[block]
    tile_at, block_tile, lob = list(state.tile_at), list(state.block_tile), list(state.tile_lobbyists)
    tile_at[t], block_tile[b], lob[t] = b, t, lobbyists
    return replace(state, tile_at=tuple(tile_at), block_tile=tuple(block_tile), tile_lobbyists=tuple(lob))


def token_on(state: State, tile: str, token: str) -> State:
    """Put a Demand token on a tile."""
    tokens = list(state.tile_token)
    if G.token_index[token] in tokens:
        tokens[tokens.index(G.token_index[token])] = None
    tokens[TILE_INDEX[tile]] = G.token_index[token]
    return replace(state, tile_token=tuple(tokens))


def on_display(state: State, tile: str) -> State:
    tile_at = list(state.tile_at)
    tile_at[TILE_INDEX[tile]] = "display"
    return replace(state, tile_at=tuple(tile_at))


def with_project(state: State, project: str, rows: tuple[tuple[int, int], ...] = ()) -> State:
    """Put a Project in play (replacing the last one if needed) with given rows."""
    index = PROJECT_INDEX[project]
    projects, all_rows = list(state.projects), list(state.project_rows)
    if index in projects:
        all_rows[projects.index(index)] = rows
    else:
        projects[-1], all_rows[-1] = index, rows
    return replace(state, projects=tuple(projects), project_rows=tuple(all_rows))
