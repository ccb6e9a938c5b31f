"""Every game's `determinize` (a search bot's sample of the table, domain/games/<slug>/visibility.py), over many
seeded positions reached by random legal play: the sample looks to the seat exactly like the table it came from; its
hidden parts hold the same components (no card twice, none lost: the deck's composition kept; a sealed choice one
the seat could have sealed); and it is a function of what the seat sees alone (two tables the seat cannot tell
apart give the same sample for the same randomness), so nothing hidden reaches a bot through it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import match
from domain.catalog import GAMES
from domain.codec import encode
from domain.engine import Game, setups
from domain.playout import play
from domain.rng import Rng

CASES = [pytest.param(game, seats, options, id=f"{game.slug}-{seats}p")
         for game in GAMES for seats, options in setups(game)]
SEALED = {"metro-x"}  # the hidden part is each seat's sealed choice, not cards


def leaves(value: Any) -> Counter[str]:
    """Every string in a state (its components), except what a seat has seen (Terminus's memory, not a place)."""
    out: Counter[str] = Counter()
    if isinstance(value, str):
        out[value] += 1
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "seen":
                out += leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            out += leaves(item)
    return out


def position(game: Game[Any], seats: int, options: dict[str, Any], seed: int, moves: int) -> Any:
    """The game state after `moves` random legal moves from a seeded start (or at the end)."""
    state = play(game, seats, options, f"determinize-{seed}", max_moves=moves).state
    assert state is not None
    return state


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 150))
def test_a_sample_looks_the_same_to_the_seat_and_keeps_the_components(
        game: Game[Any], seats: int, options: dict[str, Any], seed: int, moves: int) -> None:
    state = position(game, seats, options, seed, moves)
    table = state.game_state
    for seat in range(seats):
        view = encode(game.view(table, seat))
        for n in range(3):
            sample = game.determinize(table, seat, Rng.derive(f"sample-{seed}", n))
            assert encode(game.view(sample, seat)) == view, f"seat {seat}'s sample shows another table"
            assert sample.__class__ is table.__class__
            if game.slug in SEALED:
                for other, choice in enumerate(sample.pending):
                    assert (choice is None) == (table.pending[other] is None)
                    if choice is not None and other != seat:
                        assert choice.key and msgspec.structs.replace(choice, key="") in {
                            msgspec.structs.replace(c, key="") for c in _choices(table, other)}
            else:
                assert leaves(msgspec.to_builtins(sample)) == leaves(msgspec.to_builtins(table)), \
                    "a card drawn twice or lost"
            if match.to_move(game, state):
                assert set(game.to_move(sample)) == set(game.to_move(table))
            # The same randomness on a table the seat cannot tell from this one: the same sample.
            other_table = game.scramble(table, seat, Rng.derive(f"other-{seed}", n))
            assert game.determinize(other_table, seat, Rng.derive(f"sample-{seed}", n)) == sample


def _choices(table: Any, seat: int) -> list[Any]:
    from domain.games.metro_x.rules import choice_of, options_for
    return [choice_of(command) for command in options_for(table, seat)]


@pytest.mark.parametrize("game", GAMES, ids=[game.slug for game in GAMES])
def test_samples_differ_where_something_is_hidden(game: Game[Any]) -> None:
    """Not a constant: across seeds and positions, some sample differs from the table it came from."""
    seats, options = setups(game)[0]
    differed = 0
    for seed in range(12):
        table = position(game, seats, options, seed, 5 + 7 * seed).game_state
        differed += any(game.determinize(table, 0, Rng.derive("differ", n)) != table for n in range(3))
    assert differed
