"""The search bots (domain/search.py, levels in domain/bots.py): pure, legal, and honest.

Budgets here are tiny (a handful of iterations): what is tested is the shape of the decision, not its strength
(the ladder in bench/ measures that)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import bots
from domain.catalog import GAMES, game_of
from domain.engine import Game, setups
from domain.games.mass_transit.rules_greedy import need
from domain.playout import play
from domain.rng import Rng
from domain.search import Budget, SearchRng, rewards, search

TINY = Budget(iterations=6, rollout=6)
# The levels' evaluation: a cut-off judged by the margin (or Mass Transit's `nearness`), a finished game mostly by it.
TINY_TUNED = Budget(iterations=6, rollout=3, margin_cutoff=True, margin_share=0.6)
CASES = [pytest.param(game, seats, options, id=f"{game.slug}-{seats}p")
         for game in GAMES for seats, options in setups(game)[:2]]


def choice_point(game: Game[Any], seats: int, options: dict[str, Any], seed: int, moves: int) -> tuple[Any, int]:
    """A table after random play where some seat to move has a real choice (two legal moves or more)."""
    for extra in range(40):
        state = play(game, seats, options, f"search-{seed}", max_moves=moves + extra).state
        assert state is not None
        if state.ended is not None:
            moves = max(0, moves // 2 - extra)
            continue
        for seat in game.to_move(state.game_state):
            if len(game.legal(state.game_state, seat)) > 1:
                return state.game_state, seat
    pytest.skip("no choice point reached")


def decides_blind(game: Game[Any], table: Any, seat: int, seed: int, decide: Callable[[Any], Any]) -> None:
    """`decide` (a bot's move for `seat` on a table) gives one of the seat's legal moves, the same one again, and the
    same one on tables that differ only in what the seat cannot see (the others' hands, the deck's order, the others'
    sealed choices)."""
    chosen = decide(table)
    assert chosen in game.legal(table, seat)
    assert decide(table) == chosen
    for n in range(2):
        hidden_changed = game.scramble(table, seat, Rng.derive(f"other-{seed}", n))
        assert game.view(hidden_changed, seat) == game.view(table, seat)
        assert decide(hidden_changed) == chosen


@pytest.mark.parametrize("budget", [TINY, TINY_TUNED], ids=["plain", "tuned"])
@pytest.mark.parametrize(("game", "seats", "options"), CASES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), moves=st.integers(0, 60))
def test_the_move_is_legal_repeatable_and_blind_to_what_the_seat_cannot_see(
        game: Game[Any], seats: int, options: dict[str, Any], budget: Budget, seed: int, moves: int) -> None:
    """Same (view, key, budget): same move, one of the seat's legal moves. Honesty: a table that differs only in
    what the seat cannot see (the others' hands, the deck's order, the others' sealed choices) gives the same move."""
    table, seat = choice_point(game, seats, options, seed, moves)
    key = f"key-{seed}".encode()
    decides_blind(game, table, seat, seed, lambda table: search(game, table, seat, key, budget))


def test_the_levels_play_through_the_bot_policy_from_the_match_seed() -> None:
    """A level's policy keys its search by the bot's draw (seed and version), the seat and the level: the same draw
    gives the same move; the policy is what `bots.policy` names, and every level is offered by every game."""
    game = game_of("expect-delays")
    table, seat = choice_point(game, 2, {}, 7, 12)
    for name in bots.SEARCH:
        assert name in bots.names(game) and bots.is_search(name)
        first = bots.policy(game, name)(table, seat, bots.bot_rng("seed", 12))
        assert first == bots.policy(game, name)(table, seat, bots.bot_rng("seed", 12))
        assert first in game.legal(table, seat)
    assert not bots.is_search("random") and not bots.is_search("greedy")
    assert [level.level for level in bots.levels(game_of("mass-transit"))] == [0, 1, 2, 3, 4]
    assert [level.name for level in bots.levels(game_of("mass-transit"))][:2] == ["random", "greedy"]


def test_the_search_randomness_is_fixed_by_its_key() -> None:
    """The search's draws come from its key alone (SplitMix64, specified in the module): the same key, the same
    stream; every draw in range; the generator is SplitMix64 itself (its published first output for seed 0)."""
    one, two, other = SearchRng(b"k"), SearchRng(b"k"), SearchRng(b"j")
    firsts = [one.below(1000) for _ in range(50)]
    assert firsts == [two.below(1000) for _ in range(50)]
    assert firsts != [other.below(1000) for _ in range(50)]
    assert all(0 <= SearchRng(bytes([n])).below(3) < 3 for n in range(100))
    with pytest.raises(ValueError):
        one.below(0)
    assert sorted(one.shuffled(range(10))) == list(range(10))
    zero = SearchRng(b"")
    zero._state = 0
    assert zero.below(1 << 64) == 0xE220A8397B1DCDAF  # SplitMix64's first output from state 0


def test_a_cooperative_game_is_searched_for_the_team() -> None:
    """Mass Transit: every seat gets the same reward (the team's), higher for a won game than a lost one."""
    game = game_of("mass-transit")
    finished = play(game, 3, {}, "coop-0").state
    assert finished is not None and finished.ended is not None
    result = rewards(game, finished.game_state, 3)
    assert len(set(result)) == 1
    assert (result[0] > 0.8) == bool(finished.ended.team_won)


def test_a_competitive_reward_follows_the_final_ranks() -> None:
    """The winner's reward is the highest; rewards lie in [0, 1]."""
    game = game_of("touched-on")
    finished = play(game, 3, {}, "ranks-0").state
    assert finished is not None and finished.ended is not None
    result = rewards(game, finished.game_state, 3)
    winners = [r.seat for r in finished.ended.results if r.rank == 1]
    assert all(0.0 <= r <= 1.0 for r in result)
    assert max(result) == result[winners[0]]


def test_a_cut_off_table_is_judged_by_its_margin_or_the_games_estimate() -> None:
    """A rollout stopped before the end: in a competitive game (with `margin_cutoff`) the seat ahead on score gets
    more than one half and the seat behind less, in proportion to the margin; in Mass Transit every seat gets the
    game's `nearness`, higher as fewer cards are needed, and 1 only for a win."""
    game = game_of("touched-on")
    table = play(game, 2, {}, "cut-0", max_moves=40).state
    assert table is not None and table.ended is None
    scores = list(game.scores(table.game_state))
    result = rewards(game, table.game_state, 2, margin_cutoff=True)
    assert (result[0] > result[1]) == (scores[0] > scores[1]) and abs(sum(result) - 1.0) < 1e-9
    coop = game_of("mass-transit")
    assert coop.evaluate is not None
    nearness = []
    for moves in (0, 30):
        state = play(coop, 2, {}, "near-0", max_moves=moves).state
        assert state is not None and state.ended is None
        assert rewards(coop, state.game_state, 2) == [coop.evaluate(state.game_state)] * 2
        nearness.append((coop.evaluate(state.game_state), need(state.game_state)))
    assert all(0.0 < value < 1.0 for value, _ in nearness)
    assert (nearness[0][0] > nearness[1][0]) == (nearness[0][1] < nearness[1][1])
