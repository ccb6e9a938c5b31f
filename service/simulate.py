"""Random complete matches played through the match service (legal moves only): data to look at."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain import match
from domain.engine import Game
from service.matches import MatchService


def play_random_match(service: MatchService, game: Game[Any], players: Sequence[str], rng: random.Random,
                      options: dict[str, Any] | None = None, max_moves: int = 20_000) -> str:
    """Create a match and play random legal moves to its end; returns the match id."""
    created = service.create(game.slug, players, options, None)
    match_id = created.record.id
    for _ in range(max_moves):
        loaded = service.load(match_id)
        to_move = match.to_move(game, loaded.state)
        if not to_move:
            return match_id
        seat = rng.choice(to_move)
        service.play(match_id, seat, rng.choice(match.legal(game, loaded.state, seat)),
                     expected_version=loaded.state.version, command_id=None)
    raise RuntimeError(f"{game.slug} match {match_id} did not end in {max_moves} moves")
