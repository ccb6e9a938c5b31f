"""Resource actions: buy from a market, Advanced Upgrades, Capacity, Construction depots, Rails, Development gains,
the A1 exchange. Each action has a check (None or an error), its candidate commands, and its events."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from domain.engine import Decision
from domain.games.terminus import common as c
from domain.games.terminus import market
from domain.games.terminus.cards import DATA, RESOURCES, TILE_INDEX, TILES, UPGRADE_INDEX, UPGRADES, ZONES
from domain.games.terminus.commands import (
    BuyResources,
    CollectConstruction,
    Exchange,
    IncreaseCapacity,
    PurchaseRails,
    TakeUpgrade,
    UseDevelopment,
)
from domain.games.terminus.events import CapacityIncreased, Exchanged, Traded, UpgradeTaken
from domain.games.terminus.state import CONSTRUCTION, State, has_upgrade

BUYABLE = {"blueprint": "buy_blueprint", "permit": "buy_permit", "power": "buy_power"}
BOARD = DATA.player_board


# --- Buy Blueprints / Permits / Power (Improve and Market Zones) -------------------------------------------------


def check_buy(state: State, seat: int, cmd: BuyResources) -> c.Error:
    action = BUYABLE.get(cmd.resource)
    if action is None:
        return "unknown-resource", f"{cmd.resource!r} cannot be bought"
    err = c.via_error(state, seat, "", action, "")
    if err:
        return err
    if cmd.count < 1:
        return "bad-count", "buy at least one"
    r = RESOURCES.index(cmd.resource)
    price = market.price(r, state.markets[r], cmd.count)
    if price is None:
        return "market-empty", f"the {cmd.resource} market holds fewer than {cmd.count}"
    return c.afford(state.players[seat], coins=price)


def buy_candidates(state: State, seat: int) -> Iterator[BuyResources]:
    for resource, action in BUYABLE.items():
        if c.zone_offers(state, seat, action):
            r = RESOURCES.index(resource)
            for n in range(1, sum(state.markets[r]) + 1):
                yield BuyResources(resource=resource, count=n)


def run_buy(b: Decision[State], seat: int, cmd: BuyResources) -> None:
    r = RESOURCES.index(cmd.resource)
    price = market.price(r, b.state.markets[r], cmd.count) or 0
    b.emit(Traded(seat=seat, action=BUYABLE[cmd.resource], coins=-price, take=c.cost(cmd.resource, cmd.count)))
    b.emit(*c.finish_action(b.state, seat))


# --- Advanced Upgrades (Improve Zone) ------------------------------------------------------------------------------


def upgrade_price(state: State, seat: int, via: str) -> tuple[int, int]:
    """(coins, blueprints) of the next Advanced Upgrade: 2, then 2 and 1 Blueprint; tile #12 takes a coin off."""
    owned = len(state.players[seat].upgrades)
    coins, blueprints = DATA.costs.upgrade_costs[min(owned, len(DATA.costs.upgrade_costs) - 1)]
    tile = c.via_tile(via)
    return max(0, coins - (tile.discount if tile else 0)), blueprints


def check_upgrade(state: State, seat: int, cmd: TakeUpgrade) -> c.Error:
    err = c.via_error(state, seat, cmd.via, "take_upgrade", "upgrade")
    if err:
        return err
    if cmd.upgrade not in UPGRADE_INDEX:
        return "unknown-upgrade", f"there is no Advanced Upgrade {cmd.upgrade!r}"
    player = state.players[seat]
    if len(player.upgrades) >= DATA.costs.max_upgrades:
        return "upgrade-limit", "you already have 2 Advanced Upgrades"
    if cmd.upgrade in player.upgrades:
        return "duplicate-upgrade", "you cannot have 2 of the same Upgrade"
    if state.upgrade_supply[UPGRADE_INDEX[cmd.upgrade]] <= 0:
        return "upgrade-unavailable", f"no {cmd.upgrade} tile is left"
    coins, blueprints = upgrade_price(state, seat, cmd.via)
    return c.afford(player, coins=coins, res=(0, blueprints, 0, 0))


def upgrade_candidates(state: State, seat: int) -> Iterator[TakeUpgrade]:
    for via in c.ways(state, seat, "take_upgrade", "upgrade"):
        for up in UPGRADES:
            yield TakeUpgrade(upgrade=up.id, via=via)


def run_upgrade(b: Decision[State], seat: int, cmd: TakeUpgrade) -> None:
    coins, blueprints = upgrade_price(b.state, seat, cmd.via)
    b.emit(Traded(seat=seat, action="take_upgrade", via=cmd.via, coins=-coins, give=(0, blueprints, 0, 0)))
    b.emit(UpgradeTaken(seat=seat, upgrade=cmd.upgrade))
    b.emit(*c.finish_action(b.state, seat))


# --- Increase Capacity (Supply Zone) -----------------------------------------------------------------------------


def capacity_plan(state: State, seat: int, cmd: IncreaseCapacity) -> tuple[int, int, tuple[str, ...], bool]:
    """(Construction, Power, Build Upgrades flipped, whether the first flip is the player's choice)."""
    player = state.players[seat]
    tile = c.via_tile(cmd.via)
    start, end = player.capacity, player.capacity + cmd.steps
    power = 0 if tile and tile.ignore_power else sum(BOARD.capacity_power[start + 1 : end + 1])
    icons = sum(1 for i in BOARD.upgrade_icons if start < i <= end)
    remaining = [u for u in BOARD.build_upgrades if u not in player.builds]
    choice = icons > 0 and len(remaining) > 1
    if choice:
        first = cmd.unlock
        unlocked = (first, *[u for u in remaining if u != first][: icons - 1])
    else:
        unlocked = tuple(remaining[:icons])
    return cmd.steps * DATA.costs.capacity_construction_per_step, power, unlocked, choice


def check_capacity(state: State, seat: int, cmd: IncreaseCapacity) -> c.Error:
    err = c.via_error(state, seat, cmd.via, "increase_capacity", "capacity")
    if err:
        return err
    player = state.players[seat]
    tile = c.via_tile(cmd.via)
    if player.capacity >= len(BOARD.capacity_power) - 1:
        return "capacity-full", "your Capacity Marker is at the end of its track"
    too_far = player.capacity + cmd.steps > len(BOARD.capacity_power) - 1
    if cmd.steps < 1 or too_far or (tile and cmd.steps != tile.count):
        return "bad-steps", "that many Capacity steps are not possible"
    construction, power, _, choice = capacity_plan(state, seat, cmd)
    if choice and cmd.unlock not in BOARD.build_upgrades:
        return "bad-unlock", "choose which Build Upgrade to flip: " + " or ".join(BOARD.build_upgrades)
    if not choice and cmd.unlock:
        return "bad-unlock", "this move flips no Build Upgrade of your choice"
    return c.afford(player, res=(0, 0, power, construction))


def capacity_candidates(state: State, seat: int) -> Iterator[IncreaseCapacity]:
    player = state.players[seat]
    top = len(BOARD.capacity_power) - 1
    most = min(top - player.capacity, player.res[CONSTRUCTION] // max(1, DATA.costs.capacity_construction_per_step))
    for via in c.ways(state, seat, "increase_capacity", "capacity"):
        for steps in range(1, max(most, 1) + 1):
            passes = any(player.capacity < i <= player.capacity + steps for i in BOARD.upgrade_icons)
            for unlock in ("", *BOARD.build_upgrades) if passes else ("",):
                yield IncreaseCapacity(steps=steps, unlock=unlock, via=via)


def run_capacity(b: Decision[State], seat: int, cmd: IncreaseCapacity) -> None:
    construction, power, unlocked, _ = capacity_plan(b.state, seat, cmd)
    b.emit(Traded(seat=seat, action="increase_capacity", via=cmd.via, give=(0, 0, power, construction)))
    b.emit(CapacityIncreased(seat=seat, steps=cmd.steps, unlocked=unlocked))
    b.emit(*c.finish_action(b.state, seat, supply_follow(b.state, seat)))


# --- Collect Construction (Supply Zone) ----------------------------------------------------------------------------


def check_collect(state: State, seat: int, cmd: CollectConstruction) -> c.Error:
    err = c.via_error(state, seat, cmd.via, "collect_construction", "collect_construction")
    if err:
        return err
    if not sum(state.markets[CONSTRUCTION]):
        return "depots-empty", "every Construction depot is empty"
    tile = c.via_tile(cmd.via)
    return c.afford(state.players[seat], coins=tile.coins if tile else 0)


def collect_candidates(state: State, seat: int) -> Iterator[CollectConstruction]:
    for via in c.ways(state, seat, "collect_construction", "collect_construction"):
        yield CollectConstruction(via=via)


def run_collect(b: Decision[State], seat: int, cmd: CollectConstruction) -> None:
    tile = c.via_tile(cmd.via)
    amount = market.leftmost_depots(b.state.markets[CONSTRUCTION], tile.depots if tile else 1)
    rails = min(tile.rails if tile else 0, b.state.players[seat].rails_reserve)
    b.emit(Traded(seat=seat, action="collect_construction", via=cmd.via, coins=-(tile.coins if tile else 0),
                  take=(0, 0, 0, amount), rails=rails))
    b.emit(*c.finish_action(b.state, seat, supply_follow(b.state, seat)))


# --- Purchase Rails (Supply and Build Zones; A3 follow-up) ---------------------------------------------------------


@cache
def rail_price(n: int, bundles: tuple[tuple[int, int], ...]) -> int | None:
    """The cheapest combination of bundles giving exactly `n` Rails (reading: any combination may be bought)."""
    best: list[int | None] = [0] + [None] * n
    for k in range(1, n + 1):
        options = [best[k - r] + coins for coins, r in bundles if r <= k and best[k - r] is not None]  # type: ignore[operator]
        best[k] = min(options) if options else None
    return best[n]


def rail_bundles(via: str) -> tuple[tuple[int, int], ...]:
    tile = c.via_tile(via)
    return tile.bundles if tile else DATA.costs.rail_bundles


def check_rails(state: State, seat: int, cmd: PurchaseRails) -> c.Error:
    if state.step == "after":
        if "rails" not in state.turn.follow or cmd.via:
            return "wrong-step", "no Rail purchase is on offer now"
    else:
        err = c.via_error(state, seat, cmd.via, "purchase_rails", "purchase_rails")
        if err:
            return err
    player = state.players[seat]
    if not player.rails_reserve:
        return "rail-reserve-empty", "your Rail reserve is empty"
    if cmd.rails < 1 or cmd.rails > player.rails_reserve:
        return "bad-count", f"you may buy 1 to {player.rails_reserve} Rails"
    price = rail_price(cmd.rails, rail_bundles(cmd.via))
    if price is None:
        return "bad-count", f"no bundles give exactly {cmd.rails} Rails"
    return c.afford(player, coins=price)


def rails_candidates(state: State, seat: int) -> Iterator[PurchaseRails]:
    vias = [""] if state.step == "after" else list(c.ways(state, seat, "purchase_rails", "purchase_rails"))
    for via in vias:
        for n in range(1, state.players[seat].rails_reserve + 1):
            yield PurchaseRails(rails=n, via=via)


def run_rails(b: Decision[State], seat: int, cmd: PurchaseRails) -> None:
    price = rail_price(cmd.rails, rail_bundles(cmd.via)) or 0
    b.emit(Traded(seat=seat, action="purchase_rails", via=cmd.via, coins=-price, rails=cmd.rails))
    b.emit(*c.finish_action(b.state, seat))


def supply_follow(state: State, seat: int) -> tuple[str, ...]:
    """A3 (DEFAULT): after another Supply-zone action, Purchase Rails may follow (when one is affordable)."""
    player = state.players[seat]
    if not has_upgrade(player, "extra_rails") or ZONES[player.zone] != "supply" or not player.rails_reserve:
        return ()
    price = rail_price(1, DATA.costs.rail_bundles)
    return ("rails",) if price is not None and player.coins >= price else ()


# --- Development resource actions (gain tiles) --------------------------------------------------------------------


def check_use(state: State, seat: int, cmd: UseDevelopment) -> c.Error:
    tile_index = TILE_INDEX.get(cmd.tile)
    if tile_index is None:
        return "unknown-tile", f"there is no Development {cmd.tile!r}"
    tile = TILES[tile_index]
    if tile.kind not in ("gain", "any_resource"):
        return "wrong-development", f"{cmd.tile}'s action is taken with its own command"
    if not c.tile_usable(state, seat, tile_index):
        return "development-not-usable", f"you need a Lobbyist on {cmd.tile} in the City and your marker in its Zone"
    if tile.kind == "gain":
        if cmd.resource:
            return "unknown-resource", f"{cmd.tile} gives fixed resources"
        for name, n in tile.gain.items():
            have = sum(state.markets[RESOURCES.index(name)])
            if (have < 1) if name == "construction" else (have < n):
                return "market-empty", f"the {name} market cannot supply {n}"
    else:
        r = c.resource_index(cmd.resource)
        if r is None:
            return "unknown-resource", f"choose one of {', '.join(RESOURCES)}"
        if not sum(state.markets[r]):
            return "market-empty", f"the {cmd.resource} market is empty"
    return c.afford(state.players[seat], coins=tile.coins)


def use_candidates(state: State, seat: int) -> Iterator[UseDevelopment]:
    for tile_id in c.usable_tiles(state, seat, "gain"):
        yield UseDevelopment(tile=tile_id)
    for tile_id in c.usable_tiles(state, seat, "any_resource"):
        for resource in RESOURCES:
            yield UseDevelopment(tile=tile_id, resource=resource)


def run_use(b: Decision[State], seat: int, cmd: UseDevelopment) -> None:
    tile = TILES[TILE_INDEX[cmd.tile]]
    take = [0, 0, 0, 0]
    if tile.kind == "gain":
        for name, n in tile.gain.items():
            r = RESOURCES.index(name)
            take[r] = min(n, sum(b.state.markets[r])) if name == "construction" else n  # reading 29
    else:
        take[RESOURCES.index(cmd.resource)] = 1
    b.emit(Traded(seat=seat, action="use_development", via=cmd.tile, coins=-tile.coins,
                  take=(take[0], take[1], take[2], take[3])))
    b.emit(*c.finish_action(b.state, seat, supply_follow(b.state, seat)))


# --- A1 exchange (DEFAULT), once per turn before moving ------------------------------------------------------------


def check_exchange(state: State, seat: int, cmd: Exchange) -> c.Error:
    player = state.players[seat]
    if not has_upgrade(player, "exchange"):
        return "no-exchange-upgrade", "exchanging needs the exchange Advanced Upgrade"
    if state.turn.exchanged:
        return "exchange-used", "you already exchanged this turn"
    give, take = c.resource_index(cmd.give), c.resource_index(cmd.take)
    if give is None or take is None:
        return "unknown-resource", f"resources are {', '.join(RESOURCES)}"
    if give == take:
        return "same-resource", "exchange for a resource of another type"
    if not player.res[give]:
        return "not-enough-resources", f"you hold no {cmd.give}"
    if not sum(state.markets[take]):
        return "market-empty", f"the {cmd.take} market is empty"
    return None


def exchange_candidates(state: State, seat: int) -> Iterator[Exchange]:
    if has_upgrade(state.players[seat], "exchange"):
        for give in RESOURCES:
            for take in RESOURCES:
                yield Exchange(give=give, take=take)


def run_exchange(b: Decision[State], seat: int, cmd: Exchange) -> None:
    b.emit(Exchanged(seat=seat, give=cmd.give, take=cmd.take))

