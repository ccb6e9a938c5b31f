"""Tournament states built from events, as the rulebook-style tests state them: given these rounds, then..."""

from __future__ import annotations

from collections.abc import Sequence

from domain.rng import seed_commitment
from domain.tournaments.events import (
    Entrant,
    EntrantResult,
    MatchResult,
    RoundPaired,
    TournamentCreated,
    TournamentStarted,
)
from domain.tournaments.state import TournamentState, fold

# A round as the tests write it: each table's (entrant, rank) pairs in seat order, and the byes.
Tables = Sequence[Sequence[tuple[int, int]]]


def given(format: str, n: int, rounds: Sequence[tuple[Tables, Sequence[int]]], *, seats: int = 2,
          cooperative: bool = False, forfeits: dict[tuple[int, int], str] | None = None) -> TournamentState:
    """A started tournament of n entrants (order = entry order) whose `rounds` were played with these ranks;
    `forfeits` maps (round, entrant) to the way that entrant forfeited."""
    created = TournamentCreated(game="terminus", rules_version="1", format=format, seats=seats, table_size=seats,
                                entrants=tuple(Entrant(handle=f"p{i}") for i in range(n)),
                                seed_commitment=seed_commitment("s"), rounds=len(rounds) or 1,
                                cooperative=cooperative)
    events: list[object] = [created, TournamentStarted(order=tuple(range(n)), rounds=len(rounds))]
    for number, (tables, byes) in enumerate(rounds, start=1):
        events.append(RoundPaired(round=number, tables=tuple(tuple(e for e, _ in t) for t in tables),
                                  byes=tuple(byes)))
        for index, table in enumerate(tables):
            results = tuple(EntrantResult(entrant=e, rank=rank, forfeit=(forfeits or {}).get((number, e)))
                            for e, rank in table)
            events.append(MatchResult(round=number, table=index, results=results))
    return fold(events)  # type: ignore[arg-type]
