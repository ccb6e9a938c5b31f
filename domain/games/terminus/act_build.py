"""Build (Build Zone): pay 1 Permit and 2 Construction, then place links one at a time, then finish.

Rules, How to Build / Rail & Station placement / Making a Connection / Build Upgrades. A link is Rails on one
rail space from a Terminus to the neighbouring plot (reading 14): an empty plot takes a new Station (1 Blueprint),
another player's Stop is a Connection. Hubs stack a disc on an own Station. FinishBuild pays Connection rewards.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.engine import Decision
from domain.games.terminus import common as c
from domain.games.terminus.cards import DATA, UPGRADE_KIND
from domain.games.terminus.commands import BuildHub, BuildLink, FinishBuild, StartBuild
from domain.games.terminus.events import BuildFinished, BuildStarted, HubBuilt, LinkBuilt, Traded
from domain.games.terminus.state import POWER, State, has_upgrade, line_plots, termini

COSTS = DATA.costs


def build_cost(via: str) -> tuple[int, int]:
    """(Permits, Construction) to start: 1 and 2, or a Build Development's own costs (#06, #16, #23)."""
    tile = c.via_tile(via)
    permits = tile.permits if tile and tile.permits >= 0 else COSTS.build_permit
    construction = tile.construction if tile and tile.construction >= 0 else COSTS.build_construction
    return permits, construction


def blueprint_cost(state: State, seat: int) -> int:
    """Blueprints for the next Station or Hub: 1, or 0 for the first of the Build with A6 (DEFAULT)."""
    return 0 if c.stop_is_free(state, seat) else COSTS.stop_blueprint


def check_link(state: State, seat: int, cmd: BuildLink) -> c.Error:
    g = c.geo(state)
    start, end = g.plot_index.get(cmd.start), g.plot_index.get(cmd.end)
    if start is None or end is None:
        return "unknown-plot", "both ends must be plots of the City"
    player = state.players[seat]
    if start not in termini(player):
        return "not-a-terminus", f"{cmd.start} is not one of your Terminus"
    rail = g.rail_between.get((start, end))
    if rail is None:
        # reading 14: a link is one rail space; no skipping plots
        return "no-rail-space", f"no rail space joins {cmd.start} and {cmd.end}"
    spec, owners = g.board.rails[rail], state.rail_owners[rail]
    block = g.rail_block[rail]
    if block >= 0 and state.block_tile[block] >= 0:
        return "blocked-by-development", "Rails may not run through a Development"
    if seat in owners:
        return "one-side-only", "you may not place Rails on both sides of a double rail space"
    if len(owners) >= spec.sides:
        return "rail-space-taken", f"rail space {spec.id} is full"
    if player.rails_storage < spec.rails:
        return "not-enough-rails", f"this link takes {spec.rails} Rails from your storage"
    if end in player.connected:
        return "repeat-connection", "you cannot make a Connection to the same Stop more than once"
    owner = state.stop_owner[end]
    if owner == seat or end in line_plots(player):
        return "own-line", "your line may not intersect itself"
    if owner < 0:
        if c.discs_free(player) < 1:
            return "no-capacity", "no Station is left of your Capacity Marker"
        return c.afford(player, res=(0, blueprint_cost(state, seat), 0, 0))
    return None


def check_hub(state: State, seat: int, cmd: BuildHub) -> c.Error:
    player = state.players[seat]
    if "hubs" not in player.builds:
        return "hubs-locked", "building Hubs needs the Hub Build Upgrade"
    plot = c.geo(state).plot_index.get(cmd.plot)
    if plot is None or state.stop_owner[plot] != seat or state.stop_level[plot] != 1:
        return "not-your-station", "a Hub goes on one of your own Stations (not a Hub or the Prime Hub)"
    if c.discs_free(player) < 1:
        return "no-capacity", "no Station is left of your Capacity Marker"
    return c.afford(player, res=(0, blueprint_cost(state, seat), 0, 0))


def placement_candidates(state: State, seat: int) -> Iterator[BuildLink | BuildHub]:
    g = c.geo(state)
    for t in termini(state.players[seat]):
        for _, other in g.plot_links[t]:
            yield BuildLink(start=g.plots[t].id, end=g.plots[other].id)
    for plot in c.own_stops(state, seat):
        if state.stop_level[plot] == 1:
            yield BuildHub(plot=g.plots[plot].id)


def can_place(state: State, seat: int) -> bool:
    """Some Station, Hub or Connection can be placed now."""
    for cmd in placement_candidates(state, seat):
        err = check_link(state, seat, cmd) if isinstance(cmd, BuildLink) else check_hub(state, seat, cmd)
        if err is None:
            return True
    return False


def check_start(state: State, seat: int, cmd: StartBuild) -> c.Error:
    err = c.via_error(state, seat, cmd.via, "build", "build")
    if err:
        return err
    permits, construction = build_cost(cmd.via)
    err = c.afford(state.players[seat], res=(permits, 0, 0, construction))
    if err:
        return err
    if not can_place(state, seat):
        return "nothing-to-build", "no Station, Hub or Connection could be placed"
    return None


def start_candidates(state: State, seat: int) -> Iterator[StartBuild]:
    for via in c.ways(state, seat, "build", "build"):
        yield StartBuild(via=via)


def run_start(b: Decision[State], seat: int, cmd: StartBuild) -> None:
    permits, construction = build_cost(cmd.via)
    if permits or construction:
        b.emit(Traded(seat=seat, action="build", via=cmd.via, give=(permits, 0, 0, construction)))
    b.emit(BuildStarted(seat=seat, via=cmd.via))


def run_link(b: Decision[State], seat: int, cmd: BuildLink) -> None:
    g = c.geo(b.state)
    start, end = g.plot_index[cmd.start], g.plot_index[cmd.end]
    rail = g.rail_between[(start, end)]
    owner = b.state.stop_owner[end]
    station = owner < 0
    b.emit(LinkBuilt(
        seat=seat, start=cmd.start, end=cmd.end, rail=g.board.rails[rail].id, rails=g.board.rails[rail].rails,
        station=station, owner=-1 if station else owner, blueprint=blueprint_cost(b.state, seat) if station else 0,
    ))


def run_hub(b: Decision[State], seat: int, cmd: BuildHub) -> None:
    b.emit(HubBuilt(seat=seat, plot=cmd.plot, blueprint=blueprint_cost(b.state, seat)))


def check_finish(state: State, seat: int, cmd: FinishBuild) -> c.Error:
    if not state.turn.placed:
        return "nothing-built", "place at least one Station, Hub or Connection first"
    return None


def run_finish(b: Decision[State], seat: int, cmd: FinishBuild) -> None:
    """Rules, Making a Connection: 1 Power in total to the builder, 1 coin per Connection to each owner."""
    conns = b.state.turn.connections
    power = min(COSTS.connection_power, sum(b.state.markets[POWER])) if conns else 0  # reading 15
    bonus = UPGRADE_KIND.get("connection_coins")
    coins = bonus.amount * len(conns) if bonus and has_upgrade(b.state.players[seat], "connection_coins") else 0
    paid = tuple((owner, conns.count(owner) * COSTS.connection_coin) for owner in sorted(set(conns)))
    b.emit(BuildFinished(seat=seat, power=power, coins=coins, paid=paid))
    b.emit(*c.finish_action(b.state, seat))
