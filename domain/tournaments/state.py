"""The fold of a tournament stream: `evolve(state, event)` (dull: no judgement, no randomness)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

import msgspec

from domain.engine import Event
from domain.tournaments.events import (
    Entrant,
    EntrantResult,
    MatchResult,
    PlayerJoined,
    PlayerWithdrawn,
    RoundEnded,
    RoundPaired,
    Standing,
    TableOpened,
    TournamentCreated,
    TournamentFinished,
    TournamentStarted,
)


class Round(msgspec.Struct, frozen=True, kw_only=True):
    """One round: its tables and byes, each table's matches and the results recorded so far (per entrant)."""

    number: int
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()
    matches: tuple[tuple[TableOpened, ...], ...] = ()
    results: tuple[tuple[EntrantResult, ...], ...] = ()
    standings: tuple[Standing, ...] | None = None

    def table_done(self, table: int) -> bool:
        """True once every entrant of `table` has a result."""
        return {r.entrant for r in self.results[table]} >= set(self.tables[table])

    @property
    def over(self) -> bool:
        """True once every table has its results."""
        return all(self.table_done(t) for t in range(len(self.tables)))


class TournamentState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the record says so far."""

    created: TournamentCreated
    entrants: tuple[Entrant, ...]
    version: int = 1
    withdrawn: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    planned_rounds: int = 0
    started: bool = False
    start_entropy: str | None = None  # the organiser's, given at the start (domain/tournaments/verify.py)
    rounds: tuple[Round, ...] = ()
    final: tuple[Standing, ...] | None = None

    @property
    def finished(self) -> bool:
        """True once `tournament.finished` is recorded."""
        return self.final is not None

    @property
    def current(self) -> Round | None:
        """The last round paired, if any."""
        return self.rounds[-1] if self.rounds else None

    def active(self) -> tuple[int, ...]:
        """Entrants still in the tournament, in entry order."""
        return tuple(i for i in range(len(self.entrants)) if i not in self.withdrawn)


def _replace_round(state: TournamentState, number: int, **changes: object) -> tuple[Round, ...]:
    """The rounds with round `number` changed."""
    return tuple(msgspec.structs.replace(r, **changes) if r.number == number else r for r in state.rounds)


T = TypeVar("T")


def _with_table(items: tuple[tuple[T, ...], ...], table: int, added: tuple[T, ...]) -> tuple[tuple[T, ...], ...]:
    """`items` (one tuple per table) with `added` appended to table `table`'s."""
    return tuple((*row, *added) if t == table else row for t, row in enumerate(items))


def evolve(state: TournamentState | None, event: Event) -> TournamentState:
    """Apply one event to the tournament."""
    if state is None:
        if not isinstance(event, TournamentCreated):
            raise ValueError("a tournament stream begins with tournament.created")
        return TournamentState(created=event, entrants=event.entrants)
    state = msgspec.structs.replace(state, version=state.version + 1)
    if isinstance(event, PlayerJoined):
        filled = msgspec.structs.replace(state.entrants[event.entrant], handle=event.handle, members=event.members)
        entrants = tuple(filled if i == event.entrant else e for i, e in enumerate(state.entrants))
        return msgspec.structs.replace(state, entrants=entrants)
    if isinstance(event, PlayerWithdrawn):
        return msgspec.structs.replace(state, withdrawn=(*state.withdrawn, event.entrant))
    if isinstance(event, TournamentStarted):
        return msgspec.structs.replace(state, started=True, order=event.order, planned_rounds=event.rounds,
                                       start_entropy=event.entropy)
    if isinstance(event, RoundPaired):
        empty = tuple(() for _ in event.tables)
        paired = Round(number=event.round, tables=event.tables, byes=event.byes, matches=empty, results=empty)
        return msgspec.structs.replace(state, rounds=(*state.rounds, paired))
    if isinstance(event, TableOpened):
        matches = _with_table(state.rounds[event.round - 1].matches, event.table, (event,))
        return msgspec.structs.replace(state, rounds=_replace_round(state, event.round, matches=matches))
    if isinstance(event, MatchResult):
        results = _with_table(state.rounds[event.round - 1].results, event.table, event.results)
        return msgspec.structs.replace(state, rounds=_replace_round(state, event.round, results=results))
    if isinstance(event, RoundEnded):
        return msgspec.structs.replace(state, rounds=_replace_round(state, event.round, standings=event.standings))
    if isinstance(event, TournamentFinished):
        return msgspec.structs.replace(state, final=event.standings)
    raise ValueError(f"not a tournament event: {type(event).__name__}")


def fold(events: Iterable[Event], state: TournamentState | None = None) -> TournamentState:
    """The state after `events`, in order."""
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to fold")
    return state
