"""Knockout brackets (domain/tournaments/knockout.py): one champion, log2 rounds, only table winners go on."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from domain.rng import Rng
from domain.tournaments.commands import Start
from domain.tournaments.knockout import bracket_positions, first_slots, planned_rounds, snake
from domain.tournaments.scoring import finishing_order
from domain.tournaments.state import TournamentState
from tests.tournaments.given import given as given_rounds
from tests.tournaments.play import Run, create, play_out


def test_bracket_positions_keep_the_top_seeds_apart() -> None:
    """Standard seeding: 1 meets 4 and 2 meets 3; at eight, 1 and 2 can only meet in the final."""
    assert bracket_positions(4) == [1, 4, 2, 3]
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_byes_fill_to_a_power_of_two_and_go_to_the_top_seeds() -> None:
    """Five entrants: a bracket of eight, three byes, against seeds 1, 2 and 3."""
    order = [10, 11, 12, 13, 14]  # seeds 1..5
    slots = first_slots(order)
    assert len(slots) == 8 and slots.count(None) == 3
    with_bye = {slots[i] if slots[i + 1] is None else slots[i + 1] for i in range(0, 8, 2) if None in slots[i:i + 2]}
    assert with_bye == {10, 11, 12}


def test_a_drawn_table_sends_the_earlier_seat_on() -> None:
    """Ties at the cut go to the better-seated entrant (the earlier seat)."""
    state = given_rounds("knockout", 2, [([[(1, 1), (0, 1)]], [])])
    current = state.rounds[0]
    assert finishing_order(current.tables[0], current.results[0], False) == [1, 0]


def knockout_run(n: int, k: int, seed: str, withdraw: dict[int, int] | None = None) -> Run:
    run = Run(seed)
    create(run, format="knockout", entrants=[f"p{i}" for i in range(n)], seats=k)
    play_out(run, Rng.derive(seed, 7), withdraw=withdraw)
    return run


def went_on(state: TournamentState, k: int) -> list[tuple[set[int], set[int]]]:
    """Per round: who could go on (top `advance` of each table, and the byes), and who played the next round."""
    out = []
    for played, following in zip(state.rounds, state.rounds[1:], strict=False):
        allowed = set(played.byes)
        for table, results in zip(played.tables, played.results, strict=True):
            allowed |= set(finishing_order(table, results, False)[: min(state.created.advance, len(table) - 1)])
        out.append((allowed, {e for t in following.tables for e in t} | set(following.byes)))
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20), st.text(max_size=6))
def test_two_seat_bracket_has_one_champion_in_log2_rounds(n: int, seed: str) -> None:
    """ceil(log2 n) rounds; every entrant of a round won its table (or had a bye) in the round before; the last
    round is one table, whose winner is first in the final standings."""
    state = knockout_run(n, 2, seed).now
    assert len(state.rounds) == (n - 1).bit_length() == state.planned_rounds
    for allowed, playing in went_on(state, 2):
        assert playing == allowed
    final = state.rounds[-1]
    assert len(final.tables) == 1 and not final.byes
    champion = finishing_order(final.tables[0], final.results[0], False)[0]
    assert state.final is not None and state.final[0].entrant == champion
    assert sum(1 for s in state.final if s.tiebreaks["round-reached"] == len(state.rounds)) == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 5).flatmap(lambda k: st.tuples(st.just(k), st.integers(k, 24))), st.text(max_size=6))
def test_k_seat_knockout_advances_the_top_of_each_table_to_one_final(case: tuple[int, int], seed: str) -> None:
    """The top `advance` (ceil(k/2) by default, all but one at a smaller table) of each table go on, and nobody
    else; the last round is one table,
    the final, whose winner is first; the rounds are as planned."""
    k, n = case
    state = knockout_run(n, k, seed).now
    assert state.created.advance == -(-k // 2)
    for allowed, playing in went_on(state, k):
        assert playing == allowed
    final = state.rounds[-1]
    assert len(final.tables) == 1
    assert state.final is not None
    assert state.final[0].entrant == finishing_order(final.tables[0], final.results[0], False)[0]
    assert len(state.rounds) == planned_rounds(n, k, state.created.advance) == state.planned_rounds


def test_snake_deals_tables_that_differ_by_one_at_most() -> None:
    """Seven entrants at tables of three: three tables, seeds dealt 1-6-7, 2-5, 3-4 (snake order)."""
    assert snake([1, 2, 3, 4, 5, 6, 7], 3) == [(1, 6, 7), (2, 5), (3, 4)]


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 16), st.text(max_size=6), st.integers(1, 3), st.integers(0, 15))
def test_a_withdrawn_entrant_leaves_its_next_opponent_a_bye(n: int, seed: str, when: int, who: int) -> None:
    """Whoever withdraws never plays again; the bracket still ends with one champion still in."""
    who %= n
    assume(when <= (n - 1).bit_length())
    state = knockout_run(n, 2, seed, withdraw={when: who}).now
    assert who in state.withdrawn
    assert state.final is not None and state.final[0].entrant != who
    for played in state.rounds[when:]:
        assert all(who not in t for t in played.tables) and who not in played.byes


def test_entry_seeding_follows_entry_order_and_random_seeding_the_seed() -> None:
    """`seeding: entry`: seed 1 is the first entrant, so round 1 of four is 0 v 3 and 1 v 2, whatever the seed;
    `random` (the default) draws the order from the seed, recorded in `tournament.started`."""
    for seed in ("one", "two"):
        run = Run(seed)
        create(run, format="knockout", entrants=["a", "b", "c", "d"], seats=2, seeding="entry")
        run.send(Start())
        assert run.now.order == (0, 1, 2, 3)
        assert run.now.rounds[0].tables == ((0, 3), (1, 2))
    orders = set()
    for seed in ("one", "two", "three", "four"):
        run = Run(seed)
        create(run, format="knockout", entrants=["a", "b", "c", "d"], seats=2)
        run.send(Start())
        assert run.now.order == Rng.derive(seed, 1).shuffled((0, 1, 2, 3))
        orders.add(run.now.order)
    assert len(orders) > 1
