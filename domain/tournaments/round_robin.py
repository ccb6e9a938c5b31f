"""Round robin schedules: a pure function of the seeded order of the entrants and the table size.

- 2 seats: the circle (polygon) method. Places 0..m-2 of `order` stand on a polygon, place m-1 in its centre
  (m = n, or n + 1 with a phantom when n is odd, whose partner has a bye). In round r (0-based) place r meets the
  centre and places r + d and r - d (mod m - 1) meet, d = 1..m/2-1: m - 1 rounds, every pair exactly once, one bye
  each when n is odd. Seats: the centre sits first in odd rounds; on the chord d the place r + d sits first when d
  is odd, r - d when even. Over the schedule nobody's first seats and second seats differ by more than one.
- k > 2 seats: a covering schedule, greedy round by round until every pair has shared a table: each round leaves
  n mod k entrants out (a bye: those with the fewest byes so far, then the fewest pairs still to meet, then by a
  position that turns with the round), starts its first table with a pair still to meet among those playing (when
  none is left there, such a pair plays and the next due sits out instead: every round covers a pair, so the
  schedule ends), and fills each table with whoever shares the most unmet pairs with it
  (ties: the earlier in `order`). Nobody sits twice in a round; every pair meets at least once.
The seed enters through `order` (`tournament.started`), so the schedule is known, and checkable, from the start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

Table = tuple[int, ...]
Schedule = list[tuple[tuple[Table, ...], tuple[int, ...]]]


def circle(order: Sequence[int]) -> Schedule:
    """The 2-seat round robin of `order` by the circle (polygon) method: a list of (tables, byes) per round."""
    m = len(order) + len(order) % 2  # a phantom at place m - 1 when n is odd: its partner has a bye
    c = m - 1
    rounds: Schedule = []
    for r in range(c):
        places = [(c, r) if r % 2 else (r, c)]
        places += [((r + d) % c, (r - d) % c) if d % 2 else ((r - d) % c, (r + d) % c) for d in range(1, m // 2)]
        tables = tuple((order[a], order[b]) for a, b in places if max(a, b) < len(order))
        byes = tuple(order[min(a, b)] for a, b in places if max(a, b) >= len(order))
        rounds.append((tables, byes))
    return rounds


def covering(order: Sequence[int], k: int) -> Schedule:
    """A k-seat round robin of `order`: rounds of disjoint tables of k covering every pair at least once."""
    n = len(order)
    position = {e: i for i, e in enumerate(order)}
    unmet = {frozenset(p) for p in combinations(order, 2)}
    byes = dict.fromkeys(order, 0)
    rounds: Schedule = []
    while unmet and n >= 2:
        still = _counter(unmet)
        sitting_out, first = _byes_and_first_pair(order, k, len(rounds), unmet, byes, still)
        remaining = [e for e in order if e not in sitting_out and e not in first]
        tables: list[Table] = []
        table = sorted(first, key=position.__getitem__)
        while table:
            while len(table) < k and remaining:
                best = max(remaining, key=lambda e: (sum(1 for t in table if frozenset((e, t)) in unmet),
                                                     -position[e]))
                table.append(best)
                remaining.remove(best)
            tables.append(tuple(table))
            unmet -= {frozenset(p) for p in combinations(table, 2)}
            table = [max(remaining, key=lambda e: (still(e), -position[e]))] if remaining else []
            if table:
                remaining.remove(table[0])
        for e in sitting_out:
            byes[e] += 1
        rounds.append((tuple(tables), sitting_out))
    return rounds


def _byes_and_first_pair(order: Sequence[int], k: int, number: int, unmet: set[frozenset[int]],
                         byes: dict[int, int], still: Callable[[int], int]) -> tuple[tuple[int, ...], frozenset[int]]:
    """The round's byes (fewest byes so far, then fewest pairs still to meet, then a place turning with the round)
    and the unmet pair that opens its first table (among those playing; when every unmet pair has someone due to
    sit out, that pair plays and the next due sits out instead, so every round covers a pair and the schedule
    ends)."""
    n = len(order)
    position = {e: i for i, e in enumerate(order)}
    count = n % k if n > k else 0

    def due(excluded: frozenset[int]) -> tuple[int, ...]:
        ranked = sorted((e for e in order if e not in excluded),
                        key=lambda e: (byes[e], still(e), (position[e] - number) % n))
        return tuple(sorted(ranked[:count], key=position.__getitem__))

    def best(pairs: list[frozenset[int]]) -> frozenset[int]:
        return min(pairs, key=lambda p: (-min(still(e) for e in p), sorted(position[e] for e in p)))

    sitting_out = due(frozenset())
    playable = [p for p in unmet if not p & set(sitting_out)]
    if playable:
        return sitting_out, best(playable)
    first = best(list(unmet))
    return due(first), first


def _counter(unmet: set[frozenset[int]]) -> Callable[[int], int]:
    """How many pairs still to meet each entrant is in (counted once, when the round begins)."""
    counts: dict[int, int] = {}
    for pair in unmet:
        for e in pair:
            counts[e] = counts.get(e, 0) + 1
    return lambda e: counts.get(e, 0)


def schedule(order: Sequence[int], k: int) -> Schedule:
    """The round robin of `order` at tables of `k`."""
    return circle(order) if k == 2 else covering(order, k)


def round_of(order: Sequence[int], k: int, number: int, withdrawn: Sequence[int]) -> tuple[list[Table], list[int]]:
    """Round `number` (1-based) of the schedule, without the withdrawn: a table left with one entrant is a bye."""
    tables, byes = schedule(order, k)[number - 1]
    kept: list[Table] = []
    alone = [e for e in byes if e not in withdrawn]
    for table in tables:
        present = tuple(e for e in table if e not in withdrawn)
        if len(present) >= 2:
            kept.append(present)
        else:
            alone.extend(present)
    return kept, alone
