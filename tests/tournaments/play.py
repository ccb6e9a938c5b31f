"""Running tournaments in tests: a driver that plays every table with results drawn from a test RNG, as the
service would after each match ends (the core sees only commands)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.engine import Command, Event
from domain.rng import Rng, seed_commitment
from domain.tournaments import decide, evolve, pairing_round, seed_for
from domain.tournaments.commands import Advance, CreateTournament, OpenTable, RecordResult, Start, Withdraw
from domain.tournaments.events import EntrantResult, RoundPaired
from domain.tournaments.state import TournamentState

SEED = "test-seed"
GAME_OF_SEATS = {2: "expect-delays", 3: "terminus", 4: "terminus", 5: "terminus"}


class Run:
    """A tournament being played: its record and state, and commands applied as the service would."""

    def __init__(self, seed: str = SEED) -> None:
        self.seed = seed
        self.events: list[Event] = []
        self.state: TournamentState | None = None

    def send(self, command: Command) -> list[Event]:
        """Decide `command` with the round's RNG (of the played seed) and append what it records."""
        events = decide(self.state, command, Rng.derive(seed_for(self.seed, self.state, command),
                                                        pairing_round(self.state)))
        for event in events:
            self.state = evolve(self.state, event)
        self.events.extend(events)
        return events

    @property
    def now(self) -> TournamentState:
        """The state (after creation)."""
        assert self.state is not None
        return self.state


def create(run: Run, *, format: str, entrants: Sequence[Any], seats: int = 2, game: str | None = None,
           **extra: Any) -> None:
    """Create the tournament of `run`."""
    body = {"game": game or GAME_OF_SEATS[seats], "format": format, "entrants": list(entrants), "seats": seats,
            "seed_commitment": seed_commitment(run.seed), **extra}
    run.send(msgspec.convert(body, CreateTournament))  # as the service decodes it: unknown fields refused


def random_results(table: Sequence[int], rng: Rng) -> tuple[EntrantResult, ...]:
    """A competitive table's result: random ranks with ties, sometimes a forfeit by deadline."""
    if rng.below(10) == 0:
        loser = rng.choice(table)
        return tuple(EntrantResult(entrant=e, rank=len(table) if e == loser else 1,
                                   forfeit="deadline" if e == loser else None) for e in table)
    scores = [rng.below(3) for _ in table]
    return tuple(EntrantResult(entrant=e, rank=1 + sum(o > s for o in scores), score=float(s))
                 for e, s in zip(table, scores, strict=True))


Results = Callable[[Sequence[int], Rng], Sequence[tuple[EntrantResult, ...]]]


def competitive(table: Sequence[int], rng: Rng) -> list[tuple[EntrantResult, ...]]:
    """One match for the whole table."""
    return [random_results(table, rng)]


def teams(table: Sequence[int], rng: Rng) -> list[tuple[EntrantResult, ...]]:
    """A cooperative table: one match per team, each with its own result (won, Commuters home, turns)."""
    out = []
    for e in table:
        won = rng.below(2) == 0
        out.append((EntrantResult(entrant=e, won=won, score=6.0 if won else float(rng.below(6)),
                                  turns=5 + rng.below(10)),))
    return out


def play_round(run: Run, rng: Rng, results: Results = competitive) -> None:
    """Open and finish every table of the current round that has no result yet, then advance."""
    current = run.now.current
    assert current is not None
    for number, table in enumerate(current.tables):
        pending = [e for e in table if e not in {r.entrant for r in current.results[number]}]
        if not pending:
            continue
        for match, outcome in enumerate(results(table, rng)):
            if not set(r.entrant for r in outcome) <= set(pending):
                continue
            match_id = f"m{current.number}-{number}-{match}"
            entrants = tuple(r.entrant for r in outcome) if run.now.created.cooperative else ()
            run.send(OpenTable(round=current.number, table=number, match_id=match_id, entrants=entrants))
            run.send(RecordResult(round=current.number, table=number, results=outcome, match_id=match_id))
    run.send(Advance())


def play_out(run: Run, rng: Rng, results: Results = competitive, withdraw: dict[int, int] | None = None,
             limit: int = 200, entropy: str | None = None) -> None:
    """Start (with the organiser's `entropy`, if any) and play every round to the end; `withdraw` maps a round to an
    entrant leaving during it."""
    run.send(Start(entropy=entropy))
    for _ in range(limit):
        if run.now.finished:
            return
        leaving = (withdraw or {}).get(len(run.now.rounds))
        if leaving is not None and leaving not in run.now.withdrawn:
            run.send(Withdraw(entrant=leaving))
        play_round(run, rng, results)
    raise AssertionError("the tournament did not finish")


def pairings(events: Sequence[Event]) -> list[tuple[TournamentState, RoundPaired]]:
    """Each `round-paired` of a record with the state just before it (after the round before it ended)."""
    out = []
    state: TournamentState | None = None
    for event in events:
        if isinstance(event, RoundPaired):
            assert state is not None
            out.append((state, event))
        state = evolve(state, event)
    return out
