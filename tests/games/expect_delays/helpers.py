"""Small tables for rule tests: build a state, send a command, read the events (decider style)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec
import pytest

from domain.engine import Command, Event, Refusal
from domain.games.expect_delays import GAME
from domain.games.expect_delays.components import LINE_ORDER, TRAIN_CARDS
from domain.games.expect_delays.events import GameSetUp
from domain.games.expect_delays.state import State, evolve
from domain.rng import Rng

UPTOWN, DOWNTOWN = 0, 1
MARKS = {".": None, "C": "commuter", "t": "tourist"}


def table(
    *,
    hands: Sequence[Sequence[str]] = ((), ()),
    discard: Sequence[str] = (),
    out_of_service: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    lines: Mapping[str, str] | None = None,
    **changes: object,
) -> State:
    """A table after set-up, changed as asked. `lines` draws tracks as text, e.g. {"U1": "C..t..."}
    (C a Commuter, t a Tourist, . an empty stop); by default the deck holds every other Train card."""
    state = evolve(None, GameSetUp(seats=2, max_turns=300))
    placed = {card for pile in (*hands, discard, out_of_service) for card in pile}
    if deck is None:
        deck = [card for card in TRAIN_CARDS if card not in placed]
    drawn = {line: "." * len(state.tracks[0]) for line in LINE_ORDER} | dict(lines or {})
    tracks = tuple(tuple(MARKS[mark] for mark in drawn[line]) for line in LINE_ORDER)
    return msgspec.structs.replace(
        state,
        hands=tuple(tuple(hand) for hand in hands),
        discard_pile=tuple(discard),
        out_of_service=tuple(out_of_service),
        train_deck=tuple(deck),
        tracks=tracks,
        **changes,
    )


def track(state: State, line: str) -> str:
    """A line's stops as text, the way `table(lines=...)` takes them."""
    marks = {rider: mark for mark, rider in MARKS.items()}
    return "".join(marks[rider] for rider in state.track(line))


def decide(state: State, command: Command, seat: int | None = None, seed: str = "rule-test") -> list[Event]:
    """The events the game answers `command` with (the acting seat unless `seat` is given)."""
    acting = state.active_seat if seat is None else seat
    return list(GAME.decide(state, acting, command, Rng.derive(seed, 1)))


def fold(state: State, events: Sequence[Event]) -> State:
    """The table after `events`."""
    for event in events:
        state = evolve(state, event)
    return state


def play(state: State, command: Command, seat: int | None = None, seed: str = "rule-test") -> tuple[list[Event], State]:
    """Decide `command` and fold its events: (events, table after)."""
    events = decide(state, command, seat, seed)
    return events, fold(state, events)


def refusal(state: State, command: Command, seat: int | None = None) -> str:
    """The code the game refuses `command` with (fails the test if it is accepted)."""
    with pytest.raises(Refusal) as refused:
        decide(state, command, seat)
    return refused.value.code


def of_type(events: Sequence[Event], kind: type[Event]) -> list[Event]:
    """The events of one type, in order."""
    return [event for event in events if isinstance(event, kind)]


def names(events: Sequence[Event]) -> list[str]:
    """The events' tags without the game prefix, to read a sequence at a glance."""
    return [str(event.__struct_config__.tag).removeprefix("expect-delays.") for event in events]
