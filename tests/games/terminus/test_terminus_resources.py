"""Markets, storage, Improve / Market / Supply Zone actions (Rules, Key Terms: Collecting and spending resources;
Improve, Market and Supply Zones; readings 12, 13, 23, 28)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.games.terminus import GAME, state_markets
from domain.games.terminus import commands as C
from domain.games.terminus.events import ActionDone, CapacityIncreased, Traded, TurnEnded, UpgradeTaken
from tests.games.given import given, of_type
from tests.games.terminus.tables import table, to_act

PERMIT, BLUEPRINT, POWER, CONSTRUCTION = range(4)


def test_buying_from_the_leftmost_column() -> None:
    """Worked example 1: from the set-up markets, 2 Permits cost 1 + 2 = 3 coins and 2 Blueprints 2 + 3 = 5."""
    state = replace(to_act(table(4), 0, "market", coins=20, res=(0, 0, 0, 0)), markets=state_markets.initial(4))
    move = given(GAME, state).when(0, C.BuyResources(resource="permit", count=2))
    after, events = move.state, move.events
    assert of_type(events, Traded) == [Traded(seat=0, action="buy_permit", coins=-3, take=(2, 0, 0, 0))]
    assert after.players[0].coins == 17 and after.markets[PERMIT] == (0, 2, 4, 4)
    state = replace(to_act(table(4), 0, "improve", coins=20, res=(0, 0, 0, 0)), markets=state_markets.initial(4))
    move = given(GAME, state).when(0, C.BuyResources(resource="blueprint", count=2))
    after, events = move.state, move.events
    assert after.players[0].coins == 15 and after.players[0].res[BLUEPRINT] == 2


def test_spent_resources_return_to_the_rightmost_free_space() -> None:
    """Worked example 1: Blueprints used go back to the rightmost column with an available space."""
    state = to_act(table(4), 0, "improve", coins=20, res=(0, 0, 0, 0))
    state = given(GAME, state).when(0, C.BuyResources(resource="blueprint", count=3)).state
    assert state.markets[BLUEPRINT] == (0, 1, 4, 4, 3)
    state = replace(state, markets=(state.markets[0], (0, 1, 4, 2, 1), *state.markets[2:]))
    state = to_act(state, 0, "improve", upgrades=("A2",))
    state = given(GAME, state).when(0, C.TakeUpgrade(upgrade="A5")).state  # the second Upgrade spends 1 Blueprint
    assert state.markets[BLUEPRINT] == (0, 1, 4, 2, 2)


def test_two_player_grey_spaces_are_never_refilled() -> None:
    """2-Player Game 1 and reading 23: returned resources skip the grey spaces (a 4-player market fills them)."""
    assert state_markets.initial(2)[PERMIT] == (1, 2, 3, 2) and state_markets.initial(4)[PERMIT] == (1, 3, 4, 4)
    for seats, after in ((2, (0, 0, 3, 2)), (4, (0, 0, 2, 3))):
        state = to_act(table(seats), 0, "lobby", res=(1, 0, 0, 0))
        state = replace(state, markets=((0, 0, 2, 2), *state.markets[1:]))
        state = given(GAME, state).when(0, C.DrawAgendas()).state
        assert state.markets[PERMIT] == after


def test_storage_holds_eight_and_extra_goes_back_without_coins() -> None:
    """Worked example 2 (and reading 28): with one free space Purple buys 2 Blueprints, then returns one
    Construction to its market, no coins back; only then does the turn end."""
    state = to_act(table(3), 0, "improve", coins=20, res=(2, 0, 2, 3))
    state = replace(state, order=(0, 1, 2))
    move = given(GAME, state).when(0, C.BuyResources(resource="blueprint", count=2))
    state, events = move.state, move.events
    assert events[-1] == ActionDone(seat=0) and sum(state.players[0].res) == 9
    assert GAME.to_move(state) == [0]
    assert {c.resource for c in GAME.legal(state, 0)} == {"permit", "blueprint", "power", "construction"}
    given(GAME, state).when(1, C.ReturnResource(resource="permit")).then_refused("not-your-turn")
    coins = state.players[0].coins
    move = given(GAME, state).when(0, C.ReturnResource(resource="construction"))
    state, events = move.state, move.events
    assert state.players[0].res == (2, 2, 2, 2) and state.players[0].coins == coins
    assert TurnEnded(seat=0) in events and state.current == 1


def test_return_refusals() -> None:
    """Returning is only for storage over its limit, and only what you hold."""
    state = to_act(table(3), 0, "improve", coins=20, res=(0, 0, 0, 7))
    state = replace(state, order=(0, 1, 2))
    state = given(GAME, state).when(0, C.BuyResources(resource="blueprint", count=2)).state
    given(GAME, state).when(0, C.ReturnResource(resource="power")).then_refused("nothing-to-return")
    given(GAME, state).when(0, C.ReturnResource(resource="gold")).then_refused("unknown-resource")


def test_market_refusals() -> None:
    """Resources are limited (Market Zone note) and cost coins; the Zone must offer the purchase."""
    state = to_act(table(3), 0, "market", coins=1, res=(0, 0, 0, 0))
    given(GAME, state).when(0, C.BuyResources(resource="permit", count=2)).then_refused("not-enough-coins")
    given(GAME, state).when(0, C.BuyResources(resource="permit", count=99)).then_refused("market-empty")
    given(GAME, state).when(0, C.BuyResources(resource="blueprint", count=1)).then_refused("wrong-zone")
    given(GAME, state).when(0, C.BuyResources(resource="coal", count=1)).then_refused("unknown-resource")
    given(GAME, state).when(0, C.BuyResources(resource="power", count=0)).then_refused("bad-count")


def test_advanced_upgrades() -> None:
    """Worked example 3: the first Upgrade costs 2 coins, the second 2 coins and 1 Blueprint; never two of one
    kind, never more than two."""
    state = to_act(table(3), 0, "improve", coins=10, res=(0, 1, 0, 0))
    move = given(GAME, state).when(0, C.TakeUpgrade(upgrade="A2"))
    after, events = move.state, move.events
    assert of_type(events, Traded)[0].coins == -2 and UpgradeTaken(seat=0, upgrade="A2") in events
    state = to_act(after, 0, "improve")
    given(GAME, state).when(0, C.TakeUpgrade(upgrade="A2")).then_refused("duplicate-upgrade")
    move = given(GAME, state).when(0, C.TakeUpgrade(upgrade="A5"))
    after, events = move.state, move.events
    assert of_type(events, Traded)[0] == Traded(seat=0, action="take_upgrade", coins=-2, give=(0, 1, 0, 0))
    state = to_act(after, 0, "improve", coins=10, res=(0, 3, 0, 0))
    given(GAME, state).when(0, C.TakeUpgrade(upgrade="A1")).then_refused("upgrade-limit")
    (
        given(GAME, to_act(table(3), 0, "improve", coins=1))
        .when(0, C.TakeUpgrade(upgrade="A1"))
        .then_refused("not-enough-coins")
    )
    (
        given(GAME, to_act(table(3), 0, "improve", coins=9))
        .when(0, C.TakeUpgrade(upgrade="A9"))
        .then_refused("unknown-upgrade")
    )
    second = to_act(table(3), 0, "improve", coins=9, res=(0, 0, 0, 0), upgrades=("A1",))
    given(GAME, second).when(0, C.TakeUpgrade(upgrade="A2")).then_refused("not-enough-blueprints")


def test_upgrade_copies_run_out() -> None:
    """Main Board Set Up 7: 2-player games use 1 tile of each Upgrade type."""
    state = to_act(table(2), 1, "improve", coins=10)
    state = replace(state, upgrade_supply=(0, 1, 1, 1, 1, 1))
    given(GAME, state).when(1, C.TakeUpgrade(upgrade="A1")).then_refused("upgrade-unavailable")


def test_increase_capacity_with_power_and_an_upgrade() -> None:
    """Worked example 4: from position 2, Red pays 2 Construction and 1 Power: entering 3 costs the Power, the
    step to 4 passes an Upgrade icon and Red flips the Hubs upgrade at once."""
    state = to_act(table(3), 0, "supply", capacity=2, res=(0, 0, 1, 2))
    legal = [c for c in GAME.legal(state, 0) if isinstance(c, C.IncreaseCapacity) and c.steps == 2]
    assert {c.unlock for c in legal} == {"hubs", "second_terminus"}
    given(GAME, state).when(0, C.IncreaseCapacity(steps=2)).then_refused("bad-unlock")
    move = given(GAME, state).when(0, C.IncreaseCapacity(steps=2, unlock="hubs"))
    after, events = move.state, move.events
    assert of_type(events, Traded)[0].give == (0, 0, 1, 2)
    assert CapacityIncreased(seat=0, steps=2, unlocked=("hubs",)) in events
    assert after.players[0].capacity == 4 and after.players[0].builds == ("hubs",)
    one = to_act(table(3), 0, "supply", capacity=2, res=(0, 0, 0, 2))
    given(GAME, one).when(0, C.IncreaseCapacity(steps=1)).then_refused("not-enough-power")
    given(GAME, one).when(0, C.IncreaseCapacity(steps=1, unlock="hubs")).then_refused("bad-unlock")


def test_the_second_icon_flips_the_other_upgrade() -> None:
    """Build Upgrades: at the second Upgrade icon, flip the remaining tile face up."""
    state = to_act(table(3), 0, "supply", capacity=7, builds=("hubs",), res=(0, 0, 0, 2))
    after = given(GAME, state).when(0, C.IncreaseCapacity(steps=1)).state
    assert after.players[0].builds == ("hubs", "second_terminus")


def test_capacity_limits() -> None:
    """The Capacity track ends at 12; each step costs 1 Construction."""
    state = to_act(table(3), 0, "supply", capacity=12, res=(0, 0, 4, 4))
    given(GAME, state).when(0, C.IncreaseCapacity(steps=1)).then_refused("capacity-full")
    state = to_act(table(3), 0, "supply", capacity=10, res=(0, 0, 4, 1))
    given(GAME, state).when(0, C.IncreaseCapacity(steps=3)).then_refused("bad-steps")
    given(GAME, state).when(0, C.IncreaseCapacity(steps=2)).then_refused("not-enough-construction")


def test_construction_depots() -> None:
    """Worked example 5: Red collects the 1 Construction of the leftmost depot; Orange next takes the 3 in the
    next depot. The depots are free."""
    state = to_act(table(4), 0, "supply", res=(0, 0, 0, 0))
    move = given(GAME, state).when(0, C.CollectConstruction())
    state, events = move.state, move.events
    assert of_type(events, Traded)[0] == Traded(seat=0, action="collect_construction", take=(0, 0, 0, 1))
    state = to_act(state, 1, "supply", res=(0, 0, 0, 0))
    move = given(GAME, state).when(1, C.CollectConstruction())
    state, events = move.state, move.events
    assert state.players[1].res[CONSTRUCTION] == 3
    empty = replace(to_act(table(3), 0, "supply"), markets=(*state.markets[:3], (0,) * 8))
    given(GAME, empty).when(0, C.CollectConstruction()).then_refused("depots-empty")


@pytest.mark.parametrize(("rails", "coins"), [(1, 2), (3, 3), (6, 5), (9, 8), (2, 4), (4, 5)])
def test_rail_bundles(rails: int, coins: int) -> None:
    """Worked example 6: Red pays 3 coins for 3 Rails; Purple 3 + 5 = 8 coins for 9 Rails (reserve to storage)."""
    state = to_act(table(3), 0, "supply", coins=20, rails_storage=0, rails_reserve=32)
    move = given(GAME, state).when(0, C.PurchaseRails(rails=rails))
    state, events = move.state, move.events
    assert of_type(events, Traded)[0] == Traded(seat=0, action="purchase_rails", coins=-coins, rails=rails)
    assert (state.players[0].rails_storage, state.players[0].rails_reserve) == (rails, 32 - rails)


def test_rail_refusals() -> None:
    """Rails come only from the 32-Rail reserve, and cost coins; also offered in the Build Zone."""
    state = to_act(table(3), 0, "build", coins=2, rails_reserve=2)
    given(GAME, state).when(0, C.PurchaseRails(rails=3)).then_refused("bad-count")
    given(GAME, state).when(0, C.PurchaseRails(rails=2)).then_refused("not-enough-coins")
    (
        given(GAME, to_act(state, 0, "build", rails_reserve=0))
        .when(0, C.PurchaseRails(rails=1))
        .then_refused("rail-reserve-empty")
    )
    given(GAME, to_act(state, 0, "market")).when(0, C.PurchaseRails(rails=1)).then_refused("wrong-zone")
