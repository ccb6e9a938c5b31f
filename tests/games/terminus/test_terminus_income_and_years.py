"""Annual Income, passing, next Year's order, the end of the game (Rules, Budget / Turn Order / Passing / End of
Year / End of Game; readings 5, 7, 21, 31)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.games.terminus.events import (
    BonusChosen,
    BonusCollected,
    BudgetPaid,
    GameScored,
    IncomeBegan,
    Passed,
    RewardTaken,
    YearBegan,
    YearEnded,
)
from domain.games.terminus.flow import budget

from .helpers import act, of, player, refused, started, table


def test_year_one_income_is_the_bonus_and_twelve_coins() -> None:
    """Worked examples 10 and 14: the Bonus under '1 Permit, 1 Rail, 1 Power' gives exactly those (the Rail to
    Rail Storage); the Station Track pays 12 coins in Year 1 (players start with none, reading 21)."""
    state = table(3)
    for p in state.players:
        assert (p.coins, p.res, p.rails_storage, p.rails_reserve) == (12, (1, 0, 1, 0), 1, 31)


def test_bonus_choices_stay_hidden_until_all_have_chosen() -> None:
    """Bonuses: markers move simultaneously, so a choice is hidden from the others until everyone has chosen."""
    state = started(2)
    for seat in range(2):
        state, _ = act(state, seat, C.KeepAgenda(agenda=state.players[seat].hand[0]))
    while state.phase == "place-hub":
        state, _ = act(state, state.current, C.PlaceHub(plot=["P11", "P51"][state.current]))
    state, events = act(state, 0, C.ChooseBonus(option=2))
    assert events == [BonusChosen(seat=0, option=2)]
    assert GAME.redact(events[0], 1) == BonusChosen(seat=0, option=-1)
    assert GAME.view(state, 1)["players"][0]["bonus"] is True
    assert refused(state, 0, C.ChooseBonus(option=1)) == "not-your-turn"
    assert refused(state, 1, C.ChooseBonus(option=9)) == "no-such-bonus"
    state, events = act(state, 1, C.ChooseBonus(option=3))
    began = of(events, IncomeBegan)[0]
    assert began.bonuses == (2, 3)
    assert [e.option for e in of(events, BonusCollected)] == [2, 3] or [e.option for e in of(events, BonusCollected)] \
        == [3, 2]


def short_of_blueprints(blueprints: tuple[int, ...]):
    """Year 2 of a 2-player game, both seats choosing the Bonus '2 Blueprints' (area 2) with `blueprints` in the
    Blueprint market: the first in turn order collects first."""
    state, _ = pass_all(table(2))
    state = replace(state, markets=(state.markets[0], blueprints, *state.markets[2:]))
    for seat in range(2):
        state, events = act(state, seat, C.ChooseBonus(option=2))
    return state, events


def test_a_bonus_that_cannot_be_collected_in_full_offers_a_choice() -> None:
    """Bonuses: 'A player may select the same Bonuses as they did the year before, or the same as another player.
    Then, in turn order, players collect the appropriate resources' — 'Note: If a player is unable to collect their
    Bonus in full, that player may instead select an alternate reward from the Bonus Track.' The first seat takes
    2 of the 3 Blueprints; the second may take its own Bonus in part (1 Blueprint) or instead any area of the Bonus
    Track it can collect in full: '1 Permit, 1 Rail, 1 Power' (0), '2 Construction, 1 Blueprint' (1), '3 Rails, 1
    Permit' (3) or 4 coins (4, DEFAULT, alternate only). With the Power market empty, area 0 is no alternate."""
    state, events = short_of_blueprints((0, 0, 0, 1, 2))
    first, second = state.order
    assert of(events, BonusCollected) == [BonusCollected(seat=first, option=2, take=(0, 2, 0, 0))]
    assert GAME.to_move(state) == [second]
    assert GAME.legal(state, second) == [C.TakeBonus(option=o) for o in (2, 0, 1, 3, 4)]
    assert refused(state, second, C.TakeBonus(option=9)) == "bonus-unavailable"
    no_power = replace(state, markets=(*state.markets[:2], (0, 0, 0, 0), state.markets[3]))
    assert GAME.legal(no_power, second) == [C.TakeBonus(option=o) for o in (2, 1, 3, 4)]
    assert refused(no_power, second, C.TakeBonus(option=0)) == "bonus-unavailable"
    assert refused(state, first, C.TakeBonus(option=2)) == "not-your-turn"
    partly, events = act(state, second, C.TakeBonus(option=2))
    assert of(events, BonusCollected) == [BonusCollected(seat=second, option=2, take=(0, 1, 0, 0), partial=True)]
    assert partly.players[second].res[1] == state.players[second].res[1] + 1 and of(events, BudgetPaid)
    rails, events = act(state, second, C.TakeBonus(option=3))
    assert of(events, BonusCollected) == [BonusCollected(seat=second, option=2, take=(1, 0, 0, 0), rails=3,
                                                         alternate=True, reward=3)]
    assert rails.players[second].rails_storage == state.players[second].rails_storage + 3
    coins, events = act(state, second, C.TakeBonus(option=4))
    assert of(events, BonusCollected)[0].coins == 4 and of(events, BonusCollected)[0].reward == 4


def test_a_bonus_collectable_in_full_is_collected_without_a_choice() -> None:
    """Bonuses: with enough Blueprints for both, each seat collects its Bonus in turn order, nothing to choose."""
    state, events = short_of_blueprints((0, 0, 0, 2, 2))
    assert [e.take for e in of(events, BonusCollected)] == [(0, 2, 0, 0), (0, 2, 0, 0)]
    assert not any(e.alternate or e.partial for e in of(events, BonusCollected))
    assert refused(state, state.order[0], C.TakeBonus(option=0)) == "wrong-step"


def test_an_alternate_only_area_cannot_be_chosen_as_the_bonus() -> None:
    """The DEFAULT 4-coin area of the Bonus Track is an alternate reward, never the Bonus itself."""
    state, _ = pass_all(table(2))
    assert GAME.legal(state, 0) == [C.ChooseBonus(option=o) for o in range(4)]
    assert refused(state, 0, C.ChooseBonus(option=4)) == "no-such-bonus"


def test_budget_is_the_rightmost_visible_coin() -> None:
    """Worked example 10: 12 coins with only the Prime Hub; 15 once 3 Stops besides it are built."""
    state = table(3)
    assert budget(state).coins == (12, 12, 12)
    state = player(state, 1, discs_used=3)
    assert budget(state).coins[1] == 15


def pass_all(state, first_mover: int | None = None):
    """Everyone passes; `first_mover` first takes one action (buys a Permit) so the passing order differs."""
    events = []
    while state.phase == "loop":
        seat = state.current
        if seat == first_mover and state.players[seat].zone < 0:
            state, new = act(state, seat, C.Move(zone="market"))
            events += new
            state, new = act(state, seat, C.BuyResources(resource="permit", count=1))
        else:
            state, new = act(state, seat, C.Pass())
        events += new
    return state, events


def test_passing_order_is_next_years_turn_order() -> None:
    """Worked examples 10 and 16 (Passing): the first to pass is first next Year; the passed player's marker leaves the
    loop; when all have passed the Year ends and the next begins with Annual Income."""
    state = table(4)
    mover = state.order[0]
    state, events = pass_all(state, first_mover=mover)
    passes = [e.seat for e in of(events, Passed)]
    assert passes[-1] == mover and [e.position for e in of(events, Passed)] == [1, 2, 3, 4]
    assert of(events, YearEnded) == [YearEnded(year=1, order=tuple(passes))]
    assert YearBegan(year=2) in events
    assert state.order == tuple(passes) and state.phase == "bonus"


def test_turn_order_rewards_in_year_two() -> None:
    """Worked example 16 and reading 5: in a 4-player game the 1st takes a resource or 2 coins, the 2nd a
    resource, the 3rd 1 coin, the 4th (here the last to pass) nothing. Year 1 gives none."""
    state = table(4)
    assert not state.income
    state, _ = pass_all(state, first_mover=state.order[0])
    first, second, third, fourth = state.order
    for seat in range(4):
        state, events = act(state, seat, C.ChooseBonus(option=1))
    assert GAME.to_move(state) == [first]
    assert {c.choice for c in GAME.legal(state, first)} == {"permit", "blueprint", "power", "construction", "coins"}
    coins = state.players[first].coins
    state, events = act(state, first, C.TakeReward(choice="coins"))
    assert state.players[first].coins == coins + 2
    assert GAME.to_move(state) == [second]
    assert refused(state, second, C.TakeReward(choice="coins")) == "reward-unavailable"
    state, events = act(state, second, C.TakeReward(choice="power"))
    assert of(events, RewardTaken)[:2] == [RewardTaken(seat=second, resource="power"), RewardTaken(seat=third, coins=1)]
    assert all(e.seat != fourth for e in of(events, RewardTaken))
    assert state.phase == "loop" and state.current == first


def test_two_player_rewards_use_the_two_leftmost_columns() -> None:
    """2-Player Game 1 and reading 5: with 2 players the 1st collects 1 coin, the 2nd nothing."""
    state = table(2)
    state, _ = pass_all(state)
    state, _ = act(state, 0, C.ChooseBonus(option=2))
    state, events = act(state, 1, C.ChooseBonus(option=2))
    assert of(events, RewardTaken) == [RewardTaken(seat=state.order[0], coins=1)]
    assert of(events, BudgetPaid)


def test_the_game_ends_after_year_three() -> None:
    """End of Game: when all players pass in Year 3, scoring happens and the match has an outcome."""
    state = table(2)
    for _ in range(3):
        state, events = pass_all(state)
        if state.phase == "bonus":
            for seat in range(2):
                state, events = act(state, seat, C.ChooseBonus(option=0))
            while state.phase == "income":  # the Power market may run short: take the Bonus in part
                seat = GAME.to_move(state)[0]
                state, events = act(state, seat, GAME.legal(state, seat)[0])
    assert state.phase == "over" and of(events, GameScored)
    outcome = GAME.outcome(state)
    assert outcome is not None and len(outcome.results) == 2
    assert GAME.to_move(state) == [] and GAME.legal(state, 0) == []
    assert refused(state, 0, C.Pass()) == "game-over"
