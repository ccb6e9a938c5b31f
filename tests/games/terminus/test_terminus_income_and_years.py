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
from domain.games.terminus.rules_income import budget
from tests.games.given import given, of_type
from tests.games.terminus.tables import player, started, table


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
        state = given(GAME, state).when(seat, C.KeepAgenda(agenda=state.players[seat].hand[0])).state
    while state.phase == "place-hub":
        state = given(GAME, state).when(state.current, C.PlaceHub(plot=["P11", "P51"][state.current])).state
    move = given(GAME, state).when(0, C.ChooseBonus(option=2))
    state, events = move.state, move.events
    assert events == [BonusChosen(seat=0, option=2)]
    assert GAME.redact(events[0], 1) == BonusChosen(seat=0, option=-1)
    assert GAME.view(state, 1).players[0].bonus is True
    given(GAME, state).when(0, C.ChooseBonus(option=1)).then_refused("not-your-turn")
    given(GAME, state).when(1, C.ChooseBonus(option=9)).then_refused("no-such-bonus")
    move = given(GAME, state).when(1, C.ChooseBonus(option=3))
    state, events = move.state, move.events
    began = of_type(events, IncomeBegan)[0]
    assert began.bonuses == (2, 3)
    assert sorted(e.option for e in of_type(events, BonusCollected)) == [2, 3]


def short_of_blueprints(blueprints: tuple[int, ...]):
    """Year 2 of a 2-player game, both seats choosing the Bonus '2 Blueprints' (area 2) with `blueprints` in the
    Blueprint market: the first in turn order collects first."""
    state, _ = pass_all(table(2))
    state = replace(state, markets=(state.markets[0], blueprints, *state.markets[2:]))
    for seat in range(2):
        move = given(GAME, state).when(seat, C.ChooseBonus(option=2))
        state, events = move.state, move.events
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
    assert of_type(events, BonusCollected) == [BonusCollected(seat=first, option=2, take=(0, 2, 0, 0))]
    assert GAME.to_move(state) == [second]
    assert GAME.legal(state, second) == [C.TakeBonus(option=o) for o in (2, 0, 1, 3, 4)]
    given(GAME, state).when(second, C.TakeBonus(option=9)).then_refused("bonus-unavailable")
    no_power = replace(state, markets=(*state.markets[:2], (0, 0, 0, 0), state.markets[3]))
    assert GAME.legal(no_power, second) == [C.TakeBonus(option=o) for o in (2, 1, 3, 4)]
    given(GAME, no_power).when(second, C.TakeBonus(option=0)).then_refused("bonus-unavailable")
    given(GAME, state).when(first, C.TakeBonus(option=2)).then_refused("not-your-turn")
    move = given(GAME, state).when(second, C.TakeBonus(option=2))
    partly, events = move.state, move.events
    assert of_type(events, BonusCollected) == [BonusCollected(seat=second, option=2, take=(0, 1, 0, 0), partial=True)]
    assert partly.players[second].res[1] == state.players[second].res[1] + 1 and of_type(events, BudgetPaid)
    move = given(GAME, state).when(second, C.TakeBonus(option=3))
    rails, events = move.state, move.events
    assert of_type(events, BonusCollected) == [BonusCollected(seat=second, option=2, take=(1, 0, 0, 0), rails=3,
                                                         alternate=True, reward=3)]
    assert rails.players[second].rails_storage == state.players[second].rails_storage + 3
    events = given(GAME, state).when(second, C.TakeBonus(option=4)).events
    assert of_type(events, BonusCollected)[0].coins == 4 and of_type(events, BonusCollected)[0].reward == 4


def test_a_bonus_collectable_in_full_is_collected_without_a_choice() -> None:
    """Bonuses: with enough Blueprints for both, each seat collects its Bonus in turn order, nothing to choose."""
    state, events = short_of_blueprints((0, 0, 0, 2, 2))
    assert [e.take for e in of_type(events, BonusCollected)] == [(0, 2, 0, 0), (0, 2, 0, 0)]
    assert not any(e.alternate or e.partial for e in of_type(events, BonusCollected))
    given(GAME, state).when(state.order[0], C.TakeBonus(option=0)).then_refused("wrong-step")


def test_an_alternate_only_area_cannot_be_chosen_as_the_bonus() -> None:
    """The DEFAULT 4-coin area of the Bonus Track is an alternate reward, never the Bonus itself."""
    state, _ = pass_all(table(2))
    assert GAME.legal(state, 0) == [C.ChooseBonus(option=o) for o in range(4)]
    given(GAME, state).when(0, C.ChooseBonus(option=4)).then_refused("no-such-bonus")


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
        if seat == first_mover and state.players[seat].zone is None:
            move = given(GAME, state).when(seat, C.Move(zone="market"))
            state, new = move.state, move.events
            events += new
            move = given(GAME, state).when(seat, C.BuyResources(resource="permit", count=1))
            state, new = move.state, move.events
        else:
            move = given(GAME, state).when(seat, C.Pass())
            state, new = move.state, move.events
        events += new
    return state, events


def test_passing_order_is_next_years_turn_order() -> None:
    """Worked examples 10 and 16 (Passing): the first to pass is first next Year; the passed player's marker leaves the
    loop; when all have passed the Year ends and the next begins with Annual Income."""
    state = table(4)
    mover = state.order[0]
    state, events = pass_all(state, first_mover=mover)
    passes = [e.seat for e in of_type(events, Passed)]
    assert passes[-1] == mover and [e.position for e in of_type(events, Passed)] == [1, 2, 3, 4]
    assert of_type(events, YearEnded) == [YearEnded(year=1, order=tuple(passes))]
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
        move = given(GAME, state).when(seat, C.ChooseBonus(option=1))
        state, events = move.state, move.events
    assert GAME.to_move(state) == [first]
    assert {c.choice for c in GAME.legal(state, first)} == {"permit", "blueprint", "power", "construction", "coins"}
    coins = state.players[first].coins
    move = given(GAME, state).when(first, C.TakeReward(choice="coins"))
    state, events = move.state, move.events
    assert state.players[first].coins == coins + 2
    assert GAME.to_move(state) == [second]
    given(GAME, state).when(second, C.TakeReward(choice="coins")).then_refused("reward-unavailable")
    move = given(GAME, state).when(second, C.TakeReward(choice="power"))
    state, events = move.state, move.events
    taken = [RewardTaken(seat=second, resource="power"), RewardTaken(seat=third, coins=1)]
    assert of_type(events, RewardTaken)[:2] == taken
    assert all(e.seat != fourth for e in of_type(events, RewardTaken))
    assert state.phase == "loop" and state.current == first


def test_two_player_rewards_use_the_two_leftmost_columns() -> None:
    """2-Player Game 1 and reading 5: with 2 players the 1st collects 1 coin, the 2nd nothing."""
    state = table(2)
    state, _ = pass_all(state)
    state = given(GAME, state).when(0, C.ChooseBonus(option=2)).state
    move = given(GAME, state).when(1, C.ChooseBonus(option=2))
    state, events = move.state, move.events
    assert of_type(events, RewardTaken) == [RewardTaken(seat=state.order[0], coins=1)]
    assert of_type(events, BudgetPaid)


def test_the_game_ends_after_year_three() -> None:
    """End of Game: when all players pass in Year 3, scoring happens and the match has an outcome."""
    state = table(2)
    for _ in range(3):
        state, events = pass_all(state)
        if state.phase == "bonus":
            for seat in range(2):
                move = given(GAME, state).when(seat, C.ChooseBonus(option=0))
                state, events = move.state, move.events
            while state.phase == "income":  # the Power market may run short: take the Bonus in part
                seat = GAME.to_move(state)[0]
                move = given(GAME, state).when(seat, GAME.legal(state, seat)[0])
                state, events = move.state, move.events
    assert state.phase == "over" and of_type(events, GameScored)
    outcome = GAME.outcome(state)
    assert outcome is not None and len(outcome.results) == 2
    assert GAME.to_move(state) == [] and GAME.legal(state, 0) == []
    given(GAME, state).when(0, C.Pass()).then_refused("game-over")
