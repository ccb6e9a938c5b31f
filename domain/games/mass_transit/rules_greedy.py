"""A simple greedy Mass Transit team (the `greedy` bot): it scores every legal move one step ahead.

The score of a play is how much it lowers an estimate of the cards the team still needs, minus the card it spends
(and a small "keep" value for cards worth holding). Ending the turn scores a little below zero, so a seat keeps
playing only while a play pays for itself. It reads only what the seat may see: the map, the discards and its own
hand (through its legal moves).

The estimate (`need`) adds, per Commuter not yet home:
* on a closed route: the cheapest number of discards home (Walks weighted 1.6 for their scarcity, the first Walk out
  of the Big City 1);
* on an open route: one card per missing filler, one for a Suburbs card, and the discards home along the route
  completed by plain cards and that Suburbs card — with the remaining Suburbs cards assigned to the open routes at
  least total cost;
plus penalties for fewer Walk cards left than Commuters in the Big City, for Null cards stranded once every route is
closed, and for Suburbs cards in hand that no route is long enough to take.
"""

from __future__ import annotations

import heapq
from functools import lru_cache

from domain.engine import Command, Refusal
from domain.games.mass_transit.commands import EndTurn, PlaceCard
from domain.games.mass_transit.components import CARDS, DECK, LINE_OF, ROUTES
from domain.games.mass_transit.rules import legal, play_event
from domain.games.mass_transit.rules_movement import move
from domain.games.mass_transit.state import BIG_CITY, Commuter, State, evolve
from domain.rng import Rng

PLAIN_ID = next(c.id for c in DECK if (c.road, c.canal, c.rail) == ("plain", "plain", "plain"))
HOME_ID = {c.move: c.id for c in DECK if c.is_suburbs}  # one Suburbs card per mode, as a stand-in
SUBURBS = tuple((c.move, c.suburbs, c.id) for c in DECK if c.is_suburbs)
WALK_IDS = frozenset(c.id for c in DECK if c.move == "walk")
NULL_IDS = frozenset(c.id for c in DECK if c.move == "null")
COST = {"walk": 1.6, "bus": 1.0, "ferry": 1.0, "train": 1.0}
END_TURN = -0.2  # end the turn unless a play is worth (almost) the card it spends
WALK_SHORTAGE = 4.0
STRANDED_NULL = 1.0
CLOGGED_SUBURBS = 0.5
NEARNESS_SCALE = 8.0  # the `need` at which `nearness` is one half


@lru_cache(maxsize=100_000)
def trip_cost(route: tuple[str, ...], rider: Commuter) -> float:
    """The cheapest weighted number of discards that bring `rider` home along `route` (99 when impossible)."""
    if rider.home:
        return 0.0
    best = {rider: 0.0}
    frontier = [(0.0, 0, rider)]
    tie = 0
    while frontier:
        cost, _, here = heapq.heappop(frontier)
        if here.home:
            return cost
        if cost > best[here]:
            continue
        for by in COST:
            try:
                step = move(route, here, by)
            except Refusal:
                continue
            spent = cost + (1.0 if by == "walk" and here.pos == BIG_CITY else COST[by])
            there = Commuter(pos=step.to_pos, held=step.held, home=step.home)
            if spent < best.get(there, 99.0):
                best[there] = spent
                tie += 1
                heapq.heappush(frontier, (spent, tie, there))
    return 99.0


def need(state: State) -> float:
    """An estimate of the cards the team still needs to bring every Commuter home (lower is better)."""
    placed = {c for route in state.routes for c in route}
    played = placed | set(state.discards)
    total = WALK_SHORTAGE * max(0, sum(c.pos == BIG_CITY for c in state.commuters) - len(WALK_IDS - played))
    closed = [state.route_closed(r) for r in range(ROUTES)]
    if all(closed):
        total += STRANDED_NULL * len(NULL_IDS - played)
    for card_id in state.hands[state.active]:
        distance = CARDS[card_id].suburbs
        if distance and not any(not closed[r] and len(state.routes[r]) >= distance for r in range(ROUTES)):
            total += CLOGGED_SUBURBS
    left = [(mode, distance) for mode, distance, card_id in SUBURBS if card_id not in placed]
    options: list[list[float]] = []
    for r, (route, rider) in enumerate(zip(state.routes, state.commuters, strict=True)):
        if rider.home:
            continue
        if closed[r]:
            total += trip_cost(route, rider)
            continue
        costs = []
        for mode, distance in left:
            missing = max(0, distance - len(route))
            completed = (*route, *(PLAIN_ID,) * missing, HOME_ID[mode])
            costs.append(1 + missing + trip_cost(completed, rider))
        options.append(costs)
    return total + cheapest_assignment(options)


def cheapest_assignment(options: list[list[float]]) -> float:
    """The least total cost of giving each open route a different remaining Suburbs card (DP over subsets)."""
    best = {0: 0.0}
    for costs in options:
        following: dict[int, float] = {}
        for used, value in best.items():
            for j, cost in enumerate(costs):
                if not used >> j & 1 and value + cost < following.get(used | 1 << j, 1e9):
                    following[used | 1 << j] = value + cost
        best = following
    return min(best.values()) if best else 50.0


def keep(state: State, command: Command) -> float:
    """What laying this card on the map forgoes: Walks are scarce; a vehicle some Commuter can ride now is useful."""
    if not isinstance(command, PlaceCard) or CARDS[command.card].is_suburbs:
        return 0.0
    mode = CARDS[command.card].move
    if mode == "walk":
        return 0.8
    if mode not in LINE_OF:
        return 0.0
    for route, rider in zip(state.routes, state.commuters, strict=True):
        if rider.home or rider.pos == BIG_CITY:
            continue
        if rider.held == mode:
            return 0.8
        if not rider.held and CARDS[route[rider.pos]].feature(LINE_OF[mode]) == "station":
            return 0.6
    return 0.1


def nearness(state: State) -> float:
    """How near the team is to winning, in (0, 1]: 1 when no card is needed, falling with `need` (a search's judge
    of a table it stopped playing out, domain/search.py)."""
    return 1.0 if state.won else NEARNESS_SCALE / (NEARNESS_SCALE + max(0.0, need(state)))


def greedy(state: State, seat: int, rng: Rng) -> Command:
    """The greedy policy: the legal move with the best one-step score (an immediate win first; draws nothing)."""
    base = need(state)
    best: tuple[float, Command] | None = None
    for command in legal(state, seat):
        if isinstance(command, EndTurn):
            score = END_TURN
        else:
            after = evolve(state, play_event(state, seat, command))
            if after.won:
                return command
            score = base - need(after) - 1.0 - keep(state, command)
        if best is None or score > best[0]:
            best = (score, command)
    assert best is not None, "the seat to move always has a legal command"
    return best[1]
