"""The end of a turn: the Action Phase closes and the Upkeep Phase runs on its own (rulebook, "B. Upkeep Phase").

Reading 1: discard the hand; if the deck holds fewer than 3 cards, shuffle the Discard pile with the
rest of the deck (reading 2) and reveal a new Service Advisory; draw 3; if 3 still cannot be drawn, the
subway has broken down and the game ends at once. Reading 20: the `max_turns` limit ends the game
after the last allowed turn's Upkeep.
"""

from __future__ import annotations

from domain.engine import Decision
from domain.games.expect_delays.components import SETUP, opponent
from domain.games.expect_delays.events import (
    ActionPhaseEnded,
    AdvisoryDeckShuffled,
    AdvisoryRevealed,
    CardsDiscarded,
    CardsDrawn,
    GameOver,
    TrainDeckShuffled,
    TurnPassed,
)
from domain.games.expect_delays.state import State
from domain.rng import Rng


def end_action_phase(decision: Decision[State], seat: int, rng: Rng, *, early: bool) -> None:
    """Close the seat's Action Phase, run its Upkeep, and pass the turn (or end the game)."""
    decision.emit(ActionPhaseEnded(seat=seat, early=early))
    hand = decision.state.hands[seat]
    if hand:
        decision.emit(CardsDiscarded(seat=seat, cards=hand))
    if len(decision.state.train_deck) < SETUP.hand_size:
        reshuffle_train_deck(decision, rng)
        reveal_advisory(decision, rng)
    state = decision.state
    if len(state.train_deck) < SETUP.hand_size:
        decision.emit(GameOver(reason="subway-broken-down"))
        return
    cards = state.train_deck[: SETUP.hand_size]
    decision.emit(CardsDrawn(seat=seat, cards=cards, count=len(cards)))
    if state.turn >= state.max_turns:
        decision.emit(GameOver(reason="turn-limit"))
    else:
        decision.emit(TurnPassed(seat=opponent(seat), turn=state.turn + 1))


def reshuffle_train_deck(decision: Decision[State], rng: Rng) -> None:
    """Shuffle the Discard pile together with what is left of the deck (reading 2); Out of Service stays out."""
    state = decision.state
    order = rng.shuffled(state.train_deck + state.discard_pile)
    decision.emit(TrainDeckShuffled(order=order, size=len(order)))


def reveal_advisory(decision: Decision[State], rng: Rng) -> None:
    """The face-up next advisory replaces the active one (rulebook, Upkeep); an empty advisory deck is
    rebuilt from the advisory discards (reading 4), so a next card is always face up."""
    deck = decision.state.advisory_deck
    if not deck:
        return
    decision.emit(AdvisoryRevealed(advisory=deck[0], next=deck[1] if len(deck) > 1 else None))
    if not decision.state.advisory_deck:
        order = rng.shuffled(decision.state.advisory_discard)
        decision.emit(AdvisoryDeckShuffled(order=order, size=len(order)))
