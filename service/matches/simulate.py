"""Random complete matches played through the match service (legal moves only): data to look at."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

from domain import match
from domain.engine import Game
from service.matches.matches import MatchService


def play_random_moves(service: MatchService, match_id: str, rng: random.Random, count: int) -> int:
    """Play up to `count` random legal moves of a match; returns how many were played (fewer if it ended)."""
    for played in range(count):
        loaded = service.load(match_id)
        to_move = match.to_move(loaded.game, loaded.state)
        if not to_move:
            return played
        seat = rng.choice(to_move)
        service.play(match_id, seat, rng.choice(match.legal(loaded.game, loaded.state, seat)),
                     expected_version=loaded.state.version, command_id=None)
    return count


def play_random_match(service: MatchService, game: Game[Any], players: Sequence[str], rng: random.Random,
                      options: dict[str, Any] | None = None, max_moves: int = 20_000) -> str:
    """Create a match and play random legal moves to its end; returns the match id."""
    match_id = service.create(game.slug, players, options).record.id
    if play_random_moves(service, match_id, rng, max_moves) < max_moves:
        return match_id
    raise RuntimeError(f"{game.slug} match {match_id} did not end in {max_moves} moves")


def timed_moves(service: MatchService, game: Game[Any], players: Sequence[str], rng: random.Random,
                options: dict[str, Any] | None = None) -> Iterator[float]:
    """Random legal moves without end (opening matches as they finish), yielding the seconds each `play` took."""
    match_id = None
    while True:
        if match_id is None:
            match_id = service.create(game.slug, players, options).record.id
        loaded = service.load(match_id)
        to_move = match.to_move(loaded.game, loaded.state)
        if not to_move:
            match_id = None
            continue
        seat = rng.choice(to_move)
        command = rng.choice(match.legal(loaded.game, loaded.state, seat))
        began = time.perf_counter()
        service.play(match_id, seat, command, expected_version=loaded.state.version, command_id=None)
        yield time.perf_counter() - began
