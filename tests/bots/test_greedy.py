"""The competitive games' `greedy` bot (`Lookahead`, played by domain/greedy.py): pure, legal, blind to what its seat
cannot see, and listed at level 1 between `random` and the search levels (issue 41)."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import bots
from domain.catalog import GAMES, game_of
from domain.engine import Game, Lookahead, setups
from domain.games.expect_delays.components import LINE_ORDER, TRACK, lines_of
from domain.games.expect_delays.rules_greedy import worth
from domain.greedy import lookahead
from domain.playout import play
from domain.search import SearchRng, step
from tests.bots.test_search import choice_point, decides_blind

COMPETITIVE = [game for game in GAMES if not game.cooperative]
CASES = [pytest.param(game, seats, options, id=f"{game.slug}-{seats}p")
         for game in COMPETITIVE for seats, options in setups(game)[:2]]


def greedy_of(game: Game[Any]) -> Lookahead:
    """The game's `greedy` bot as it lists it."""
    found = dict(game.bots)["greedy"]
    assert isinstance(found, Lookahead)
    return found


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), moves=st.integers(0, 60))
def test_the_move_is_legal_repeatable_and_blind_to_what_the_seat_cannot_see(
        game: Game[Any], seats: int, options: dict[str, Any], seed: int, moves: int) -> None:
    """Same (view, key): same move, one of the seat's legal moves. Honesty: a table that differs only in what the
    seat cannot see (the others' hands, the deck's order, the others' sealed choices) gives the same move."""
    table, seat = choice_point(game, seats, options, seed, moves)
    key, bot = f"key-{seed}".encode(), dataclasses.replace(greedy_of(game), samples=3)
    decides_blind(game, table, seat, seed, lambda table: lookahead(game, table, seat, key, bot))


@pytest.mark.parametrize("game", COMPETITIVE, ids=lambda game: game.slug)
def test_every_competitive_game_offers_it_at_level_1_and_verify_re_decides_it(game: Game[Any]) -> None:
    """`greedy` sits between `random` and the search levels, plays through `bots.policy` from the bot's draw (the same
    draw, the same move), and is a bot `verify` re-decides; Mass Transit's own greedy and `random` are not."""
    assert [(level.name, level.level) for level in bots.levels(game)][:3] == [
        ("random", 0), ("greedy", 1), ("ismcts-1", 2)]
    assert greedy_of(game).samples >= 2
    assert bots.sees_only_its_seat(game, "greedy") and bots.sees_only_its_seat(game, "ismcts-1")
    assert not bots.sees_only_its_seat(game, "random") and not bots.sees_only_its_seat(game, None)
    assert not bots.is_search("greedy")  # fast: played inline, like `random`, not in the background
    table, seat = choice_point(game, 2 if game.max_seats > 1 else 1, dict(setups(game)[0][1]), 3, 10)
    chosen = bots.policy(game, "greedy")(table, seat, bots.bot_rng("seed", 10))
    assert chosen == bots.policy(game, "greedy")(table, seat, bots.bot_rng("seed", 10))
    assert chosen in game.legal(table, seat)


def test_mass_transit_keeps_its_own_greedy_unchecked() -> None:
    """Mass Transit's greedy is its team plan (rules_greedy.py), recorded in stored records that were never
    re-decided: it stays what it was, and `verify` does not re-run it."""
    mass_transit = game_of("mass-transit")
    assert not isinstance(dict(mass_transit.bots)["greedy"], Lookahead)
    assert not bots.sees_only_its_seat(mass_transit, "greedy")


def test_the_move_with_the_best_margin_is_taken() -> None:
    """Not a random pick: in Touched On, where most moves score at once, the greedy move's margin after it is the
    best any legal move reaches on the real table, at positions where the moves differ (the game hides little a
    move's score depends on)."""
    game = game_of("touched-on")
    checked = 0
    for seed in range(80):
        table, seat = choice_point(game, 2, {}, seed, 20 + seed)
        chosen = lookahead(game, table, seat, b"k", greedy_of(game))
        margins = {move: margin(game, table, seat, move) for move in game.legal(table, seat)}
        if len(set(margins.values())) > 1:
            checked += 1
            assert margins[chosen] == max(margins.values()), (seed, chosen)
    assert checked >= 5


def margin(game: Game[Any], table: Any, seat: int, move: Any) -> float:
    """The seat's score margin after `move` on this table."""
    scores = list(game.scores(step(game, table, seat, move, SearchRng(b"m"))))
    return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)


def test_expect_delays_counts_a_commuter_worth_keeping_on_its_line_until_the_last_stops() -> None:
    """Expect Delays's `worth`: Disembarking a Commuter at a stop worth 1 point loses worth (so `greedy` keeps it on
    its line), at the last stop gains; Boarding and moving it along gain. Scored by points alone, the one-move
    greedy Disembarked at once and lost to random play (bench/README.md)."""
    game = game_of("expect-delays")
    assert greedy_of(game).worth is worth  # the game's greedy judges by it, the others by their scores
    assert all(greedy_of(other).worth is None for other in COMPETITIVE if other is not game)
    state = play(game, 2, {}, "worth-0", max_moves=0).state
    assert state is not None
    table = state.game_state
    line = lines_of(0)[0]
    index = LINE_ORDER.index(line)

    def with_commuter(stop: int | None, points: int) -> Any:
        track = tuple("commuter" if n == stop else None for n in range(len(TRACK.stop_points)))
        tracks = (*table.tracks[:index], track, *table.tracks[index + 1:])
        return msgspec.structs.replace(table, tracks=tracks, points=(points, *table.points[1:]))

    last = len(TRACK.stop_points) - 1
    empty, boarded, riding = worth(with_commuter(None, 0))[0], worth(with_commuter(0, 0))[0], worth(
        with_commuter(1, 0))[0]
    assert empty < boarded < riding < worth(with_commuter(last, 0))[0]
    assert worth(with_commuter(None, TRACK.stop_points[1]))[0] < riding  # Disembarking for 1 point: a loss
    assert worth(with_commuter(None, TRACK.stop_points[last]))[0] > worth(with_commuter(last, 0))[0]
    assert worth(with_commuter(1, 0))[1] == worth(with_commuter(None, 0))[1]  # the other seat's worth is its own
