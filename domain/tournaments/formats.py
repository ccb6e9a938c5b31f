"""`pair(state, round, rng)`: every format's pairing as a pure function of the record so far, the format and
`Rng.derive(seed, round)` (round robin and knockout read the randomness through `tournament.started`'s `order`,
drawn from round 1's). Also how many rounds a format plans, and when it is over."""

from __future__ import annotations

from itertools import combinations

import msgspec

from domain.rng import Rng
from domain.tournaments import knockout, round_robin, swiss
from domain.tournaments.events import TournamentCreated
from domain.tournaments.standings import opponents, tallies
from domain.tournaments.state import TournamentState


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """One round's tables (entrant indices in seat order) and byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


def pair(state: TournamentState, number: int, rng: Rng) -> Pairing:
    """Round `number`'s pairing, from the finished rounds before it (see each format's module)."""
    created = state.created
    k, active, withdrawn = created.table_size, state.active(), state.withdrawn
    played = state.rounds[: number - 1]
    if created.format == "round-robin":
        tables, byes = round_robin.round_of(state.order, k, number, withdrawn)
    elif created.format == "swiss":
        tally = tallies(len(state.entrants), played, created.format, created.cooperative)
        first_seats: dict[int, int] = {}
        for r in played:
            for table in r.tables:
                first_seats[table[0]] = first_seats.get(table[0], 0) + 1
        tables, byes = swiss.pair(active, tally, state.order, k, rng, first_seats)
    elif k == 2:
        tables, byes = knockout.pair_slots(knockout.slots_after(state.order, played, withdrawn, created.cooperative))
    else:
        field = knockout.field_after(state.order, played, created.advance, withdrawn, created.cooperative)
        tables, byes = (knockout.snake(field, k), []) if len(field) >= 2 else ([], field)
    return Pairing(tables=tuple(tables), byes=tuple(byes))


def planned_rounds(created: TournamentCreated, entrants: int) -> int:
    """The rounds the format plays with `entrants` at the start when nobody withdraws."""
    if created.format == "swiss":
        return created.rounds or 0
    if created.format == "round-robin":
        return len(round_robin.schedule(range(entrants), created.table_size))
    return knockout.planned_rounds(entrants, created.table_size, created.advance)


def planned_matches(created: TournamentCreated, entrants: int) -> int:
    """The matches the format plays with `entrants` when nobody withdraws (a knockout: at most; a cooperative table
    plays one match per team at it)."""
    k = created.table_size
    if created.format == "swiss":
        tables = (created.rounds or 0) * -(-entrants // k)
    elif created.format == "round-robin":
        tables = sum(len(paired) for paired, _ in round_robin.schedule(range(entrants), k))
    elif k == 2:
        tables = max(0, entrants - 1)
    else:
        tables, field = 0, entrants
        while field >= 2:
            sizes = [len(t) for t in knockout.snake(range(field), k)]
            tables += len(sizes)
            if len(sizes) <= 1:
                break
            field = sum(min(created.advance, s - 1) for s in sizes)
    return tables * (k if created.cooperative else 1)


def over_after(state: TournamentState) -> bool:
    """Whether the tournament ends with its current round (which has ended)."""
    created, active = state.created, state.active()
    number = len(state.rounds)
    if len(active) < 2 or (created.format == "swiss" and len(active) < created.table_size):
        return True
    if created.format == "swiss":
        return number >= (created.rounds or 0)
    if created.format == "round-robin":
        met = opponents(tallies(len(state.entrants), state.rounds, created.format, created.cooperative))
        all_met = all(b in met[a] for a, b in combinations(active, 2))
        return all_met or number >= len(round_robin.schedule(state.order, created.table_size))
    if created.table_size == 2:
        slots = knockout.slots_after(state.order, state.rounds, state.withdrawn, created.cooperative)
        return len(slots) <= 1 or sum(s is not None for s in slots) <= 1
    last = state.rounds[-1]
    field = knockout.field_after(state.order, state.rounds, created.advance, state.withdrawn, created.cooperative)
    return len(last.tables) <= 1 or len(field) < 2
