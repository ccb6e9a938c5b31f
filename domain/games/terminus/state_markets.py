"""Markets: buy from the leftmost column holding cubes, return to the rightmost column with a free space; and a
trade, the one way cubes, coins and Rails move between the markets and a seat's storage.

Rules, Collecting and spending resources: "Resources are always collected from the leftmost column containing
resources, and each resource costs the number of coins indicated at the top of the column"; "Resources you spend
or return are placed in the rightmost column with an available space. (In a 2-player game, gray spaces within a
market are never filled.)" The Construction depots are a market whose columns cost 0.
"""

from __future__ import annotations

from domain.games.terminus.components import MARKETS, RESOURCES

Counts = tuple[int, ...]
Cubes = tuple[int, int, int, int]  # one count per resource, in RESOURCES order
NOTHING: Cubes = (0, 0, 0, 0)
RESOURCE_INDEX = {resource: index for index, resource in enumerate(RESOURCES)}


def capacities(resource: int, seats: int) -> Counts:
    """Rules, Collecting and spending resources: spaces per column of a market (grey ones unused with 2 players)."""
    return tuple(spaces - (grey if seats == 2 else 0) for _, spaces, grey in MARKETS[resource])


def initial(seats: int) -> tuple[Counts, ...]:
    """Rules, Main Board Set Up: every market filled (grey spaces left empty with 2 players)."""
    return tuple(capacities(r, seats) for r in range(len(RESOURCES)))


def price(resource: int, counts: Counts, n: int) -> int | None:
    """Rules, Collecting and spending resources: coins to buy `n` cubes one by one from the leftmost non-empty
    column; None if fewer than `n` remain."""
    total, left = 0, n
    for (cost, _, _), count in zip(MARKETS[resource], counts, strict=True):
        took = min(count, left)
        total += took * cost
        left -= took
        if not left:
            return total
    return None if left else total


def take_cubes(counts: Counts, n: int) -> Counts:
    """Rules, Collecting and spending resources: the market after `n` cubes leave it from the left."""
    out = list(counts)
    for i, count in enumerate(out):
        took = min(count, n)
        out[i] -= took
        n -= took
        if not n:
            break
    return tuple(out)


def give_cubes(counts: Counts, caps: Counts, n: int) -> Counts:
    """Rules, Collecting and spending resources: the market after `n` cubes come back into its rightmost free
    spaces."""
    out = list(counts)
    for i in range(len(out) - 1, -1, -1):
        put = min(caps[i] - out[i], n)
        out[i] += put
        n -= put
        if not n:
            break
    return tuple(out)


def leftmost_depots(counts: Counts, depots: int) -> int:
    """Rules, Depots: the Construction in the `depots` leftmost non-empty depots."""
    total = 0
    for count in counts:
        if count:
            total += count
            depots -= 1
            if not depots:
                break
    return total


def one_of(resource: str) -> Cubes:
    """One cube of `resource` (Rules, Resources)."""
    return cubes(resource, 1)


def cubes(resource: str, count: int) -> Cubes:
    """`count` cubes of one resource (Rules, Resources)."""
    out = [0, 0, 0, 0]
    out[RESOURCE_INDEX[resource]] = count
    return (out[0], out[1], out[2], out[3])
