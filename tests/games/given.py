"""Rule tests as the rulebook reads them: given a table, when a seat sends a command, then these events happen —
or the command is refused with this code. One helper for the rule tests of every game (Decider style).

    given(GAME, table(...)).when(UPTOWN, Board(line="U1")).then(ActionTaken(...), CommuterBoarded(...))
    given(GAME, table(...)).when(Board(line="Q7")).then_refused("no-such-line")
    move = given(GAME, GameSetUp(...), JourneyDealt(...), TurnStarted(seat=0)).when(Draw())
    assert move.state.hands[0] == ...

`given` starts from a state, from events (folded from nothing), or from a state followed by events. `when` takes
the seat and its command, or the command alone when exactly one seat is to move; `when` again on the result adds
the next move ("and when ..."). Every command accepted must be one `legal` lists, and every command refused must
not be: a rule test also checks that the two never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pytest

from domain.engine import Command, Event, Game, Refusal
from domain.rng import Rng

SEED = "rule-test"


def given(game: Game[Any], *facts: Any, seed: str = SEED) -> Given:
    """The table of a rule test: a state, events folded from nothing, or a state and the events that follow it."""
    state = None
    if facts and not isinstance(facts[0], Event):
        state, facts = facts[0], facts[1:]
    for event in facts:
        state = game.evolve(state, event)
    assert state is not None, "given: a state or at least one event"
    return Given(game=game, state=state, seed=seed)


@dataclass(frozen=True)
class Given:
    """A game at a state. Random outcomes come from `Rng.derive(seed, 1)`, the same for every move."""

    game: Game[Any]
    state: Any
    seed: str = SEED

    def when(self, seat: int | Command, command: Command | None = None) -> When:
        """`seat` sends `command`; `when(command)` alone is sent by the one seat to move."""
        return When(given=self, moves=(self._move(seat, command),))

    def _move(self, seat: int | Command, command: Command | None) -> tuple[int, Command]:
        if isinstance(seat, Command):
            moving = list(self.game.to_move(self.state))
            assert len(moving) == 1, f"seats {moving} are to move: say which one sends {seat}"
            return moving[0], seat
        assert command is not None, "when(seat, command)"
        return seat, command

    def listed(self, seat: int, command: Command) -> bool:
        """Whether `legal` lists `command` for `seat` here."""
        return command in self.game.legal(self.state, seat)

    def decide(self, seat: int, command: Command) -> list[Event]:
        """The game's answer: the events, or the `Refusal` it raises."""
        return list(self.game.decide(self.state, seat, command, Rng.derive(self.seed, 1)))

    def fold(self, events: Sequence[Event]) -> Given:
        """The table after `events`."""
        state = self.state
        for event in events:
            state = self.game.evolve(state, event)
        return Given(game=self.game, state=state, seed=self.seed)


@dataclass(frozen=True)
class When:
    """One or more moves sent in turn from `given`; `events` are all they wrote, `state` the table after them."""

    given: Given
    moves: tuple[tuple[int, Command], ...]

    def when(self, seat: int | Command, command: Command | None = None) -> When:
        """And then `seat` sends `command` (`when(command)`: the one seat to move then)."""
        return When(given=self.given, moves=(*self.moves, self.after._move(seat, command)))

    @cached_property
    def _played(self) -> tuple[list[Event], Given]:
        events: list[Event] = []
        table = self.given
        for seat, command in self.moves:
            new = _accepted(table, seat, command)
            events += new
            table = table.fold(new)
        return events, table

    @property
    def events(self) -> list[Event]:
        """Every event the moves wrote, in order (each move must be accepted)."""
        return self._played[0]

    @property
    def after(self) -> Given:
        """The table after the moves."""
        return self._played[1]

    @property
    def state(self) -> Any:
        """The state after the moves."""
        return self.after.state

    def then(self, *expected: Event) -> Given:
        """The moves wrote exactly `expected`; the table after them, to go on from."""
        assert self.events == list(expected)
        return self.after

    def then_refused(self, code: str) -> Given:
        """The last move is refused with `code` (and not listed by `legal`); the moves before it are accepted."""
        before = When(given=self.given, moves=self.moves[:-1]).after if len(self.moves) > 1 else self.given
        seat, command = self.moves[-1]
        with pytest.raises(Refusal) as refused:
            before.decide(seat, command)
        assert refused.value.code == code, f"seat {seat}: {command} refused: {refused.value}"
        assert not before.listed(seat, command), f"seat {seat}: {command} is refused but listed"
        return before


def _accepted(table: Given, seat: int, command: Command) -> list[Event]:
    """The events of an accepted command (a `Refusal` fails the test); it must be listed too."""
    events = table.decide(seat, command)
    assert table.listed(seat, command), f"seat {seat}: {command} is accepted but not listed"
    return events


def of_type(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    """The events of one type, in order."""
    return [event for event in events if isinstance(event, kind)]


def names(events: Sequence[Event]) -> list[str]:
    """The events' tags without the game's prefix, to read a sequence at a glance."""
    return [str(event.__struct_config__.tag).split(".", 1)[1] for event in events]
