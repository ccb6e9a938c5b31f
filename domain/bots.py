"""Bots: seats the service plays itself, with a policy named at creation (`{"bot": "random"}`).

Every game has `random` (a uniformly random legal command); a game may add its own policies (`Game.bots`, e.g.
Mass Transit's `greedy`). A bot plays from the seat's legal commands, with randomness derived from the secret match
seed and the version, so its moves are recorded like any seat's and replay never needs the policy.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from domain import match
from domain.engine import Command, Game, Refusal
from domain.lifecycle import BOT_PREFIX
from domain.match import MatchState
from domain.playout import Chooser
from domain.rng import Rng

Policy = Callable[[Any, int, Rng], Command]
PREFIX = BOT_PREFIX  # a bot's player handle is `bot:<policy>[:<label>]`; people's handles cannot hold a colon


def random_policy(game: Game[Any]) -> Policy:
    """A uniformly random legal command of the seat."""

    def choose(state: Any, seat: int, rng: Rng) -> Command:
        return rng.choice(list(game.legal(state, seat)))

    return choose


def names(game: Game[Any]) -> tuple[str, ...]:
    """The bots a game offers."""
    return ("random", *(name for name, _ in game.bots))


def policy(game: Game[Any], name: str) -> Policy:
    """The named bot's policy for this game, or an `unknown-bot` refusal."""
    if name == "random":
        return random_policy(game)
    found = dict(game.bots).get(name)
    if found is None:
        raise Refusal("unknown-bot", f"{game.slug} has no {name!r} bot; it has {', '.join(names(game))}")
    return found


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
