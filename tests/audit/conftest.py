"""Audit tests reuse the API fixtures (`store` of each kind, a client over it) and play matches quickly."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain import match
from domain.catalog import by_slug
from domain.engine import Game, setups
from domain.playout import play, random_chooser
from domain.rng import Rng
from service.matches.matches import MatchService
from tests.api.conftest import app_key, client  # noqa: F401  (fixtures, re-exported for tests/audit)
from tests.store.conftest import harness  # noqa: F401  (a store with raw SQL beside it, for tampering)


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh store of each kind, for the command line (TURNSTILE_DATABASE_URL)."""
    yield f"sqlite:///{tmp_path / 'cli.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_clean_url")


def small_setup(game: Game[Any]) -> tuple[int, dict[str, Any]]:
    """The sample set-up whose seeded match is shortest (keeps per-version HTTP checks quick)."""
    return _small_setup(game.slug)


@cache
def _small_setup(slug: str) -> tuple[int, dict[str, Any]]:
    game = by_slug(slug)
    assert game is not None
    return min(setups(game), key=lambda setup: len(play(game, setup[0], setup[1], "small").events))


def play_moves(service: MatchService, match_id: str, game: Game[Any], seed: str, moves: int) -> int:
    """Play up to `moves` random legal moves through the match service; returns the match's version."""
    choose = random_chooser(game, Rng.derive(seed, -1))
    state = service.load(match_id).state
    for _ in range(moves):
        seats = match.to_move(game, state)
        if not seats:
            break
        seat, command = choose(state, seats)
        service.play(match_id, seat, command, expected_version=state.version, command_id=None)
        state = service.load(match_id).state
    return state.version
