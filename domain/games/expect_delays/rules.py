"""`decide`, `legal` and `to_move`: who may act, which action a command is, when the Action Phase ends, and every
command the acting seat may send now, fully enumerated (a client can play from this list alone).

Each action lives in `rules_actions.py` (advisory uses in `rules_advisories.py`); each generator of `legal` below
mirrors the checks of its action there, and the rule tests and the conformance suite hold the two to the same
answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, product
from typing import Any

from domain.engine import Command, Decision, Event, Refusal
from domain.games.expect_delays import rules_actions
from domain.games.expect_delays.commands import (
    Board,
    Disembark,
    EndActions,
    Repair,
    RunTheLine,
    TakeOutOfService,
    UseServiceAdvisory,
)
from domain.games.expect_delays.components import SETUP, TRACK, TRAIN_CARDS, lines_of, opponent
from domain.games.expect_delays.rules_in_effect import board_cost, new_action, tourists_per_disembark, transfer_fired
from domain.games.expect_delays.rules_upkeep import end_action_phase
from domain.games.expect_delays.state import State, evolve
from domain.rng import Rng

ACTIONS: dict[type[Command], Callable[[Decision[State], int, Any], None]] = {
    Board: rules_actions.board,
    Disembark: rules_actions.disembark,
    Repair: rules_actions.repair,
    RunTheLine: rules_actions.run_line,
    TakeOutOfService: rules_actions.take_out_of_service,
    UseServiceAdvisory: rules_actions.use_service_advisory,
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


def legal(state: State, seat: int) -> list[Command]:
    """The acting seat's commands: the six actions in every allowed form, then `end-actions`."""
    if state.end_reason or seat != state.active_seat:
        return []
    return [
        *_boards(state, seat),
        *_disembarks(state, seat),
        *(Repair(card=card) for card in sorted(state.out_of_service)),
        *_runs(state, seat),
        *(TakeOutOfService(card=card) for card in sorted(state.hands[seat])),
        *_advisory_uses(state, seat),
        EndActions(),
    ]


def _open_boarding_lines(state: State, seat: int) -> list[str]:
    """The seat's lines whose 0 stop is free."""
    return [line for line in lines_of(seat) if state.track(line)[0] is None]


def _boards(state: State, seat: int) -> Iterator[Board]:
    if state.commuters_in_pool(seat) > 0 and state.fare_swipes[seat] >= board_cost(state):
        yield from (Board(line=line) for line in _open_boarding_lines(state, seat))


def _disembarks(state: State, seat: int) -> Iterator[Disembark]:
    for line in lines_of(seat):
        for stop, rider in enumerate(state.track(line)):
            if rider == "commuter":
                yield from _disembark_choices(state, seat, line, stop)


def _disembark_choices(state: State, seat: int, line: str, stop: int) -> Iterator[Disembark]:
    """One commuter's Disembark with each Tourist placement and each Transfer choice (readings 13, 19)."""
    if state.points[seat] + TRACK.stop_points[stop] >= SETUP.win_points:
        yield Disembark(line=line, stop=stop)
        return
    open_lines = _open_boarding_lines(state, opponent(seat))
    most = min(tourists_per_disembark(state), state.platform_tourists)
    tourist_choices = [group for size in range(most + 1) for group in combinations(open_lines, size)]
    repairs: list[str | None] = [None]
    boards: list[str | None] = [None]
    advisory = transfer_fired(state, stop)
    if advisory is not None and advisory.effect == "repair":
        repairs += sorted(state.out_of_service)
    if advisory is not None and advisory.effect == "board-without-fare":
        freed = {(line, 0)} if stop == 0 else set()  # the Disembarked Commuter just left this 0 stop
        boards += [other for other in lines_of(seat) if (other, 0) in freed or state.track(other)[0] is None]
    for tourists, repair, board in product(tourist_choices, repairs, boards):
        yield Disembark(line=line, stop=stop, tourists=tourists, repair=repair, board=board)


def _runs(state: State, seat: int) -> Iterator[RunTheLine]:
    """Each own line with each non-empty set of hand cards showing it (reading 8)."""
    hand = sorted(state.hands[seat])
    for line in lines_of(seat):
        showing = [card for card in hand if line in TRAIN_CARDS[card].symbols]
        for size in range(1, len(showing) + 1):
            yield from (RunTheLine(line=line, cards=cards) for cards in combinations(showing, size))


def _advisory_uses(state: State, seat: int) -> Iterator[UseServiceAdvisory]:
    """Each way to use the active New Action advisory (reading 15)."""
    advisory = new_action(state)
    if advisory is None:
        return
    effect, amount = advisory.effect, advisory.amount
    if effect == "move-all-riders-on-own-line":
        yield from (UseServiceAdvisory(line=line) for line in lines_of(seat))
    elif effect == "gain-fare-swipes":
        yield UseServiceAdvisory()
    elif effect == "repair":
        pile = sorted(state.out_of_service)
        for size in range(1, amount + 1):
            yield from (UseServiceAdvisory(cards=cards) for cards in combinations(pile, size))
    elif effect == "discard-then-draw-train":
        hand = sorted(state.hands[seat])
        for size in range(1, amount + 1):
            yield from (UseServiceAdvisory(cards=cards) for cards in combinations(hand, size))
    elif effect == "board-without-fare":
        if state.commuters_in_pool(seat) > 0:
            yield from (UseServiceAdvisory(line=line) for line in _open_boarding_lines(state, seat))
    else:  # move-one-tourist-on-own-line-to-platform
        for line in lines_of(seat):
            for stop, rider in enumerate(state.track(line)):
                if rider == "tourist":
                    yield UseServiceAdvisory(line=line, stop=stop)
