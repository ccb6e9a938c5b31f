"""Knockout brackets: a pure function of the seeded order and the results so far.

- 2 seats: a bracket of P slots, P the power of two at or above the entrants at the start. Seeds 1..n (the seeded
  `order`: drawn from the seed, or entry order) take the standard positions (1 meets P, 2 meets P-1, and 1 and 2
  can meet only in the final); the P - n empty slots are byes, all against the top seeds. The winner of each table
  (rank 1; a draw goes to the higher slot) and each bye go on to the next round; a withdrawn entrant leaves an empty
  slot (its opponent has a bye). log2 P rounds: the last is the final.
- k > 2 seats: a round deals its field to T = ceil(m / k) tables in snake order (sizes differ by one at most) and
  the top `advance` of each table (at most all but one) go on, ordered by their place, then by table; a round of
  one table is the final. Round 1's field is the seeded order.
Ties at the cut go to the better-seated entrant (the earlier seat, which the better seed holds).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournaments.scoring import finishing_order
from domain.tournaments.state import Round

Table = tuple[int, ...]
Slot = int | None


def bracket_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two `size`: [1, 4, 2, 3] for 4."""
    seeds = [1]
    while len(seeds) < size:
        seeds = [s for seed in seeds for s in (seed, 2 * len(seeds) + 1 - seed)]
    return seeds


def first_slots(order: Sequence[int]) -> list[Slot]:
    """Round 1's slots: the seeded entrants in bracket positions, None for a bye."""
    size = 1
    while size < len(order):
        size *= 2
    return [order[s - 1] if s <= len(order) else None for s in bracket_positions(size)]


def slots_after(order: Sequence[int], rounds: Sequence[Round], withdrawn: Sequence[int],
                cooperative: bool) -> list[Slot]:
    """The 2-seat bracket's slots for the round after `rounds` (all finished)."""
    slots = first_slots(order)
    for played in rounds:
        winners = {finishing_order(t, played.results[i], cooperative)[0] for i, t in enumerate(played.tables)}
        slots = [_through(slots[i], slots[i + 1], winners, played.byes) for i in range(0, len(slots), 2)]
    return [s if s not in withdrawn else None for s in slots]


def _through(a: Slot, b: Slot, winners: set[int], byes: Sequence[int]) -> Slot:
    return next((e for e in (a, b) if e is not None and (e in winners or e in byes)), None)


def pair_slots(slots: Sequence[Slot]) -> tuple[list[Table], list[int]]:
    """Tables and byes of a 2-seat round from its slots."""
    tables: list[Table] = []
    byes: list[int] = []
    for i in range(0, len(slots), 2):
        present = [e for e in slots[i:i + 2] if e is not None]
        if len(present) == 2:
            tables.append((present[0], present[1]))
        else:
            byes.extend(present)
    return tables, byes


def field_after(order: Sequence[int], rounds: Sequence[Round], advance: int, withdrawn: Sequence[int],
                cooperative: bool) -> list[int]:
    """The k-seat knockout's field for the round after `rounds`, best first."""
    field = list(order)
    for played in rounds:
        going: list[tuple[int, int, int]] = []
        for i, table in enumerate(played.tables):
            ranked = finishing_order(table, played.results[i], cooperative)
            going += [(place, i, e) for place, e in enumerate(ranked[: min(advance, len(table) - 1)])]
        field = [e for _, _, e in sorted(going)] + list(played.byes)
    return [e for e in field if e not in withdrawn]


def snake(field: Sequence[int], k: int) -> list[Table]:
    """The field dealt to ceil(m / k) tables in snake order."""
    count = -(-len(field) // k)
    tables: list[list[int]] = [[] for _ in range(count)]
    for i, entrant in enumerate(field):
        row, col = divmod(i, count)
        tables[col if row % 2 == 0 else count - 1 - col].append(entrant)
    return [tuple(t) for t in tables]


def planned_rounds(n: int, k: int, advance: int) -> int:
    """The rounds a knockout of n entrants takes when nobody withdraws."""
    if k == 2:
        return max(1, (n - 1).bit_length())
    rounds = 1
    while n > k:
        sizes = [len(t) for t in snake(range(n), k)]
        n = sum(min(advance, s - 1) for s in sizes)
        rounds += 1
    return rounds
