"""Golden playthroughs: one seeded random match per game, written out move by move and reviewed.

Regenerate on purpose only: `TURNSTILE_REGENERATE_GOLDEN=1 uv run pytest tests/test_golden.py`,
then read the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from domain import match
from domain.catalog import GAMES
from domain.codec import encode
from domain.engine import Game, setups
from domain.playout import play

GOLDEN = Path(__file__).parent / "golden"
RENDER_EVERY = 10


def transcript(game: Game[Any]) -> str:
    """The golden text of `game`: set-up, each move with its events, and the table every few moves."""
    seats, options = setups(game)[0]
    seed = f"golden-{game.slug}"
    played = play(game, seats, options, seed=seed)
    lines = [f"# {game.title} ({game.slug}), {seats} seats, options {options}, seed {seed!r}", "set-up:"]
    lines += [f"  {encode(e).decode()}" for e in played.events[: played.setup_count]]
    state = match.fold(game, played.events[: played.setup_count])
    cursor = played.setup_count
    for number, ((seat, command), count) in enumerate(zip(played.moves, played.event_counts, strict=True), 1):
        new = played.events[cursor : cursor + count]
        cursor += count
        state = match.fold(game, new, state)
        lines.append(f"move {number}: seat {seat} {encode(command).decode()}")
        lines += [f"  {encode(e).decode()}" for e in new]
        if number % RENDER_EVERY == 0 or state.finished:
            lines += ["", game.render(state.game_state).rstrip(), ""]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_golden_playthrough_is_unchanged(game: Game[Any]) -> None:
    """Rules changes that alter play show up here as a reviewed diff of the golden file."""
    path = GOLDEN / f"{game.slug}.txt"
    text = transcript(game)
    if os.environ.get("TURNSTILE_REGENERATE_GOLDEN") == "1":
        path.write_text(text)
    assert path.exists(), f"no golden file: run with TURNSTILE_REGENERATE_GOLDEN=1 and review {path}"
    assert text == path.read_text(), f"{game.slug} plays differently from {path}; regenerate on purpose"
