"""What happens by itself between choices: the turn-order reveal, Annual Income, ends of turns (and the Automa's
Build), ends of Years and the end of the game. `settle` runs after every accepted command."""

from __future__ import annotations

from domain.engine import Decision
from domain.games.terminus.events import (
    AgendaDeckShuffled,
    GameScored,
    IncomeBegan,
    LoopOpened,
    TurnEnded,
    TurnOrderRevealed,
    YearBegan,
    YearEnded,
)
from domain.games.terminus.rules_automa import automa_build
from domain.games.terminus.rules_income import (
    alternate_coins,
    automatic,
    budget,
    reward_choices,
    reward_event,
    reward_of,
)
from domain.games.terminus.rules_table import board_of
from domain.games.terminus.scoring import score_line
from domain.games.terminus.state import State, over_limit
from domain.rng import Rng

YEARS = 3


def reveal_turn_order(decision: Decision[State], rng: Rng) -> None:
    """Rules, Turn Order & Prime Hub Placement 3-6: the cards not kept are revealed, lowest number first, then
    shuffled back into the deck."""
    state = decision.state
    city = board_of(state)
    cards = tuple(player.hand[0] for player in state.players)
    order = tuple(sorted(range(state.seats), key=lambda seat: city.agendas[cards[seat]].number))
    decision.emit(TurnOrderRevealed(cards=cards, order=order))
    deck = rng.shuffled((*decision.state.deck, *cards))
    decision.emit(AgendaDeckShuffled(deck=deck, deck_size=len(deck)))


def begin_income(decision: Decision[State]) -> None:
    """Rules, Annual Income: Bonuses in turn order, the Budget, then Turn Order Rewards (not in Year 1)."""
    state = decision.state
    steps: list[tuple[str, int]] = [("bonus", seat) for seat in state.order] + [("budget", -1)]  # the event's -1
    if state.year > 1:
        for seat in state.order:
            reward = reward_of(state, seat)
            if reward.resources or reward.coins:
                steps.append(("reward", seat))
    bonuses = tuple(-1 if player.bonus is None else player.bonus for player in state.players)
    decision.emit(IncomeBegan(bonuses=bonuses, steps=tuple(steps)))


def income_step(decision: Decision[State]) -> bool:
    """Rules, Annual Income: run the next step by itself; False when a seat must choose."""
    state = decision.state
    if not state.income:
        decision.emit(LoopOpened())
        return True
    kind, seat = state.income[0]
    if kind == "budget":
        decision.emit(budget(state))
        return True
    assert seat is not None
    if kind == "bonus":
        collected = automatic(state, seat)
        if collected is None and not state.rules.bonus_choice:
            collected = alternate_coins(state, seat)  # edition 1: a fixed alternate reward, nothing to choose
        if collected is None:
            return False  # not collectable in full: the seat chooses (take-bonus)
        decision.emit(collected)
        return True
    choices = reward_choices(state, seat)
    if len(choices) > 1:
        return False
    decision.emit(reward_event(state, seat, choices[0] if choices else ""))
    return True


def end_turn(decision: Decision[State]) -> None:
    """Rules, Taking a Turn: the turn is over; the Automa Builds now if this turn increased a Capacity (Trigger 2)."""
    due = decision.state.turn.automa_due
    assert decision.state.current is not None
    decision.emit(TurnEnded(seat=decision.state.current))
    if due and decision.state.automa is not None:
        decision.emit(*automa_build(decision.state))


def end_year(decision: Decision[State]) -> None:
    """Rules, End of Year and End of Game: next Year's order is the passing order; after Year 3 the game is
    scored."""
    state = decision.state
    decision.emit(YearEnded(year=state.year, order=state.passed_order))
    if state.year >= YEARS:
        decision.emit(GameScored(lines=tuple(score_line(decision.state, seat) for seat in range(state.seats))))
    else:
        decision.emit(YearBegan(year=state.year + 1))


def settle(decision: Decision[State], rng: Rng) -> None:
    """Rules, Gameplay: emit every event that follows by itself (reveal, Annual Income, ends of turns and Years), until
    a seat must choose or the game is over."""
    while True:
        state = decision.state
        if state.phase == "over" or over_limit(state) is not None:
            return
        if state.phase == "keep-agenda":
            if not all(player.secret for player in state.players):
                return
            reveal_turn_order(decision, rng)
        elif state.phase == "place-hub":
            if state.current is not None:
                return
            decision.emit(YearBegan(year=1))
        elif state.phase == "bonus":
            if any(player.bonus is None for player in state.players):
                return
            begin_income(decision)
        elif state.phase == "income":
            if not income_step(decision):
                return
        elif state.step == "done":
            end_turn(decision)
        elif state.current is None:
            end_year(decision)
        else:
            return
