"""Advanced Upgrades A1-A6 and Development tile actions (DEFAULT effects, rules/terminus.md data; Rules,
Developments: 'you may choose to execute the Development's action instead of the Action on the Action Loop')."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.games.terminus.events import Exchanged, FollowUpOffered, Traded
from domain.games.terminus.rules_income import budget
from tests.games.given import given, of_type
from tests.games.terminus.tables import development, table, to_act, to_move


def test_a1_exchange_once_per_turn_before_moving() -> None:
    """A1: return 1 resource to its market and take 1 of another type, once per turn (before moving)."""
    state = to_move(table(3), 0, upgrades=("A1",), res=(1, 0, 0, 0))
    assert C.Exchange(give="permit", take="power") in GAME.legal(state, 0)
    move = given(GAME, state).when(0, C.Exchange(give="permit", take="power"))
    after, events = move.state, move.events
    assert events == [Exchanged(seat=0, give="permit", take="power")]
    assert after.players[0].res == (0, 0, 1, 0) and after.step == "move"
    given(GAME, after).when(0, C.Exchange(give="power", take="permit")).then_refused("exchange-used")
    given(GAME, state).when(0, C.Exchange(give="permit", take="permit")).then_refused("same-resource")
    given(GAME, state).when(0, C.Exchange(give="power", take="permit")).then_refused("not-enough-resources")
    given(GAME, state).when(0, C.Exchange(give="permit", take="gold")).then_refused("unknown-resource")
    empty = replace(state, markets=(state.markets[0], state.markets[1], (0, 0, 0, 0), state.markets[3]))
    given(GAME, empty).when(0, C.Exchange(give="permit", take="power")).then_refused("market-empty")
    (
        given(GAME, to_move(table(3), 0, res=(1, 0, 0, 0)))
        .when(0, C.Exchange(give="permit", take="power"))
        .then_refused("no-exchange-upgrade")
    )


def test_a2_income() -> None:
    """A2: +3 coins at Annual Income in Years 2 and 3."""
    state = replace(table(3), year=2)
    state = replace(state, players=tuple(replace(p, upgrades=("A2",)) if i == 0 else p
                                         for i, p in enumerate(state.players)))
    assert budget(state).coins[0] == 15 and budget(replace(state, year=1)).coins[0] == 12


def test_a3_rails_after_a_supply_action() -> None:
    """A3: after another Supply-zone action, Purchase Rails may follow (or the turn ends)."""
    state = replace(to_act(table(3), 0, "supply", upgrades=("A3",), coins=5, res=(0, 0, 0, 0)), order=(0, 1, 2))
    move = given(GAME, state).when(0, C.CollectConstruction())
    after, events = move.state, move.events
    assert events[-1] == FollowUpOffered(seat=0, options=("rails",))
    assert C.PurchaseRails(rails=3) in GAME.legal(after, 0) and C.EndTurn() in GAME.legal(after, 0)
    given(GAME, after).when(0, C.PurchaseRails(rails=1, via="DT09")).then_refused("wrong-step")
    done = given(GAME, after).when(0, C.PurchaseRails(rails=3)).state
    assert done.players[0].rails_storage == 4 and done.current == 1


def test_a4_storage_ten() -> None:
    """A4: the storage holds 10."""
    state = replace(to_act(table(3), 0, "market", upgrades=("A4",), coins=30, res=(2, 2, 2, 2)), order=(0, 1, 2))
    after = given(GAME, state).when(0, C.BuyResources(resource="permit", count=2)).state
    assert sum(after.players[0].res) == 10 and after.current == 1


@pytest.mark.parametrize(("tile", "zone", "coins", "take"), [
    ("DT01", "market", 1, (1, 0, 0, 0)), ("DT02", "market", 1, (0, 0, 1, 0)), ("DT03", "improve", 2, (0, 2, 0, 0)),
    ("DT14", "market", 3, (1, 0, 1, 0)), ("DT17", "improve", 1, (0, 1, 0, 0)), ("DT20", "market", 2, (0, 0, 2, 0)),
    ("DT25", "market", 1, (1, 0, 0, 0)),
])
def test_resource_tiles(tile: str, zone: str, coins: int, take: tuple[int, int, int, int]) -> None:
    """Developments that pay coins for resources, in their own Zone."""
    state = development(to_act(table(3), 0, zone, coins=5, res=(0, 0, 0, 0)), tile, "B00", lobbyists=(0,))
    events = given(GAME, state).when(0, C.UseDevelopment(tile=tile)).events
    assert of_type(events, Traded)[0] == Traded(seat=0, action="use_development", via=tile, coins=-coins, take=take)


def test_resource_tile_refusals() -> None:
    """A resource tile needs its coins and a market able to supply the whole gain."""
    state = development(to_act(table(3), 0, "market", coins=0), "DT20", "B00", lobbyists=(0,))
    given(GAME, state).when(0, C.UseDevelopment(tile="DT20")).then_refused("not-enough-coins")
    empty = replace(to_act(state, 0, "market", coins=5), markets=(state.markets[0], state.markets[1], (0, 0, 0, 1),
                                                                  state.markets[3]))
    given(GAME, empty).when(0, C.UseDevelopment(tile="DT20")).then_refused("market-empty")


def test_supply_tiles() -> None:
    """#04: pay 1 coin, Construction of the two leftmost depots; #24: Construction and 1 Rail; #09: Rails at
    1/2/4 coins for 1/3/6; #15: 1 Capacity step without its Power surcharge."""
    base = to_act(table(4), 0, "supply", coins=10, res=(0, 0, 0, 1), capacity=2)
    depots = base.markets[3]
    first_two = [c for c in depots if c][:2]
    events = given(GAME, development(base, "DT04", "B00", (0,))).when(0, C.CollectConstruction(via="DT04")).events
    assert of_type(events, Traded)[0].take == (0, 0, 0, sum(first_two)) and of_type(events, Traded)[0].coins == -1
    events = given(GAME, development(base, "DT24", "B00", (0,))).when(0, C.CollectConstruction(via="DT24")).events
    assert of_type(events, Traded)[0].rails == 1
    events = given(GAME, development(base, "DT09", "B00", (0,))).when(0, C.PurchaseRails(rails=9, via="DT09")).events
    assert of_type(events, Traded)[0].coins == -6
    tile15 = development(base, "DT15", "B00", (0,))
    events = given(GAME, tile15).when(0, C.IncreaseCapacity(steps=1, via="DT15")).events
    assert of_type(events, Traded)[0].give == (0, 0, 0, 1)
    given(GAME, tile15).when(0, C.IncreaseCapacity(steps=2, via="DT15")).then_refused("bad-steps")


def test_upgrade_discount_tile() -> None:
    """#12: take an Advanced Upgrade paying 1 coin less."""
    state = development(to_act(table(3), 0, "improve", coins=1), "DT12", "B00", (0,))
    events = given(GAME, state).when(0, C.TakeUpgrade(upgrade="A3", via="DT12")).events
    assert of_type(events, Traded)[0].coins == -1
