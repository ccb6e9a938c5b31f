"""Search bots: Information Set Monte Carlo Tree Search over a game's own `legal`/`decide`/`evolve`.

What we chose, and why: **single-observer ISMCTS** (SO-ISMCTS, Cowling, Powley & Whitehouse 2012; OpenSpiel's
`ismcts.py` is the same family). Each iteration samples one complete table from what the bot's seat sees
(`Game.determinize`: the hidden part drawn at random, never read), walks one tree whose edges are moves (the seat's and
everyone else's, as this sample allows them), adds one node, plays a random rollout of at most `rollout` moves and backs
the result up; a child's UCB uses how often it was *available*, not how often its parent was visited, since a move
legal in one sample may be missing in the next. One tree for one observer is the cheapest member of the family that
never peeks: the opponents' moves are searched as if they saw the sampled table (their own hidden cards are sampled
for them too), a known bias of the single-observer form that multi-observer trees remove at several times the cost.

- Hidden cards: sampled anew each iteration from the seat's view, so the same move is judged over many tables.
- Simultaneous play (sealed choices, Metro X): the others' sealed choices are part of the hidden table and sampled;
  in the tree the searching seat seals its choice first at each such turn, so its choice never depends on theirs.
- Cooperative games (Mass Transit) are searched for the team's result: every seat gets the same reward.
- Rewards lie in [0, 1]: a finished game's from its final ranks and a share (`Budget.margin_share`) from the squashed
  score margin; a rollout stopped at its cap unfinished is judged by the margin alone (`margin_cutoff`), since a rank
  by current scores throws away how far ahead a seat is. A lone seat is rewarded by a squashed score; a cooperative
  team by its win, or at the cap by the game's own estimate of how near the win is (`Game.evaluate`; Mass Transit's
  `nearness`, from its greedy bot's count of cards still needed), else a squashed team score. The levels'
  rollouts stay uniformly random: led by Mass Transit's greedy bot (3 moves in 4) the top level took 5.1 s a move.

Budgets are **iterations, never wall time**, and every random draw comes from a `SearchRng` keyed by the caller (the
match seed, the seat, the version and the level: domain/bots.py), so a decision is a pure function of (the seat's
view, the key, the level) and `verify` re-runs it and gets the same move on any machine.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.engine import Command, Game
from domain.rng import Rng

EXPLORATION = 0.7  # UCB1's constant for rewards in [0, 1]
MASK64 = (1 << 64) - 1
MARGIN_SHARE = 0.2  # the part of a reward that comes from the score margin rather than the rank


@dataclass(frozen=True)
class Budget:
    """How hard a level searches: iterations (samples and tree walks), and the longest rollout in moves."""

    iterations: int
    rollout: int
    margin_cutoff: bool = False  # a rollout cut off unfinished is judged by its score margin alone, not by rank
    margin_share: float = 0.2  # the part of a finished game's reward that comes from the score margin, not the rank


class SearchRng(Rng):
    """The search's randomness: SplitMix64 (Steele, Lea & Flood 2014) seeded from SHA-256 of the key, a draw in
    [0, n) by multiply-and-shift. Fully specified here, so a decision re-runs the same on any Python; far cheaper than
    the rules' SHA-256 stream, which a search would otherwise spend most of its time in."""

    __slots__ = ("_state",)

    def __init__(self, key: bytes) -> None:
        super().__init__(key)
        self._state = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")

    def below(self, n: int) -> int:
        """An integer in [0, n) (bias below n / 2^64)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        self._state = (self._state + 0x9E3779B97F4A7C15) & MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return ((z ^ (z >> 31)) * n) >> 64


@dataclass(eq=False)
class Node:
    """A tree node: reached by `move` of `actor` (None at the root); statistics are that actor's."""

    actor: int | None = None
    move: Command | None = None
    parent: Node | None = None
    children: dict[tuple[int, Command], Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    reward: float = 0.0

    def ucb(self) -> float:
        """UCB1 with availability counts (SO-ISMCTS's selection)."""
        return self.reward / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


def actor(game: Game[Any], state: Any, searcher: int) -> tuple[int, Sequence[Command]] | None:
    """Who moves next in the search and their legal moves: the searching seat first when it may act (a sealed
    choice is made before looking at anyone else's), else the first seat to move with a legal move; None at the
    end."""
    seats = list(game.to_move(state))
    if searcher in seats:
        seats.remove(searcher)
        seats.insert(0, searcher)
    for seat in seats:
        moves = game.legal(state, seat)
        if moves:
            return seat, moves
    return None


def step(game: Game[Any], state: Any, seat: int, command: Command, rng: Rng) -> Any:
    """The table after `command`: the rules' own decide and evolve."""
    for event in game.decide(state, seat, command, rng):
        state = game.evolve(state, event)
    return state


def squash(score: float) -> float:
    """A score mapped into (0, 1), increasing."""
    return 0.5 + math.atan(score / 10.0) / math.pi


def rewards(game: Game[Any], state: Any, seats: int, margin_cutoff: bool = False,
            margin_share: float = MARGIN_SHARE) -> list[float]:
    """Each seat's reward in [0, 1] for a finished or cut-off table."""
    outcome = game.outcome(state)
    scores = list(game.scores(state))
    if margin_cutoff and outcome is None and seats > 1 and not game.cooperative:
        return [squash(scores[s] - max(scores[o] for o in range(seats) if o != s)) for s in range(seats)]
    if game.cooperative:
        if outcome is None and game.evaluate is not None:
            return [game.evaluate(state)] * seats
        base = 0.5 if outcome is None else float(bool(outcome.team_won))
        return [(1 - MARGIN_SHARE) * base + MARGIN_SHARE * squash(scores[0])] * seats
    if seats == 1:  # a lone seat: the higher its score, the better
        return [squash(scores[0])]
    if outcome is not None:
        ranks = {result.seat: result.rank for result in outcome.results}
    else:
        ranks = {s: 1 + sum(1 for other in scores if other > scores[s]) for s in range(seats)}
    out = []
    for s in range(seats):
        rank_part = (seats - ranks[s]) / (seats - 1)
        margin = scores[s] - max(scores[o] for o in range(seats) if o != s)
        out.append((1 - margin_share) * rank_part + margin_share * squash(margin))
    return out


def search(game: Game[Any], state: Any, seat: int, key: bytes, budget: Budget) -> Command:
    """The move SO-ISMCTS chooses for `seat` with `budget`; `state` is read only through `game.determinize`."""
    rng = SearchRng(key)
    first = game.determinize(state, seat, rng)
    seats = len(game.scores(first))
    options = list(game.legal(first, seat))
    if len(options) <= 1:
        return options[0]
    root = Node()
    for _ in range(budget.iterations):
        sample = first if root.visits == 0 else game.determinize(state, seat, rng)
        node, table = root, sample
        # Selection: descend while every move this sample allows has been tried.
        while True:
            turn = actor(game, table, seat)
            if turn is None:
                break
            mover, moves = turn
            keys = [(mover, move) for move in moves]
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.available += 1
            untried = [k for k in keys if k not in node.children]
            if untried:  # Expansion: one new node.
                k = untried[rng.below(len(untried))]
                child = Node(actor=mover, move=k[1], parent=node, available=1)
                node.children[k] = child
                node, table = child, step(game, table, mover, k[1], rng)
                break
            node = max((node.children[k] for k in keys), key=Node.ucb)
            table = step(game, table, mover, node.move, rng)  # type: ignore[arg-type]
        # Rollout: random legal moves, at most budget.rollout of them.
        for _ in range(budget.rollout):
            turn = actor(game, table, seat)
            if turn is None:
                break
            mover, moves = turn
            table = step(game, table, mover, moves[rng.below(len(moves))], rng)
        result = rewards(game, table, seats, budget.margin_cutoff, budget.margin_share)
        # Backpropagation: each node scores the reward of the seat that moved into it.
        walk: Node | None = node
        while walk is not None:
            walk.visits += 1
            if walk.actor is not None:
                walk.reward += result[walk.actor]
            walk = walk.parent
    tried = [root.children[(seat, move)] for move in options if (seat, move) in root.children]
    if not tried:
        return options[0]
    return max(tried, key=lambda child: (child.visits, child.reward)).move  # type: ignore[return-value]
