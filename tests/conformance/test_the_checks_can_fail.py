"""The conformance checks can fail: each is run against a deliberately broken copy of a real game.

A check that passes whatever the game does proves nothing; each breakage below is one the suite must catch.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from domain.catalog import by_slug
from domain.engine import Command, Event, Game, Refusal
from domain.games.expect_delays.commands import Disembark
from domain.lifecycle import SeatResigned
from domain.playout import play
from domain.rng import Rng

from .test_conformance import StepChecker

GAME = by_slug("expect-delays")
assert GAME is not None
SEATS = 2


def scribbling_decide(state: Any, seat: int, command: Command, rng: Rng) -> Sequence[Event]:
    """Refuses as the game does, but writes into the (frozen) state first."""
    assert GAME is not None
    try:
        return GAME.decide(state, seat, command, rng)
    except Refusal:
        msgspec.structs.force_setattr(state, "turn", -1)
        raise


REFUSED: list[Command] = []  # module state a broken game changes when it refuses


def remembering_decide(state: Any, seat: int, command: Command, rng: Rng) -> Sequence[Event]:
    """Refuses as the game does, and remembers the refusal where `forgetful_legal` looks."""
    assert GAME is not None
    try:
        return GAME.decide(state, seat, command, rng)
    except Refusal:
        REFUSED.append(command)
        raise


def forgetful_legal(state: Any, seat: int) -> Sequence[Command]:
    """Leaves the last command out once a refusal was remembered."""
    assert GAME is not None
    listed = list(GAME.legal(state, seat))
    return listed[:-1] if REFUSED and len(listed) > 1 else listed


def unfoldable_decide(state: Any, seat: int, command: Command, rng: Rng) -> Sequence[Event]:
    """Accepts as the game does, adding an event its own `evolve` refuses."""
    assert GAME is not None
    return [*GAME.decide(state, seat, command, rng), SeatResigned(seat=seat)]


def twice_legal(state: Any, seat: int) -> Sequence[Command]:
    """Lists the first command twice."""
    assert GAME is not None
    listed = list(GAME.legal(state, seat))
    return [*listed, *listed[:1]]


def list_legal(state: Any, seat: int) -> Sequence[Command]:
    """Lists a Disembark whose Tourist lines are a list: it reads back from JSON as another command."""
    assert GAME is not None
    return [msgspec.structs.replace(c, tourists=list(c.tourists)) if isinstance(c, Disembark) else c
            for c in GAME.legal(state, seat)]


def chatty_legal(state: Any, seat: int) -> Sequence[Command]:
    """Lists the acting seat's commands for the other seat too."""
    assert GAME is not None
    return GAME.legal(state, state.active_seat)


BREAKAGES: dict[str, tuple[dict[str, Any], str]] = {
    "a refusal writes into the state": ({"decide": scribbling_decide}, "changed the state"),
    "a refusal changes module state": ({"decide": remembering_decide, "legal": forgetful_legal},
                                       "changed what is legal"),
    "accepted events do not fold": ({"decide": unfoldable_decide}, "not an expect-delays event"),
    "a command is listed twice": ({"legal": twice_legal}, "listed twice"),
    "a listed command does not survive JSON": ({"legal": list_legal}, "does not survive JSON"),
    "a seat not to move lists commands": ({"legal": chatty_legal}, r"to_move \[\d\] but \d+ listed"),
}


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_a_broken_game_fails_the_per_move_checks(breakage: str) -> None:
    """Random play checked move by move fails, with the check's own message, as soon as the breakage shows."""
    assert GAME is not None
    functions, message = BREAKAGES[breakage]
    broken: Game[Any] = dataclasses.replace(GAME, **functions)
    REFUSED.clear()
    with pytest.raises((AssertionError, ValueError), match=message):
        play(broken, SEATS, {}, "broken", on_step=StepChecker(broken, SEATS, "broken"), max_moves=400)


def test_the_real_game_passes_the_same_play() -> None:
    """The same play and checks pass on the unbroken game, so the failures above come from the breakages."""
    assert GAME is not None
    play(GAME, SEATS, {}, "broken", on_step=StepChecker(GAME, SEATS, "broken"), max_moves=400)
