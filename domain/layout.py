"""The package layout every game follows (domain/games/README.md), as types: one Protocol per module.

A game's `game.py` builds its record with `Game(..., **parts(options=options, commands=commands, ...))`, passing
its own modules: a package that strays from the layout (a function in another module, a missing `EVENTS`) then
fails the type check at once, and `tests/conformance/test_layout.py` checks the files themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypedDict

import msgspec

from domain.engine import Command, Event, Narrator, Outcome
from domain.rng import Rng


class OptionsModule(Protocol):
    """`options.py`: the match options."""

    @property
    def Options(self) -> type[msgspec.Struct]: ...


class CommandsModule(Protocol):
    """`commands.py`: the command Structs and their tuple."""

    @property
    def COMMANDS(self) -> tuple[type[Command], ...]: ...


class EventsModule(Protocol):
    """`events.py`: the event Structs and their tuple."""

    @property
    def EVENTS(self) -> tuple[type[Event], ...]: ...


class SetupModule(Protocol):
    """`setup.py`: the events of a new match."""

    @property
    def start(self) -> Callable[[Any, int, Rng], Sequence[Event]]: ...


class StateModule(Protocol):
    """`state.py`: the table and the fold."""

    @property
    def State(self) -> type[msgspec.Struct]: ...

    @property
    def evolve(self) -> Callable[[Any, Event], Any]: ...


class RulesModule(Protocol):
    """`rules.py`: all judgement."""

    @property
    def decide(self) -> Callable[[Any, int, Command, Rng], Sequence[Event]]: ...

    @property
    def legal(self) -> Callable[[Any, int], Sequence[Command]]: ...

    @property
    def to_move(self) -> Callable[[Any], Sequence[int]]: ...


class ScoringModule(Protocol):
    """`scoring.py`: how a match ends and stands."""

    @property
    def outcome(self) -> Callable[[Any], Outcome | None]: ...

    @property
    def scores(self) -> Callable[[Any], Sequence[float]]: ...


class VisibilityModule(Protocol):
    """`visibility.py`: who sees what."""

    @property
    def view(self) -> Callable[[Any, int | None], Any]: ...

    @property
    def redact(self) -> Callable[[Event, int | None], Event]: ...

    @property
    def hidden_from(self) -> Callable[[Any, int | None], frozenset[str]]: ...

    @property
    def scramble(self) -> Callable[[Any, int | None, Rng], Any]: ...

    @property
    def determinize(self) -> Callable[[Any, int, Rng], Any]: ...


class RenderModule(Protocol):
    """`render.py`: the text picture, and every event told in words."""

    @property
    def render(self) -> Callable[[Any], str]: ...

    @property
    def describe(self) -> Narrator: ...


class Parts(TypedDict):
    """The types and functions of a `Game` record, each from the module the layout puts it in."""

    options_type: type[msgspec.Struct]
    command_types: tuple[type[Command], ...]
    event_types: tuple[type[Event], ...]
    start: Callable[[Any, int, Rng], Sequence[Event]]
    evolve: Callable[[Any, Event], Any]
    decide: Callable[[Any, int, Command, Rng], Sequence[Event]]
    legal: Callable[[Any, int], Sequence[Command]]
    to_move: Callable[[Any], Sequence[int]]
    outcome: Callable[[Any], Outcome | None]
    scores: Callable[[Any], Sequence[float]]
    view: Callable[[Any, int | None], Any]
    redact: Callable[[Event, int | None], Event]
    hidden_from: Callable[[Any, int | None], frozenset[str]]
    scramble: Callable[[Any, int | None, Rng], Any]
    determinize: Callable[[Any, int, Rng], Any]
    render: Callable[[Any], str]
    describe: Narrator


def parts(*, options: OptionsModule, commands: CommandsModule, events: EventsModule, setup: SetupModule,
          state: StateModule, rules: RulesModule, scoring: ScoringModule, visibility: VisibilityModule,
          render: RenderModule) -> Parts:
    """A game's types and functions, taken from its modules as the layout names them."""
    return Parts(
        options_type=options.Options, command_types=commands.COMMANDS, event_types=events.EVENTS,
        start=setup.start, evolve=state.evolve, decide=rules.decide, legal=rules.legal, to_move=rules.to_move,
        outcome=scoring.outcome, scores=scoring.scores, view=visibility.view, redact=visibility.redact,
        hidden_from=visibility.hidden_from, scramble=visibility.scramble, determinize=visibility.determinize,
        render=render.render,
        describe=render.describe,
    )
