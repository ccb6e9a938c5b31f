"""Bots: seats the service plays itself, with a policy named at creation (`{"bot": "random"}`).

Every game has `random` (a uniformly random legal command); a game may add its own policies (`Game.bots`: Mass
Transit's `greedy`, and the competitive games' `greedy`, the generic one-move `Lookahead` of domain/greedy.py); and
every game has the search levels `ismcts-1` .. `ismcts-3` (domain/search.py), which see only their seat's view. A bot
plays from the seat's legal commands, with randomness derived from the secret match seed and the version, so its moves
are recorded like any seat's and replay never needs the policy; a search bot's or a `Lookahead`'s move is moreover a
pure function of (its seat's view, the seed, the seat, the version, its name), which `verify` re-runs
(ledger/bot_moves.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain import match
from domain.engine import Command, Game, Lookahead, Refusal
from domain.greedy import lookahead
from domain.lifecycle import BOT_PREFIX
from domain.match import MatchState
from domain.playout import Chooser
from domain.rng import Rng
from domain.search import Budget, search

Policy = Callable[[Any, int, Rng], Command]
PREFIX = BOT_PREFIX  # a bot's player handle is `bot:<policy>[:<label>]`; people's handles cannot hold a colon


def random_policy(game: Game[Any]) -> Policy:
    """A uniformly random legal command of the seat."""

    def choose(state: Any, seat: int, rng: Rng) -> Command:
        return rng.choice(list(game.legal(state, seat)))

    return choose


@dataclass(frozen=True)
class Level:
    """A bot a seat may take, as the catalog lists it: its name, its level (0 the weakest), what it does, and the
    title pages show for a seat it plays ("Computer, level 4 (search)")."""

    name: str
    level: int
    description: str
    title: str


def title(level: int, kind: str) -> str:
    """The name people read for a bot seat: what it is, its level, and how it plays."""
    return f"Computer, level {level} ({kind})"


# The search levels: reference iterations (times the game's `search_scale`) and the longest rollout. Chosen so the
# top level decides in under a second a move and the lowest in under 50 ms on one core of the bench machine
# (bench/bot_speed.py, numbers in bench/README.md). A change of budget or of the search is a new level name: the moves
# recorded under a name are re-decided by `verify` forever. (The evaluation changed once under these names, issue 41's
# strength work, while no stored record held a search bot's move: tests/corpus/ names only `random` and `greedy`.)
SEARCH: dict[str, tuple[int, Budget]] = {
    "ismcts-1": (2, Budget(iterations=16, rollout=8, margin_cutoff=True, margin_share=0.6)),
    "ismcts-2": (3, Budget(iterations=64, rollout=16, margin_cutoff=True, margin_share=0.6)),
    "ismcts-3": (4, Budget(iterations=192, rollout=16, margin_cutoff=True, margin_share=0.6)),
}
SEARCH_KEY = "turnstile/bot/ismcts/v1"
LOOKAHEAD_KEY = "turnstile/bot/lookahead/v1"


def levels(game: Game[Any]) -> tuple[Level, ...]:
    """Every bot the game offers, weakest first."""
    own = tuple(Level(name=name, level=1, description=(chosen.__doc__ or name).strip().split("\n")[0],
                      title=title(1, name)) for name, chosen in game.bots)
    searches = tuple(
        Level(name=name, level=level, description=(
            f"searches {budget.iterations * game.search_scale} sampled tables a move (information set MCTS, "
            f"rollouts of at most {budget.rollout} moves); sees only its own seat"), title=title(level, "search"))
        for name, (level, budget) in SEARCH.items())
    return (Level(name="random", level=0, description="a uniformly random legal move", title=title(0, "random moves")),
            *own, *searches)


def shown_names(game: Game[Any], players: tuple[str, ...]) -> tuple[str, ...]:
    """The players as people read them (the events' `text`, the web page): a bot's handle as its level's title, after
    its label if it has one ("r1: Computer, level 0 (random moves)"); a person's handle as it is."""
    titles = {level.name: level.title for level in levels(game)}

    def shown(handle: str) -> str:
        name = bot_name(handle) if handle else None
        if name is None or name not in titles:
            return handle
        label = handle[len(PREFIX) + len(name) + 1:]
        return f"{label}: {titles[name]}" if label else titles[name]

    return tuple(shown(handle) for handle in players)


def names(game: Game[Any]) -> tuple[str, ...]:
    """The bots a game offers, weakest first."""
    return tuple(level.name for level in levels(game))


def keyed(rng: Rng, name: str, seat: int, prefix: str) -> bytes:
    """A view-only bot's key: the bot's draw (secret with the match seed, derived from the version), its name and
    its seat."""
    draw = rng.below(1 << 256).to_bytes(32, "big")
    return hashlib.sha256(f"{prefix}/{name}/{seat}/".encode() + draw).digest()


def search_policy(game: Game[Any], name: str) -> Policy:
    """A search level's policy: SO-ISMCTS from the seat's view, keyed by the bot's draw (secret with the match seed,
    derived from the version), the seat and the level."""
    budget = SEARCH[name][1]
    scaled = dataclasses.replace(budget, iterations=budget.iterations * game.search_scale)

    def choose(state: Any, seat: int, rng: Rng) -> Command:
        return search(game, state, seat, keyed(rng, name, seat, SEARCH_KEY), scaled)

    return choose


def lookahead_policy(game: Game[Any], name: str, bot: Lookahead) -> Policy:
    """A `Lookahead` bot's policy (domain/greedy.py) in this game record, keyed like a search level's."""

    def choose(state: Any, seat: int, rng: Rng) -> Command:
        return lookahead(game, state, seat, keyed(rng, name, seat, LOOKAHEAD_KEY), bot)

    return choose


def policy(game: Game[Any], name: str) -> Policy:
    """The named bot's policy for this game, or an `unknown-bot` refusal."""
    if name == "random":
        return random_policy(game)
    if name in SEARCH:
        return search_policy(game, name)
    found = dict(game.bots).get(name)
    if found is None:
        raise Refusal("unknown-bot", f"{game.slug} has no {name!r} bot; it has {', '.join(names(game))}")
    if isinstance(found, Lookahead):
        return lookahead_policy(game, name, found)
    return found


def is_search(name: str | None) -> bool:
    """Whether a bot is a search level: slow enough (up to a second a move) to be played in the background."""
    return name in SEARCH


def sees_only_its_seat(game: Game[Any], name: str | None) -> bool:
    """Whether a bot's every move is a pure function of its seat's view and its key, which `verify` re-decides: the
    search levels and a game's `Lookahead` (not `random`, nor Mass Transit's own `greedy`, whose recorded moves were
    never re-decided)."""
    return is_search(name) or isinstance(dict(game.bots).get(name or ""), Lookahead)


def player(name: str, label: str | None = None) -> str:
    """The player handle of a bot: `bot:<policy>`, or `bot:<policy>:<label>` for a bot with a name of its own (a
    tournament's entrant `r1`), so that each seat says which entrant holds it."""
    return PREFIX + name + ("" if label is None else f":{label}")


def bot_name(player_handle: str) -> str | None:
    """The policy name of a bot's handle (its label left off), None for a person."""
    if not player_handle.startswith(PREFIX):
        return None
    return player_handle[len(PREFIX):].split(":", 1)[0]


def bot_rng(seed: str, version: int) -> Rng:
    """The randomness of a bot deciding at `version`: secret with the seed, apart from the rules' own draws."""
    return Rng(hashlib.sha256(f"turnstile/bot/v1/{seed}/{version}".encode()).digest())


def bot_to_move(game: Game[Any], state: MatchState) -> tuple[int, str] | None:
    """The first bot seat to move now and its bot's name, or None when no bot is to move."""
    for seat in match.to_move(game, state):
        name = bot_name(state.players[seat])
        if name is not None:
            return seat, name
    return None


def next_bot_move(game: Game[Any], state: MatchState, seed: str) -> tuple[int, Command] | None:
    """The move of the first bot seat to move now, or None when no bot is to move."""
    found = bot_to_move(game, state)
    if found is None:
        return None
    seat, name = found
    return seat, policy(game, name)(state.game_state, seat, bot_rng(seed, state.version))


def chooser(game: Game[Any], name: str, seed: str) -> Chooser:
    """A playout chooser (domain/playout.py) with every seat played by the named bot."""
    chosen = policy(game, name)

    def choose(state: MatchState, seats: list[int]) -> tuple[int, Command]:
        seat = next(s for s in seats if match.legal(game, state, s))
        return seat, chosen(state.game_state, seat, bot_rng(seed, state.version))

    return choose
