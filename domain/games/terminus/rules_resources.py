"""Resource actions: buy from a market (Improve and Market Zones), Advanced Upgrades (Improve Zone), Capacity,
Construction depots and Rails (Supply Zone), Development gains, and the A1 exchange. Each action has a check
(raising a `Refusal`), its candidate commands, and its events."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from domain.engine import Decision, Refusal
from domain.games.terminus.commands import (
    BuyResources,
    CollectConstruction,
    Exchange,
    IncreaseCapacity,
    PurchaseRails,
    TakeUpgrade,
    UseDevelopment,
)
from domain.games.terminus.components import DATA, RESOURCES, TILE_INDEX, TILES, UPGRADE_INDEX, UPGRADES, ZONES
from domain.games.terminus.events import CapacityIncreased, Exchanged, Traded, UpgradeTaken
from domain.games.terminus.rules_checks import afford, check_via
from domain.games.terminus.rules_table import resource_index, tile_usable, usable_tiles, via_tile, ways, zone_offers
from domain.games.terminus.rules_turn import finish_action
from domain.games.terminus.state import FollowUp, State
from domain.games.terminus.state_markets import cubes, leftmost_depots, price
from domain.games.terminus.state_players import has_upgrade

BUYABLE = {"blueprint": "buy_blueprint", "permit": "buy_permit", "power": "buy_power"}
BOARD = DATA.player_board
CONSTRUCTION = RESOURCES.index("construction")


def check_buy(state: State, seat: int, command: BuyResources) -> None:
    """Rules, Improve Zone and Market Zone: buy Blueprints, Permits or Power, one by one from the leftmost column
    (Collecting and spending resources); "All resources are LIMITED"."""
    action = BUYABLE.get(command.resource)
    if action is None:
        raise Refusal("unknown-resource", f"{command.resource!r} cannot be bought")
    check_via(state, seat, "", action, "")
    if command.count < 1:
        raise Refusal("bad-count", "buy at least one")
    index = RESOURCES.index(command.resource)
    cost = price(index, state.markets[index], command.count)
    if cost is None:
        raise Refusal("market-empty", f"the {command.resource} market holds fewer than {command.count}")
    afford(state.players[seat], coins=cost)


def buy_candidates(state: State, seat: int) -> Iterator[BuyResources]:
    """Rules, Improve Zone and Market Zone: every count up to what the market holds."""
    for resource, action in BUYABLE.items():
        if zone_offers(state, seat, action):
            index = RESOURCES.index(resource)
            for n in range(1, sum(state.markets[index]) + 1):
                yield BuyResources(resource=resource, count=n)


def run_buy(decision: Decision[State], seat: int, command: BuyResources) -> None:
    """Rules, Collecting and spending resources: the cubes are paid for and stored."""
    index = RESOURCES.index(command.resource)
    cost = price(index, decision.state.markets[index], command.count) or 0
    decision.emit(Traded(seat=seat, action=BUYABLE[command.resource], coins=-cost,
                         take=cubes(command.resource, command.count)))
    decision.emit(*finish_action(seat))


def upgrade_price(state: State, seat: int, via: str) -> tuple[int, int]:
    """Rules, Improve Zone: (coins, Blueprints) of the next Advanced Upgrade: 2, then 2 and 1 Blueprint; tile #12
    takes a coin off (DEFAULT)."""
    owned = len(state.players[seat].upgrades)
    coins, blueprints = DATA.costs.upgrade_costs[min(owned, len(DATA.costs.upgrade_costs) - 1)]
    tile = via_tile(via)
    return max(0, coins - (tile.discount if tile else 0)), blueprints


def check_upgrade(state: State, seat: int, command: TakeUpgrade) -> None:
    """Rules, Improve Zone: an Advanced Upgrade left in the supply, 2 at most and never 2 of the same."""
    check_via(state, seat, command.via, "take_upgrade", "upgrade")
    if command.upgrade not in UPGRADE_INDEX:
        raise Refusal("unknown-upgrade", f"there is no Advanced Upgrade {command.upgrade!r}")
    player = state.players[seat]
    if len(player.upgrades) >= DATA.costs.max_upgrades:
        raise Refusal("upgrade-limit", "you already have 2 Advanced Upgrades")
    if command.upgrade in player.upgrades:
        raise Refusal("duplicate-upgrade", "you cannot have 2 of the same Upgrade")
    if state.upgrade_supply[UPGRADE_INDEX[command.upgrade]] <= 0:
        raise Refusal("upgrade-unavailable", f"no {command.upgrade} tile is left")
    coins, blueprints = upgrade_price(state, seat, command.via)
    afford(player, coins=coins, res=(0, blueprints, 0, 0))


def upgrade_candidates(state: State, seat: int) -> Iterator[TakeUpgrade]:
    """Rules, Improve Zone: every Upgrade, by each way to take the action."""
    for via in ways(state, seat, "take_upgrade", "upgrade"):
        for upgrade in UPGRADES:
            yield TakeUpgrade(upgrade=upgrade.id, via=via)


def run_upgrade(decision: Decision[State], seat: int, command: TakeUpgrade) -> None:
    """Rules, Improve Zone: the Upgrade is paid for and taken."""
    coins, blueprints = upgrade_price(decision.state, seat, command.via)
    decision.emit(Traded(seat=seat, action="take_upgrade", via=command.via, coins=-coins, give=(0, blueprints, 0, 0)))
    decision.emit(UpgradeTaken(seat=seat, upgrade=command.upgrade))
    decision.emit(*finish_action(seat))


def capacity_plan(state: State, seat: int, command: IncreaseCapacity) -> tuple[int, int, tuple[str, ...], bool]:
    """Rules, Capacity and Build Upgrades: (Construction, Power, Build Upgrades flipped, whether the first flip is
    the player's choice)."""
    player = state.players[seat]
    tile = via_tile(command.via)
    start, end = player.capacity, player.capacity + command.steps
    power = 0 if tile and tile.ignore_power else sum(BOARD.capacity_power[start + 1 : end + 1])
    icons = sum(1 for icon in BOARD.upgrade_icons if start < icon <= end)
    remaining = [upgrade for upgrade in BOARD.build_upgrades if upgrade not in player.builds]
    choice = icons > 0 and len(remaining) > 1
    if choice:
        first = command.unlock
        unlocked = (first, *[upgrade for upgrade in remaining if upgrade != first][: icons - 1])
    else:
        unlocked = tuple(remaining[:icons])
    return command.steps * DATA.costs.capacity_construction_per_step, power, unlocked, choice


def check_capacity(state: State, seat: int, command: IncreaseCapacity) -> None:
    """Rules, Capacity: pay Construction per step and the Power surcharges passed, within the track; the first
    Build Upgrade icon passed flips the Upgrade the player chooses."""
    check_via(state, seat, command.via, "increase_capacity", "capacity")
    player = state.players[seat]
    tile = via_tile(command.via)
    if player.capacity >= len(BOARD.capacity_power) - 1:
        raise Refusal("capacity-full", "your Capacity Marker is at the end of its track")
    too_far = player.capacity + command.steps > len(BOARD.capacity_power) - 1
    if command.steps < 1 or too_far or (tile and command.steps != tile.count):
        raise Refusal("bad-steps", "that many Capacity steps are not possible")
    construction, power, _, choice = capacity_plan(state, seat, command)
    if choice and command.unlock not in BOARD.build_upgrades:
        raise Refusal("bad-unlock", "choose which Build Upgrade to flip: " + " or ".join(BOARD.build_upgrades))
    if not choice and command.unlock:
        raise Refusal("bad-unlock", "this move flips no Build Upgrade of your choice")
    afford(player, res=(0, 0, power, construction))


def capacity_candidates(state: State, seat: int) -> Iterator[IncreaseCapacity]:
    """Rules, Capacity: every number of steps the seat's Construction pays for, each Upgrade choice where it flips."""
    player = state.players[seat]
    top = len(BOARD.capacity_power) - 1
    most = min(top - player.capacity, player.res[CONSTRUCTION] // max(1, DATA.costs.capacity_construction_per_step))
    for via in ways(state, seat, "increase_capacity", "capacity"):
        for steps in range(1, max(most, 1) + 1):
            passes = any(player.capacity < icon <= player.capacity + steps for icon in BOARD.upgrade_icons)
            for unlock in ("", *BOARD.build_upgrades) if passes else ("",):
                yield IncreaseCapacity(steps=steps, unlock=unlock, via=via)


def run_capacity(decision: Decision[State], seat: int, command: IncreaseCapacity) -> None:
    """Rules, Capacity: the Marker moves, paid for; Build Upgrades passed flip face up."""
    construction, power, unlocked, _ = capacity_plan(decision.state, seat, command)
    decision.emit(Traded(seat=seat, action="increase_capacity", via=command.via, give=(0, 0, power, construction)))
    decision.emit(CapacityIncreased(seat=seat, steps=command.steps, unlocked=unlocked))
    decision.emit(*finish_action(seat, supply_follow(decision.state, seat)))


def check_collect(state: State, seat: int, command: CollectConstruction) -> None:
    """Rules, Depots: take all Construction of the leftmost depot that holds some."""
    check_via(state, seat, command.via, "collect_construction", "collect_construction")
    if not sum(state.markets[CONSTRUCTION]):
        raise Refusal("depots-empty", "every Construction depot is empty")
    tile = via_tile(command.via)
    afford(state.players[seat], coins=tile.coins if tile else 0)


def collect_candidates(state: State, seat: int) -> Iterator[CollectConstruction]:
    """Rules, Depots: each way to take the action."""
    for via in ways(state, seat, "collect_construction", "collect_construction"):
        yield CollectConstruction(via=via)


def run_collect(decision: Decision[State], seat: int, command: CollectConstruction) -> None:
    """Rules, Depots: the leftmost depot's Construction (a Development's own depots, coins and Rails)."""
    tile = via_tile(command.via)
    amount = leftmost_depots(decision.state.markets[CONSTRUCTION], tile.depots if tile else 1)
    rails = min(tile.rails if tile else 0, decision.state.players[seat].rails_reserve)
    decision.emit(Traded(seat=seat, action="collect_construction", via=command.via,
                         coins=-(tile.coins if tile else 0), take=(0, 0, 0, amount), rails=rails))
    decision.emit(*finish_action(seat, supply_follow(decision.state, seat)))


@cache
def rail_price(n: int, bundles: tuple[tuple[int, int], ...]) -> int | None:
    """Rules, Rails & Rail Reserve ("Multiple purchases may be made, in any combination"): the cheapest combination
    of bundles giving exactly `n` Rails (a deviation: one purchase names the number)."""
    best: list[int | None] = [0] + [None] * n
    for k in range(1, n + 1):
        options = [best[k - got] + coins for coins, got in bundles if got <= k and best[k - got] is not None]  # type: ignore[operator]
        best[k] = min(options) if options else None
    return best[n]


def rail_bundles(via: str) -> tuple[tuple[int, int], ...]:
    """Rules, Rails & Rail Reserve: (coins, Rails) bundles: 2/1, 3/3, 5/6, or a Development's own."""
    tile = via_tile(via)
    return tile.bundles if tile else DATA.costs.rail_bundles


def check_rails(state: State, seat: int, command: PurchaseRails) -> None:
    """Rules, Rails & Rail Reserve: Rails from the seat's reserve to its storage, at the bundles' price."""
    if state.step == "after":
        if "rails" not in state.turn.follow or command.via:
            raise Refusal("wrong-step", "no Rail purchase is on offer now")
    else:
        check_via(state, seat, command.via, "purchase_rails", "purchase_rails")
    player = state.players[seat]
    if not player.rails_reserve:
        raise Refusal("rail-reserve-empty", "your Rail reserve is empty")
    if command.rails < 1 or command.rails > player.rails_reserve:
        raise Refusal("bad-count", f"you may buy 1 to {player.rails_reserve} Rails")
    cost = rail_price(command.rails, rail_bundles(command.via))
    if cost is None:
        raise Refusal("bad-count", f"no bundles give exactly {command.rails} Rails")
    afford(player, coins=cost)


def rails_candidates(state: State, seat: int) -> Iterator[PurchaseRails]:
    """Rules, Rails & Rail Reserve: every number up to the reserve, by each way to take the action."""
    vias = [""] if state.step == "after" else list(ways(state, seat, "purchase_rails", "purchase_rails"))
    for via in vias:
        for n in range(1, state.players[seat].rails_reserve + 1):
            yield PurchaseRails(rails=n, via=via)


def run_rails(decision: Decision[State], seat: int, command: PurchaseRails) -> None:
    """Rules, Rails & Rail Reserve: the Rails are paid for and stored."""
    cost = rail_price(command.rails, rail_bundles(command.via)) or 0
    decision.emit(Traded(seat=seat, action="purchase_rails", via=command.via, coins=-cost, rails=command.rails))
    decision.emit(*finish_action(seat))


def supply_follow(state: State, seat: int) -> tuple[FollowUp, ...]:
    """Advanced Upgrade A3 (DEFAULT): after another Supply-zone action, Purchase Rails may follow (when one is
    affordable)."""
    player = state.players[seat]
    if not has_upgrade(player, "extra_rails") or player.zone is None or ZONES[player.zone] != "supply":
        return ()
    if not player.rails_reserve:
        return ()
    cost = rail_price(1, DATA.costs.rail_bundles)
    return ("rails",) if cost is not None and player.coins >= cost else ()


def check_use(state: State, seat: int, command: UseDevelopment) -> None:
    """Rules, Developments: a gain tile's resources (reading 29: Construction as far as the depots go), or one
    resource of the seat's choice, for the tile's coins."""
    index = TILE_INDEX.get(command.tile)
    if index is None:
        raise Refusal("unknown-tile", f"there is no Development {command.tile!r}")
    tile = TILES[index]
    if tile.kind not in ("gain", "any_resource"):
        raise Refusal("wrong-development", f"{command.tile}'s action is taken with its own command")
    if not tile_usable(state, seat, index):
        raise Refusal("development-not-usable",
                      f"you need a Lobbyist on {command.tile} in the City and your marker in its Zone")
    if tile.kind == "gain":
        if command.resource:
            raise Refusal("unknown-resource", f"{command.tile} gives fixed resources")
        for name, n in tile.gain.items():
            have = sum(state.markets[RESOURCES.index(name)])
            if (have < 1) if name == "construction" else (have < n):
                raise Refusal("market-empty", f"the {name} market cannot supply {n}")
    else:
        chosen = resource_index(command.resource)
        if chosen is None:
            raise Refusal("unknown-resource", f"choose one of {', '.join(RESOURCES)}")
        if not sum(state.markets[chosen]):
            raise Refusal("market-empty", f"the {command.resource} market is empty")
    afford(state.players[seat], coins=tile.coins)


def use_candidates(state: State, seat: int) -> Iterator[UseDevelopment]:
    """Rules, Developments: each usable gain tile, and each resource of each usable 'any resource' tile."""
    for tile in usable_tiles(state, seat, "gain"):
        yield UseDevelopment(tile=tile)
    for tile in usable_tiles(state, seat, "any_resource"):
        for resource in RESOURCES:
            yield UseDevelopment(tile=tile, resource=resource)


def run_use(decision: Decision[State], seat: int, command: UseDevelopment) -> None:
    """Rules, Developments: the tile's gain, paid for (reading 29: Construction as far as the depots go)."""
    tile = TILES[TILE_INDEX[command.tile]]
    take = [0, 0, 0, 0]
    if tile.kind == "gain":
        for name, n in tile.gain.items():
            index = RESOURCES.index(name)
            take[index] = min(n, sum(decision.state.markets[index])) if name == "construction" else n
    else:
        take[RESOURCES.index(command.resource)] = 1
    decision.emit(Traded(seat=seat, action="use_development", via=command.tile, coins=-tile.coins,
                         take=(take[0], take[1], take[2], take[3])))
    decision.emit(*finish_action(seat, supply_follow(decision.state, seat)))


def check_exchange(state: State, seat: int, command: Exchange) -> None:
    """Advanced Upgrade A1 (DEFAULT): once a turn, before moving, return one resource and take another."""
    player = state.players[seat]
    if not has_upgrade(player, "exchange"):
        raise Refusal("no-exchange-upgrade", "exchanging needs the exchange Advanced Upgrade")
    if state.turn.exchanged:
        raise Refusal("exchange-used", "you already exchanged this turn")
    give, take = resource_index(command.give), resource_index(command.take)
    if give is None or take is None:
        raise Refusal("unknown-resource", f"resources are {', '.join(RESOURCES)}")
    if give == take:
        raise Refusal("same-resource", "exchange for a resource of another type")
    if not player.res[give]:
        raise Refusal("not-enough-resources", f"you hold no {command.give}")
    if not sum(state.markets[take]):
        raise Refusal("market-empty", f"the {command.take} market is empty")


def exchange_candidates(state: State, seat: int) -> Iterator[Exchange]:
    """Advanced Upgrade A1: every pair of resources, for an owner of the Upgrade."""
    if has_upgrade(state.players[seat], "exchange"):
        for give in RESOURCES:
            for take in RESOURCES:
                yield Exchange(give=give, take=take)


def run_exchange(decision: Decision[State], seat: int, command: Exchange) -> None:
    """Advanced Upgrade A1: the exchange."""
    decision.emit(Exchanged(seat=seat, give=command.give, take=command.take))
