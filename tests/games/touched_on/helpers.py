"""Small tables for Touched On rule tests: given events -> command -> events (decider style)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest

from domain.engine import Command, Event, Refusal
from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.cards import evader_ids, exp_cards, lines_for
from domain.games.touched_on.state import Carriage, State, evolve
from domain.rng import Rng

replace = msgspec.structs.replace


def evaders(line: str, *numbers: int) -> tuple[str, ...]:
    """Evader ids of `line` by number: evaders("L2", 1, 2) -> ("EV-L2-1", "EV-L2-2")."""
    ids = evader_ids(line)
    return tuple(ids[n - 1] for n in numbers)


def carriage(line: str, owner: int, *cards: str) -> Carriage:
    """A carriage on `line` whose Evaders `owner` added last."""
    return Carriage(line=line, cards=tuple(cards), owner=owner)


def table(
    hands: Sequence[Sequence[str]],
    *,
    draw: Sequence[str] = (),
    exp_pile: Sequence[str] | None = None,
    dealer: int | None = None,
    turn: int | None = None,
    **changes: object,
) -> State:
    """A table built from set-up events: a journey dealt with these `hands` and `draw` pile, the turn started
    for `turn` (default: left of the dealer; the dealer defaults to the last seat), then `changes` applied.
    The Exp pile defaults to XP-01..XP-12 in order, so L1 hides XP-01, L2 XP-02, and so on."""
    seats = len(hands)
    dealer = seats - 1 if dealer is None else dealer
    pile = tuple(exp_cards(seats)) if exp_pile is None else tuple(exp_pile)
    state = evolve(None, ev.GameSetUp(
        seats=seats, lines=lines_for(seats), dealer=dealer, exp_pile=pile, exp_count=len(pile),
        max_turns_per_journey=200, max_journeys=40,
    ))
    state = evolve(state, ev.JourneyDealt(
        journey=1, dealer=dealer, hands=tuple(tuple(h) for h in hands), hand_sizes=tuple(len(h) for h in hands),
        draw_pile=tuple(draw), draw_size=len(draw),
    ))
    state = evolve(state, ev.TurnStarted(seat=(dealer + 1) % seats if turn is None else turn))
    return replace(state, **changes) if changes else state


def fold(state: State, events: Sequence[Event]) -> State:
    """The state after `events`."""
    for event in events:
        state = evolve(state, event)
    return state


def decide(state: State, command: Command, seat: int | None = None, seed: str = "rule-test") -> list[Event]:
    """The events answering `command` from `seat` (default: the seat to move)."""
    acting = GAME.to_move(state)[0] if seat is None else seat
    events = list(GAME.decide(state, acting, command, Rng.derive(seed, 1)))
    assert command in GAME.legal(state, acting), f"{command} accepted but not listed"
    return events


def act(state: State, command: Command, seat: int | None = None, seed: str = "rule-test") -> State:
    """The state after `command` is accepted."""
    return fold(state, decide(state, command, seat, seed))


def refusal(state: State, command: Command, seat: int | None = None) -> str:
    """The refusal code for `command` (which must not be listed as legal)."""
    acting = GAME.to_move(state)[0] if seat is None else seat
    assert command not in GAME.legal(state, acting), f"{command} refused but listed"
    with pytest.raises(Refusal) as refused:
        GAME.decide(state, acting, command, Rng.derive("rule-test", 1))
    return refused.value.code


def of_type(events: Sequence[Event], kind: type[Event]) -> list[Event]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]


APPEAL, SEAT, FEET, PEAK, TRACKER = "PW-01", "PW-02", "PW-04", "PW-05", "PW-06"  # DEFAULT Power kinds by id
APPEAL_2, SEAT_2 = "PW-07", "PW-03"
