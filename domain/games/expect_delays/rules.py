"""Set-up and `decide`: who may act, which action a command is, and when the Action Phase ends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.engine import Command, Decision, Event, Refusal
from domain.games.expect_delays import actions
from domain.games.expect_delays.commands import (
    Board,
    Disembark,
    EndActions,
    Repair,
    RunTheLine,
    TakeOutOfService,
    UseServiceAdvisory,
)
from domain.games.expect_delays.components import ADVISORIES, SETUP, TRAIN_CARDS
from domain.games.expect_delays.events import AdvisoryDeckShuffled, CardsDrawn, GameSetUp, TrainDeckShuffled
from domain.games.expect_delays.options import Options
from domain.games.expect_delays.state import State, evolve
from domain.games.expect_delays.upkeep import end_action_phase
from domain.rng import Rng


def start(options: Options, seat_count: int, rng: Rng) -> list[Event]:
    """Rulebook Setup: shuffle the Train deck, deal 3 to each seat, shuffle the advisory deck face up.

    Reading 3: no advisory is in effect at the start; the first in-game reshuffle reveals one.
    """
    deck = rng.shuffled(tuple(TRAIN_CARDS))
    advisories = rng.shuffled(tuple(ADVISORIES))
    hand = SETUP.hand_size
    return [
        GameSetUp(seats=seat_count, max_turns=options.max_turns),
        TrainDeckShuffled(order=deck, size=len(deck)),
        AdvisoryDeckShuffled(order=advisories, size=len(advisories)),
        *(
            CardsDrawn(seat=seat, cards=deck[seat * hand : (seat + 1) * hand], count=hand)
            for seat in range(seat_count)
        ),
    ]


ACTIONS: dict[type[Command], Callable[[Decision[State], int, Any], None]] = {
    Board: actions.board,
    Disembark: actions.disembark,
    Repair: actions.repair,
    RunTheLine: actions.run_line,
    TakeOutOfService: actions.take_out_of_service,
    UseServiceAdvisory: actions.use_service_advisory,
}


def to_move(state: State) -> list[int]:
    """The seat in its Action Phase; nobody once the game is over."""
    return [] if state.end_reason else [state.active_seat]


def decide(state: State, seat: int, command: Command, rng: Rng) -> Sequence[Event]:
    """Accept one action (or the end of the Action Phase) as events, or refuse it."""
    if state.end_reason:
        raise Refusal("game-over", "the game has ended")
    if seat != state.active_seat:
        raise Refusal("not-your-turn", f"it is seat {state.active_seat}'s turn")
    decision = Decision(state, evolve)
    if isinstance(command, EndActions):
        end_action_phase(decision, seat, rng, early=True)
        return decision.events
    action = ACTIONS.get(type(command))
    if action is None:
        raise Refusal("wrong-game", f"{type(command).__name__} is not an expect-delays command")
    action(decision, seat, command)
    if not decision.state.end_reason and decision.state.actions_left <= 0:
        # Rulebook: "Having completed 2 actions, their Action Phase ends."
        end_action_phase(decision, seat, rng, early=False)
    return decision.events

