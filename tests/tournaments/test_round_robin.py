"""Round robin schedules (domain/tournaments/round_robin.py): complete, and fair in seats and byes."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rng import Rng
from domain.tournaments.round_robin import circle, covering, round_of, schedule


def orders(low: int, high: int) -> st.SearchStrategy[list[int]]:
    """A seeded order of n entrants (indices 0..n-1 in a random order, as `tournament.started` draws them)."""
    return st.tuples(st.integers(low, high), st.text(max_size=4)).map(
        lambda ns: list(Rng.derive(ns[1], 1).shuffled(range(ns[0]))))


@settings(max_examples=60, deadline=None)
@given(orders(2, 16))
def test_two_seats_every_pair_meets_exactly_once(order: list[int]) -> None:
    """Circle method: n - 1 rounds (n even) or n (n odd); every pair once; nobody twice in a round."""
    n = len(order)
    rounds = circle(order)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(t) for tables, _ in rounds for t in tables)
    assert set(met) == {frozenset(p) for p in combinations(range(n), 2)}
    assert set(met.values()) == {1}
    for tables, byes in rounds:
        seated = [e for t in tables for e in t] + list(byes)
        assert sorted(seated) == sorted(order)


@settings(max_examples=60, deadline=None)
@given(orders(3, 15).filter(lambda o: len(o) % 2 == 1))
def test_two_seats_odd_count_gives_everyone_one_bye(order: list[int]) -> None:
    """With n odd each round has one bye and each entrant sits out exactly once."""
    byes = Counter(b for _, round_byes in circle(order) for b in round_byes)
    assert all(len(round_byes) == 1 for _, round_byes in circle(order))
    assert byes == Counter(order)


@settings(max_examples=60, deadline=None)
@given(orders(2, 16))
def test_two_seats_first_seats_are_balanced(order: list[int]) -> None:
    """Seats alternate fairly: over the schedule, nobody's first and second seats differ by more than one."""
    first = Counter(t[0] for tables, _ in circle(order) for t in tables)
    second = Counter(t[1] for tables, _ in circle(order) for t in tables)
    assert all(abs(first[e] - second[e]) <= 1 for e in order)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 5).flatmap(lambda k: st.tuples(st.just(k), orders(k, 13))))
def test_k_seats_every_pair_meets_and_nobody_sits_twice_in_a_round(case: tuple[int, list[int]]) -> None:
    """Covering schedule: tables of exactly k, n mod k byes, every pair together at least once."""
    k, order = case
    rounds = covering(order, k)
    met = {frozenset(p) for tables, _ in rounds for t in tables for p in combinations(t, 2)}
    assert met == {frozenset(p) for p in combinations(order, 2)}
    for tables, byes in rounds:
        seated = [e for t in tables for e in t] + list(byes)
        assert sorted(seated) == sorted(order), "nobody twice in a round, nobody forgotten"
        assert all(len(t) == k for t in tables)
        assert len(byes) == (len(order) % k if len(order) > k else 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 5).flatmap(lambda k: st.tuples(st.just(k), orders(k + 1, 13))))
def test_k_seats_byes_rotate(case: tuple[int, list[int]]) -> None:
    """Byes rotate: after every round, nobody has sat out twice more than anyone else has sat out."""
    k, order = case
    byes: Counter[int] = Counter()
    for _, round_byes in covering(order, k):
        byes.update(round_byes)
        assert max(byes[e] for e in order) - min(byes[e] for e in order) <= 1


def test_k_seats_schedules_stay_short() -> None:
    """The greedy is not optimal, but it stays near the bound ceil((n - 1) / (k - 1)) rounds (each entrant meets
    k - 1 others a round): at most twice it, and three more, for every size checked here."""
    for k in (3, 4, 5):
        for n in range(k, 16):
            bound = -(-(n - 1) // (k - 1))
            assert bound <= len(covering(list(range(n)), k)) <= 2 * bound + 3, (n, k)


def test_schedule_picks_the_method_by_table_size() -> None:
    """Two seats: the circle method; more: the covering schedule."""
    assert schedule([0, 1, 2, 3], 2) == circle([0, 1, 2, 3])
    assert schedule([0, 1, 2, 3], 3) == covering([0, 1, 2, 3], 3)


def test_a_withdrawn_entrant_leaves_its_opponent_a_bye() -> None:
    """round_of drops the withdrawn: a 2-seat table left with one entrant is a bye; a k-seat table plays short."""
    tables, _ = circle([0, 1, 2, 3])[0]
    gone = tables[0][0]
    kept, byes = round_of([0, 1, 2, 3], 2, 1, withdrawn=[gone])
    assert kept == [tables[1]]
    assert byes == [tables[0][1]]
    kept, byes = round_of(list(range(6)), 3, 1, withdrawn=[0])
    assert all(0 not in t for t in kept) and sorted(len(t) for t in kept) == [2, 3] and byes == []
