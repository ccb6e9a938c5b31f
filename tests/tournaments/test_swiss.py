"""Swiss pairing (domain/tournaments/swiss.py): no avoidable repeats, rotating byes, similar points together."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rng import Rng
from domain.tournaments.formats import pair
from domain.tournaments.standings import opponents, tallies
from domain.tournaments.state import TournamentState
from tests.tournaments.given import given as given_rounds
from tests.tournaments.play import Run, create, pairings, play_out

A, B, C, D = 0, 1, 2, 3


def perfect_matchings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair `players` (an even count): the brute force the matching is checked against."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, partner in enumerate(rest):
        for matching in perfect_matchings(rest[:i] + rest[i + 1:]):
            yield [(first, partner), *matching]


def swiss_record(n: int, k: int, rounds: int, seed: str, withdraw: dict[int, int]) -> Run:
    """A Swiss tournament of n entrants at tables of k, played out with random results."""
    run = Run(seed)
    create(run, format="swiss", entrants=[f"p{i}" for i in range(n)], seats=k, rounds=rounds)
    play_out(run, Rng.derive(seed, 999), withdraw=withdraw)
    return run


def met_before(state: TournamentState) -> list[set[int]]:
    created = state.created
    return opponents(tallies(len(state.entrants), state.rounds, created.format, created.cooperative))


def byes_before(state: TournamentState) -> Counter[int]:
    return Counter(e for r in state.rounds for e in r.byes)


swiss_cases = st.tuples(st.integers(2, 9), st.integers(1, 7), st.text(max_size=6),
                        st.dictionaries(st.integers(1, 6), st.integers(0, 8), max_size=2))


@settings(max_examples=40, deadline=None)
@given(swiss_cases)
def test_two_seats_never_repeat_while_avoidable(case: tuple[int, int, str, dict[int, int]]) -> None:
    """Each round has as few repeat pairings as any perfect matching of the same entrants (brute force): none
    whenever a repeat-free one exists."""
    n, rounds, seed, withdraw = case
    run = swiss_record(n, 2, rounds, seed, {r: e for r, e in withdraw.items() if e < n})
    for before, paired in pairings(run.events):
        met = met_before(before)
        playing = sorted(e for t in paired.tables for e in t)
        fewest = min(sum(b in met[a] for a, b in m) for m in perfect_matchings(playing))
        assert sum(t[1] in met[t[0]] for t in paired.tables) == fewest, (paired, met)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5).flatmap(lambda k: st.tuples(st.just(k), swiss_cases)))
def test_tables_are_disjoint_and_byes_rotate(case: tuple[int, tuple[int, int, str, dict[int, int]]]) -> None:
    """Within a round nobody sits twice and every entrant still in sits somewhere; the n mod k byes go to entrants
    with no more byes than anyone playing (nobody gets a second bye while another still has none)."""
    k, (n, rounds, seed, withdraw) = case
    run = swiss_record(max(n, k), k, rounds, seed, {r: e for r, e in withdraw.items() if e < n})
    for before, paired in pairings(run.events):
        seated = [e for t in paired.tables for e in t]
        assert sorted(seated + list(paired.byes)) == sorted(before.active())
        assert all(len(t) == k for t in paired.tables)
        assert len(paired.byes) == len(before.active()) % k
        byes = byes_before(before)
        assert all(byes[b] <= byes[p] for b in paired.byes for p in seated)


def test_k_seats_group_by_standing_without_repeats() -> None:
    """Tables of three by standing: after round 1 (tables 0-1-2, 3-4-5, 6-7-8, each finishing in seat order), the
    pairing order is 0, 3, 6 (1 point), 1, 4, 7 (½), 2, 5, 8 (0); each table opens with the highest unplaced and
    seats the highest it has not met: the leaders together, then the seconds, then the thirds."""
    first = [[(t * 3 + i, i + 1) for i in range(3)] for t in range(3)]
    state = given_rounds("swiss", 9, [(first, [])], seats=3)
    assert pair(state, 2, Rng.derive("any", 2)).tables == ((0, 3, 6), (1, 4, 7), (2, 5, 8))


def test_k_seats_repeat_when_unavoidable() -> None:
    """Six entrants at two tables of three, twice: every new table holds two who met (pigeonhole); the greedy
    seats the leaders A and D, then the highest remaining (B, who met A), and the rest form the second table."""
    state = given_rounds("swiss", 6, [([[(A, 1), (B, 2), (C, 3)], [(D, 1), (4, 2), (5, 3)]], [])], seats=3)
    assert pair(state, 2, Rng.derive("any", 2)).tables == ((A, D, B), (4, C, 5))


def test_winners_meet_winners() -> None:
    """After round 1 (A beats B, C beats D) the matching pairs the two winners and the two losers."""
    state = given_rounds("swiss", 4, [([[(A, 1), (B, 2)], [(C, 1), (D, 2)]], [])])
    tables = pair(state, 2, Rng.derive("any", 2)).tables
    assert {frozenset(t) for t in tables} == {frozenset((A, C)), frozenset((B, D))}


def test_a_repeat_only_when_unavoidable() -> None:
    """Three rounds of four entrants use up every pairing, so round 4 must repeat; the closeness of points then
    chooses among the repeats."""
    rounds = [([[(A, 1), (B, 2)], [(C, 1), (D, 2)]], []), ([[(A, 1), (C, 2)], [(B, 1), (D, 2)]], []),
              ([[(A, 1), (D, 2)], [(B, 1), (C, 2)]], [])]
    state = given_rounds("swiss", 4, rounds)
    # Points: A 3, B 2, C 1, D 0: the closest repeat pairing is A-B and C-D.
    tables = pair(state, 4, Rng.derive("any", 4)).tables
    assert {frozenset(t) for t in tables} == {frozenset((A, B)), frozenset((C, D))}


def test_the_bye_goes_to_the_lowest_without_one() -> None:
    """Five entrants: after round 1 (A beat B, C beat D, E had the bye), the bye goes to the lowest of those
    without one: B or D (0 points), the one lower in the seeded order (here entry order: D)."""
    state = given_rounds("swiss", 5, [([[(A, 1), (B, 2)], [(C, 1), (D, 2)]], [4])])
    assert pair(state, 2, Rng.derive("any", 2)).byes == (D,)
