"""Swiss pairing: tables among entrants with similar points, never repeating opponents while that is avoidable.

The pairing order is points (most first), then the seeded `order` of `tournament.started`. Byes first: when the
entrants still in do not fill tables of k, the n mod k byes go to those with the fewest byes so far, the lowest in
the pairing order first (nobody gets a second bye while another entrant still has none).
- 2 seats: a maximum-weight perfect matching (networkx.max_weight_matching, maxcardinality=True) of the rest. An
  edge's integer weight is, in decreasing priority: not having met (so the matching has the fewest repeats there
  can be: none when a repeat-free perfect matching exists), closeness of points (a penalty growing with the square
  of the difference), and a draw from `Rng.derive(seed, round)` that makes the best matching unique. The first seat
  goes to whoever has sat first less often, then to the higher in the pairing order.
- k > 2 seats: tables by standing: the highest unplaced entrant opens a table, and each seat goes to the highest
  remaining entrant who has met the fewest of those already at the table (greedy: repeats avoided where it can).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from domain.rng import Rng
from domain.tournaments.standings import Tally

Table = tuple[int, ...]
JITTER = 1 << 16


def pairing_order(active: Sequence[int], tally: Sequence[Tally], order: Sequence[int]) -> list[int]:
    """The entrants still in, best first: points, then the seeded order."""
    position = {e: i for i, e in enumerate(order)}
    return sorted(active, key=lambda e: (-tally[e].points, position.get(e, len(order) + e)))


def byes_for(ranked: Sequence[int], tally: Sequence[Tally], k: int) -> list[int]:
    """The n mod k entrants who sit out: fewest byes so far, lowest in the pairing order first."""
    count = len(ranked) % k
    lowest_first = list(reversed(ranked))
    return sorted(lowest_first, key=lambda e: tally[e].byes)[:count]


def _met(tally: Sequence[Tally]) -> list[set[int]]:
    return [{o for o, _ in t.met} for t in tally]


def _weights(ranked: Sequence[int], tally: Sequence[Tally], rng: Rng) -> dict[tuple[int, int], int]:
    """Each pair's edge weight: repeat-free first, then closeness of points, then the seeded draw. Integers, so the
    matching is exact; each tier outweighs everything below it summed over a whole matching."""
    met = _met(tally)
    points = [t.points for t in tally]
    top = max(points, default=Fraction(0))
    scale = 2 * max((p.denominator for p in points), default=1)
    spread = int(top * scale) ** 2 + 1
    tables = len(ranked) // 2 + 1
    closeness_unit = JITTER * tables
    repeat_unit = closeness_unit * spread * tables
    weights = {}
    for i, a in enumerate(ranked):
        for b in ranked[i + 1:]:
            gap = int(abs(points[a] - points[b]) * scale) ** 2
            weights[a, b] = repeat_unit * (b not in met[a]) + closeness_unit * (spread - gap) + rng.below(JITTER)
    return weights


def pair_two(ranked: Sequence[int], tally: Sequence[Tally], rng: Rng,
             first_seats: dict[int, int]) -> list[Table]:
    """A 2-seat Swiss round of `ranked` (an even count, byes already out) by maximum-weight matching."""
    import networkx as nx  # here, not at the top: its import is ≈ 0.3 s of every process's start, most never pair

    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    for (a, b), weight in _weights(ranked, tally, rng).items():
        graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    place = {e: i for i, e in enumerate(ranked)}
    tables = []
    for a, b in matching:
        a, b = sorted((a, b), key=lambda e: (first_seats.get(e, 0), place[e]))
        tables.append((a, b))
    return sorted(tables, key=lambda t: min(place[t[0]], place[t[1]]))


def pair_many(ranked: Sequence[int], tally: Sequence[Tally], k: int) -> list[Table]:
    """A k-seat Swiss round of `ranked` (a multiple of k, byes already out): greedy tables by standing."""
    met = _met(tally)
    remaining = list(ranked)
    tables: list[Table] = []
    while remaining:
        table = [remaining.pop(0)]
        while len(table) < k:
            pick = min(remaining, key=lambda e: (sum(1 for t in table if t in met[e]), remaining.index(e)))
            table.append(pick)
            remaining.remove(pick)
        tables.append(tuple(table))
    return tables


def pair(active: Sequence[int], tally: Sequence[Tally], order: Sequence[int], k: int, rng: Rng,
         first_seats: dict[int, int]) -> tuple[list[Table], list[int]]:
    """One Swiss round: (tables, byes)."""
    ranked = pairing_order(active, tally, order)
    byes = byes_for(ranked, tally, k)
    playing = [e for e in ranked if e not in byes]
    tables = pair_two(playing, tally, rng, first_seats) if k == 2 else pair_many(playing, tally, k)
    return tables, sorted(byes)
