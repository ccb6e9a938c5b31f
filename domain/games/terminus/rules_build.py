"""Build (Build Zone): pay 1 Permit and 2 Construction, then place links one at a time, then finish.

Rules, How to Build / Terminus / Rail & Station Placement Rules / Making a Connection / Build Upgrades / Building a
Hub. A link is Rails on one rail space from a Terminus to the neighbouring plot (reading 14): an empty plot takes a
new Station (1 Blueprint), another player's Stop is a Connection. Hubs stack a disc on an own Station. Finishing
pays the Connection rewards.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.engine import Decision, Refusal
from domain.games.terminus.commands import BuildHub, BuildLink, FinishBuild, StartBuild
from domain.games.terminus.components import DATA, RESOURCES, UPGRADE_KIND
from domain.games.terminus.events import BuildFinished, BuildStarted, HubBuilt, LinkBuilt, Traded
from domain.games.terminus.rules_checks import afford, allowed, check_via
from domain.games.terminus.rules_table import board_of, discs_free, own_stops, stop_is_free, via_tile, ways
from domain.games.terminus.rules_turn import finish_action
from domain.games.terminus.state import State
from domain.games.terminus.state_players import STATION, has_upgrade, line_plots, termini

COSTS = DATA.costs
POWER = RESOURCES.index("power")


def build_cost(via: str) -> tuple[int, int]:
    """Rules, Build Zone: (Permits, Construction) to start: 1 and 2, or a Build Development's own (#06, #16, #23)."""
    tile = via_tile(via)
    permits = tile.permits if tile and tile.permits is not None else COSTS.build_permit
    construction = tile.construction if tile and tile.construction is not None else COSTS.build_construction
    return permits, construction


def blueprint_cost(state: State, seat: int) -> int:
    """Rules, How to Build, Option A: a Station or Hub costs 1 Blueprint; A6 (DEFAULT) frees the first of a Build."""
    return 0 if stop_is_free(state, seat) else COSTS.stop_blueprint


def check_link(state: State, seat: int, command: BuildLink) -> None:
    """Rules, How to Build and Rail & Station Placement Rules: Rails from a Terminus over one free rail space
    (reading 14), never through a Development, once per double space, to an empty plot (a Station left of the
    Capacity Marker, 1 Blueprint) or to another player's Stop not yet connected to; the line never meets itself."""
    city = board_of(state)
    start, end = city.plot_index.get(command.start), city.plot_index.get(command.end)
    if start is None or end is None:
        raise Refusal("unknown-plot", "both ends must be plots of the City")
    player = state.players[seat]
    if start not in termini(player):
        raise Refusal("not-a-terminus", f"{command.start} is not one of your Terminus")
    rail = city.rail_between.get((start, end))
    if rail is None:
        # reading 14: a link is one rail space; no skipping plots
        raise Refusal("no-rail-space", f"no rail space joins {command.start} and {command.end}")
    spec, owners = city.board.rails[rail], state.rail_owners[rail]
    block = city.rail_block[rail]
    if block is not None and state.block_tile[block] is not None:
        raise Refusal("blocked-by-development", "Rails may not run through a Development")
    if seat in owners:
        raise Refusal("one-side-only", "you may not place Rails on both sides of a double rail space")
    if len(owners) >= spec.sides:
        raise Refusal("rail-space-taken", f"rail space {spec.id} is full")
    if player.rails_storage < spec.rails:
        raise Refusal("not-enough-rails", f"this link takes {spec.rails} Rails from your storage")
    if end in player.connected:
        raise Refusal("repeat-connection", "you cannot make a Connection to the same Stop more than once")
    owner = state.stop_owner[end]
    if owner == seat or end in line_plots(player):
        raise Refusal("own-line", "your line may not intersect itself")
    if owner is None:
        if discs_free(player) < 1:
            raise Refusal("no-capacity", "no Station is left of your Capacity Marker")
        afford(player, res=(0, blueprint_cost(state, seat), 0, 0))


def check_hub(state: State, seat: int, command: BuildHub) -> None:
    """Rules, Building a Hub: with the Hub Build Upgrade, a disc stacked on one of your own Stations, left of the
    Capacity Marker, for 1 Blueprint."""
    player = state.players[seat]
    if "hubs" not in player.builds:
        raise Refusal("hubs-locked", "building Hubs needs the Hub Build Upgrade")
    plot = board_of(state).plot_index.get(command.plot)
    if plot is None or state.stop_owner[plot] != seat or state.stop_level[plot] != STATION:
        raise Refusal("not-your-station", "a Hub goes on one of your own Stations (not a Hub or the Prime Hub)")
    if discs_free(player) < 1:
        raise Refusal("no-capacity", "no Station is left of your Capacity Marker")
    afford(player, res=(0, blueprint_cost(state, seat), 0, 0))


def placement_candidates(state: State, seat: int) -> Iterator[BuildLink | BuildHub]:
    """Rules, How to Build: a link from each Terminus to each neighbouring plot, and a Hub on each own Station."""
    city = board_of(state)
    for terminus in termini(state.players[seat]):
        for _, other in city.plot_links[terminus]:
            yield BuildLink(start=city.plots[terminus].id, end=city.plots[other].id)
    for plot in own_stops(state, seat):
        if state.stop_level[plot] == STATION:
            yield BuildHub(plot=city.plots[plot].id)


def can_place(state: State, seat: int) -> bool:
    """Rules, How to Build: some Station, Hub or Connection can be placed now."""
    for command in placement_candidates(state, seat):
        check = check_link if isinstance(command, BuildLink) else check_hub
        if allowed(check, state, seat, command):
            return True
    return False


def check_start(state: State, seat: int, command: StartBuild) -> None:
    """Rules, Build Zone: pay the Build's Permit and Construction; this package's reading: only when something can
    be placed."""
    check_via(state, seat, command.via, "build", "build")
    permits, construction = build_cost(command.via)
    afford(state.players[seat], res=(permits, 0, 0, construction))
    if not can_place(state, seat):
        raise Refusal("nothing-to-build", "no Station, Hub or Connection could be placed")


def start_candidates(state: State, seat: int) -> Iterator[StartBuild]:
    """Rules, Build Zone: each way to take the action."""
    for via in ways(state, seat, "build", "build"):
        yield StartBuild(via=via)


def run_start(decision: Decision[State], seat: int, command: StartBuild) -> None:
    """Rules, Build Zone: the Build is paid for and begins."""
    permits, construction = build_cost(command.via)
    if permits or construction:
        decision.emit(Traded(seat=seat, action="build", via=command.via, give=(permits, 0, 0, construction)))
    decision.emit(BuildStarted(seat=seat, via=command.via))


def run_link(decision: Decision[State], seat: int, command: BuildLink) -> None:
    """Rules, How to Build, Options A and B: the Rails are laid; a new Station becomes the Terminus, or a Connection
    is made."""
    city = board_of(decision.state)
    start, end = city.plot_index[command.start], city.plot_index[command.end]
    rail = city.rail_between[(start, end)]
    owner = decision.state.stop_owner[end]
    station = owner is None
    decision.emit(LinkBuilt(
        seat=seat, start=command.start, end=command.end, rail=city.board.rails[rail].id,
        rails=city.board.rails[rail].rails, station=station, owner=-1 if owner is None else owner,  # the event's -1
        blueprint=blueprint_cost(decision.state, seat) if station else 0,
    ))


def run_hub(decision: Decision[State], seat: int, command: BuildHub) -> None:
    """Rules, Building a Hub: a disc is stacked on the Station."""
    decision.emit(HubBuilt(seat=seat, plot=command.plot, blueprint=blueprint_cost(decision.state, seat)))


def check_finish(state: State, seat: int, command: FinishBuild) -> None:
    """This package's reading: a Build places at least one Station, Hub or Connection before it ends."""
    if not state.turn.placed:
        raise Refusal("nothing-built", "place at least one Station, Hub or Connection first")


def run_finish(decision: Decision[State], seat: int, command: FinishBuild) -> None:
    """Rules, Making a Connection: 1 Power in total to the builder (reading 15: if the market has one), 1 coin per
    Connection to each owner; A5 (DEFAULT) pays the builder per Connection too."""
    connections = decision.state.turn.connections
    power = min(COSTS.connection_power, sum(decision.state.markets[POWER])) if connections else 0
    bonus = UPGRADE_KIND.get("connection_coins")
    paid_bonus = bonus is not None and has_upgrade(decision.state.players[seat], "connection_coins")
    coins = bonus.amount * len(connections) if bonus is not None and paid_bonus else 0
    paid = tuple((owner, connections.count(owner) * COSTS.connection_coin) for owner in sorted(set(connections)))
    decision.emit(BuildFinished(seat=seat, power=power, coins=coins, paid=paid))
    decision.emit(*finish_action(seat))
