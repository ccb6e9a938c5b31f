"""What happens by itself between choices: the turn-order reveal, Annual Income, ends of turns (and the Automa's
Build), ends of Years and the end of the game. `settle` runs after every accepted command."""

from __future__ import annotations

from domain.engine import Decision
from domain.games.terminus.act_phase import reward_choices, reward_event, reward_of
from domain.games.terminus.automa import automa_build
from domain.games.terminus.bonus import automatic
from domain.games.terminus.cards import DATA, UPGRADE_KIND
from domain.games.terminus.common import geo
from domain.games.terminus.events import (
    AgendaDeckShuffled,
    BudgetPaid,
    GameScored,
    IncomeBegan,
    LoopOpened,
    TurnEnded,
    TurnOrderRevealed,
    YearBegan,
    YearEnded,
)
from domain.games.terminus.scoring import score_line
from domain.games.terminus.state import State, has_upgrade, over_limit
from domain.rng import Rng

YEARS = 3


def reveal_turn_order(b: Decision[State], rng: Rng) -> None:
    """Set-up 3-6: the cards not kept are revealed, lowest number first, then shuffled back into the deck."""
    s = b.state
    g = geo(s)
    cards = tuple(p.hand[0] for p in s.players)
    order = tuple(sorted(range(s.seats), key=lambda seat: g.agendas[cards[seat]].number))
    b.emit(TurnOrderRevealed(cards=cards, order=order))
    deck = rng.shuffled((*b.state.deck, *cards))
    b.emit(AgendaDeckShuffled(deck=deck, deck_size=len(deck)))


def begin_income(b: Decision[State]) -> None:
    """Annual Income: Bonuses in turn order, the Budget, then Turn Order Rewards (not in Year 1)."""
    s = b.state
    steps: list[tuple[str, int]] = [("bonus", seat) for seat in s.order] + [("budget", -1)]
    if s.year > 1:
        for seat in s.order:
            reward = reward_of(s, seat)
            if reward.resources or reward.coins:
                steps.append(("reward", seat))
    b.emit(IncomeBegan(bonuses=tuple(p.bonus for p in s.players), steps=tuple(steps)))


def budget(s: State) -> BudgetPaid:
    """Station Track income: the rightmost visible coin icon (12 + discs taken), plus the income upgrade A2."""
    extra = UPGRADE_KIND.get("income")
    coins = []
    for p in s.players:
        amount = DATA.player_board.station_income[p.discs_used]
        if extra is not None and s.year > 1 and has_upgrade(p, "income"):
            amount += extra.amount
        coins.append(amount)
    return BudgetPaid(coins=tuple(coins))


def income_step(b: Decision[State]) -> bool:
    """Run the next Annual Income step by itself; False when a seat must choose."""
    s = b.state
    if not s.income:
        b.emit(LoopOpened())
        return True
    kind, seat = s.income[0]
    if kind == "bonus":
        collected = automatic(s, seat)
        if collected is None:
            return False  # not collectable in full: the seat chooses (take-bonus)
        b.emit(collected)
    elif kind == "budget":
        b.emit(budget(s))
    else:
        choices = reward_choices(s, seat)
        if len(choices) > 1:
            return False
        b.emit(reward_event(s, seat, choices[0] if choices else ""))
    return True


def end_turn(b: Decision[State]) -> None:
    """The turn is over; the Automa Builds now if this turn increased a Capacity (Trigger 2)."""
    due = b.state.turn.automa_due
    b.emit(TurnEnded(seat=b.state.current))
    if due and b.state.automa is not None:
        b.emit(*automa_build(b.state))


def end_year(b: Decision[State]) -> None:
    """All passed: next Year's order is the passing order; after Year 3 the game is scored."""
    s = b.state
    b.emit(YearEnded(year=s.year, order=s.passed_order))
    if s.year >= YEARS:
        b.emit(GameScored(lines=tuple(score_line(b.state, seat) for seat in range(s.seats))))
    else:
        b.emit(YearBegan(year=s.year + 1))


def settle(b: Decision[State], rng: Rng) -> None:
    """Emit every event that follows by itself, until a seat must choose or the game is over."""
    while True:
        s = b.state
        if s.phase == "over" or over_limit(s) >= 0:
            return
        if s.phase == "keep-agenda":
            if not all(p.secret for p in s.players):
                return
            reveal_turn_order(b, rng)
        elif s.phase == "place-hub":
            if s.current >= 0:
                return
            b.emit(YearBegan(year=1))
        elif s.phase == "bonus":
            if any(p.bonus < 0 for p in s.players):
                return
            begin_income(b)
        elif s.phase == "income":
            if not income_step(b):
                return
        elif s.step == "done":
            end_turn(b)
        elif s.current < 0:
            end_year(b)
        else:
            return
