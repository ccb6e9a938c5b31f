"""The generic `greedy` bot of the competitive games: one move ahead, judged over a few tables sampled from its seat.

Each legal move of the seat is played on `Lookahead.samples` tables drawn from what the seat sees
(`Game.determinize`, as the search levels draw theirs: the hidden part sampled, never read), and judged by the
reward the search gives a table it stops at (domain/search.py `rewards`: the seat's squashed score margin, or mostly
it once the game is over); the move with the best mean wins, ties broken by the bot's key. Every sample's draws come
from the key and the sample's number, the same for every move, so moves are compared on the same tables and the
same dice (common random numbers: fewer samples tell them apart).

The budget is a number of samples, never wall time, so a decision is a pure function of (the seat's view, the key),
like a search level's, and `verify` re-decides every move of it (ledger/bot_moves.py). Mass Transit keeps its own
`greedy` (domain/games/mass_transit/rules_greedy.py): its team plan reads only the seat's own hand already, and its
moves in stored records were never re-decided.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Command, Game, Lookahead, Refusal
from domain.search import SearchRng, rewards, squash, step

MARGIN_SHARE = 0.6  # a finished table's reward: 60 % the squashed margin, 40 % the rank (the search levels' share)


def lookahead(game: Game[Any], state: Any, seat: int, key: bytes, bot: Lookahead) -> Command:
    """The move `bot` chooses for `seat`; `state` is read only through `game.determinize`."""
    rng = SearchRng(key)
    tables = [game.determinize(state, seat, rng) for _ in range(bot.samples)]
    options = list(game.legal(tables[0], seat))
    if len(options) <= 1:
        return options[0]
    means = [sum(judged(game, bot, table, seat, option, key + n.to_bytes(4, "big"))
                 for n, table in enumerate(tables)) / bot.samples for option in options]
    best = max(means)
    tied = [option for option, mean in zip(options, means, strict=True) if mean == best]
    return tied[rng.below(len(tied))]


def judged(game: Game[Any], bot: Lookahead, table: Any, seat: int, option: Command, key: bytes) -> float:
    """The seat's reward in [0, 1] for the table after `option`, its draws keyed by `key` (the sample's): the
    search's, or on a table not yet over the squashed margin of the game's `worth`; 0 (the worst) when this sample
    refuses the move."""
    try:
        after = step(game, table, seat, option, SearchRng(key))
    except Refusal:
        return 0.0
    if bot.worth is None or game.outcome(after) is not None:
        return rewards(game, after, len(game.scores(after)), margin_cutoff=True, margin_share=MARGIN_SHARE)[seat]
    values = list(bot.worth(after))
    others = [value for other, value in enumerate(values) if other != seat]
    return squash(values[seat] - max(others) if others else values[seat])
