"""Annual Income (Rules, Budget): 1. Bonuses, 2. Budget, 3. Turn Order Rewards (from Year 2).

"Simultaneously, players move their Bonus Marker to the area of the Bonus Track … Then, in turn order, players
collect the appropriate resources." "Note: If a player is unable to collect their Bonus in full, that player may
instead select an alternate reward from the Bonus Track." So a Bonus that can be collected in full is collected by
itself; otherwise the seat chooses (`take-bonus`): its own Bonus, collected as far as the supply allows, or any
other area of the track that can be collected in full — the `alternate_only` areas (DEFAULT data) among them.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.engine import Decision, Refusal
from domain.games.terminus.commands import ChooseBonus, TakeBonus, TakeReward
from domain.games.terminus.components import DATA, RESOURCES, UPGRADE_KIND, BonusOption, Reward
from domain.games.terminus.events import BonusChosen, BonusCollected, BudgetPaid, RewardTaken
from domain.games.terminus.state import State
from domain.games.terminus.state_markets import Cubes
from domain.games.terminus.state_players import has_upgrade

TRACK = DATA.bonus_options
CHOOSABLE = tuple(index for index, area in enumerate(TRACK) if not area.alternate_only)


def wanted(area: BonusOption) -> Cubes:
    """Rules, Bonuses: the resources an area of the Bonus Track gives, in RESOURCES order."""
    take = [getattr(area, resource) for resource in RESOURCES]
    return (take[0], take[1], take[2], take[3])


def in_full(state: State, seat: int, area: int) -> bool:
    """Rules, Bonuses (reading 31): the area's resources are all in their markets and its Rails in the seat's
    reserve."""
    bonus = TRACK[area]
    markets = all(sum(state.markets[resource]) >= n for resource, n in enumerate(wanted(bonus)))
    return markets and state.players[seat].rails_reserve >= bonus.rails


def collected(state: State, seat: int, area: int) -> BonusCollected:
    """Rules, Bonuses: the seat collects `area`, in full if it can, else as much as the supply allows."""
    bonus, chosen = TRACK[area], state.players[seat].bonus
    assert chosen is not None
    have = [sum(counts) for counts in state.markets]
    take = tuple(min(n, have[resource]) for resource, n in enumerate(wanted(bonus)))
    rails = min(bonus.rails, state.players[seat].rails_reserve)
    partial = take != wanted(bonus) or rails != bonus.rails
    return BonusCollected(
        seat=seat, option=chosen, take=(take[0], take[1], take[2], take[3]), rails=rails, coins=bonus.coins,
        alternate=area != chosen, reward=area if area != chosen else -1, partial=partial,  # the event's -1: no area
    )


def automatic(state: State, seat: int) -> BonusCollected | None:
    """Rules, Bonuses: the chosen Bonus when it can be collected in full (nothing to choose), else None."""
    chosen = state.players[seat].bonus
    assert chosen is not None
    return collected(state, seat, chosen) if in_full(state, seat, chosen) else None


def alternate_coins(state: State, seat: int) -> BonusCollected:
    """Edition 1, Bonuses: a Bonus that cannot be collected in full gives the alternate-only area's coins instead."""
    chosen = state.players[seat].bonus
    assert chosen is not None
    coins = next(area.coins for area in TRACK if area.alternate_only)
    return BonusCollected(seat=seat, option=chosen, coins=coins, alternate=True)


def bonus_choices(state: State, seat: int) -> list[int]:
    """Rules, Bonuses, Note: the areas the seat may collect now, its own Bonus (perhaps in part) or another in full."""
    chosen = state.players[seat].bonus
    if not state.income or state.income[0] != ("bonus", seat) or chosen is None or in_full(state, seat, chosen):
        return []
    return [chosen, *(area for area in range(len(TRACK)) if area != chosen and in_full(state, seat, area))]


def check_choose(state: State, seat: int, command: ChooseBonus) -> None:
    """Rules, Bonuses: the Bonus Marker goes under an area of the Bonus Track (not an alternate-only one)."""
    if command.option not in CHOOSABLE:
        raise Refusal("no-such-bonus", f"choose a Bonus Track option among {', '.join(map(str, CHOOSABLE))}")


def choose_candidates(state: State, seat: int) -> Iterator[ChooseBonus]:
    """Rules, Bonuses: every area a Bonus may be chosen from."""
    for option in CHOOSABLE:
        yield ChooseBonus(option=option)


def run_choose(decision: Decision[State], seat: int, command: ChooseBonus) -> None:
    """Rules, Bonuses: the Bonus Marker moves (hidden until every seat has chosen)."""
    decision.emit(BonusChosen(seat=seat, option=command.option))


def check_take(state: State, seat: int, command: TakeBonus) -> None:
    """Rules, Bonuses, Note: a Bonus that falls short, or an alternate reward collectable in full, in turn order."""
    if not state.income or state.income[0] != ("bonus", seat):
        raise Refusal("wrong-step", "it is not your turn to collect a Bonus")
    if command.option not in bonus_choices(state, seat):
        raise Refusal("bonus-unavailable",
                      "collect your own Bonus, or another area of the Bonus Track you can collect in full")


def take_candidates(state: State, seat: int) -> Iterator[TakeBonus]:
    """Rules, Bonuses, Note: each area the seat may collect now."""
    for option in bonus_choices(state, seat):
        yield TakeBonus(option=option)


def run_take(decision: Decision[State], seat: int, command: TakeBonus) -> None:
    """Rules, Bonuses: the chosen area is collected."""
    decision.emit(collected(decision.state, seat, command.option))


def budget(state: State) -> BudgetPaid:
    """Rules, Budget: the rightmost visible coin icon of the Station Track (12 + discs taken), plus the income
    upgrade A2 from Year 2 (DEFAULT)."""
    extra = UPGRADE_KIND.get("income")
    coins = []
    for player in state.players:
        amount = DATA.player_board.station_income[player.discs_used]
        if extra is not None and state.year > 1 and has_upgrade(player, "income"):
            amount += extra.amount
        coins.append(amount)
    return BudgetPaid(coins=tuple(coins))


def reward_of(state: State, seat: int) -> Reward:
    """Rules, Turn Order Rewards (reading 5): the Turn Order card's leftmost N columns show; 1st place sits in the
    rightmost visible column."""
    position = state.order.index(seat)
    return DATA.turn_order_rewards[state.seats - 1 - position]


def reward_choices(state: State, seat: int) -> list[str]:
    """Rules, Turn Order Rewards: the resources the seat may choose (those available, reading 31), and 'coins'
    where the column allows either."""
    reward = reward_of(state, seat)
    if not reward.resources:
        return []
    available = [resource for index, resource in enumerate(RESOURCES) if sum(state.markets[index])]
    return [*available, "coins"] if reward.either else available


def reward_event(state: State, seat: int, choice: str) -> RewardTaken:
    """Rules, Turn Order Rewards: what the seat collects for `choice` ('' or 'coins': the coins)."""
    reward = reward_of(state, seat)
    if choice == "coins" or not choice:
        return RewardTaken(seat=seat, coins=reward.coins)
    return RewardTaken(seat=seat, resource=choice, coins=0 if reward.either else reward.coins)


def check_reward(state: State, seat: int, command: TakeReward) -> None:
    """Rules, Turn Order Rewards: in turn order, one of the choices the seat's column gives."""
    if not state.income or state.income[0] != ("reward", seat):
        raise Refusal("wrong-step", "it is not your turn to take a Turn Order Reward")
    if command.choice not in reward_choices(state, seat):
        raise Refusal("reward-unavailable", f"{command.choice!r} is not a Turn Order Reward you can take")


def reward_candidates(state: State, seat: int) -> Iterator[TakeReward]:
    """Rules, Turn Order Rewards: each choice the seat's column gives."""
    for choice in reward_choices(state, seat):
        yield TakeReward(choice=choice)


def run_reward(decision: Decision[State], seat: int, command: TakeReward) -> None:
    """Rules, Turn Order Rewards: the reward is collected."""
    decision.emit(reward_event(decision.state, seat, command.choice))


def income_candidates(state: State, seat: int) -> Iterator[TakeBonus | TakeReward]:
    """Rules, Annual Income: a seat is asked only for a Bonus that falls short, or a Turn Order Reward with a choice."""
    if state.income and state.income[0][0] == "bonus":
        yield from take_candidates(state, seat)
    else:
        yield from reward_candidates(state, seat)
