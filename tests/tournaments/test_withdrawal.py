"""Withdrawal (domain/tournaments/decide.py): a withdrawn entrant is never paired again and its pending match is
forfeited at once, worth a win to every other entrant of the table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import Refusal
from domain.rng import Rng
from domain.tournaments import rederive
from domain.tournaments.commands import OpenTable, RecordResult, Start, Withdraw
from domain.tournaments.events import EntrantResult, MatchResult, PlayerWithdrawn, RoundPaired
from domain.tournaments.scoring import table_points
from tests.tournaments.play import Run, create, play_out, teams

FORMATS = ("round-robin", "swiss", "knockout")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(FORMATS), st.integers(2, 4).flatmap(lambda k: st.tuples(st.just(k), st.integers(k + 1, 10))),
       st.dictionaries(st.integers(1, 3), st.integers(0, 9), min_size=1, max_size=2), st.text(max_size=4))
def test_withdrawn_entrants_are_never_paired_again(format: str, case: tuple[int, int], leaving: dict[int, int],
                                                  seed: str) -> None:
    """Whoever withdraws in round r appears in no table and no bye of a later round; the record still verifies."""
    k, n = case
    run = Run(seed)
    create(run, format=format, entrants=[f"p{i}" for i in range(n)], seats=k,
           **({"rounds": 4} if format == "swiss" else {}))
    play_out(run, Rng.derive(seed, 3), withdraw={r: e % n for r, e in leaving.items()})
    assert run.now.finished and rederive(run.events, run.seed) is None
    gone: set[int] = set()
    for event in run.events:
        if isinstance(event, PlayerWithdrawn):
            gone.add(event.entrant)
        if isinstance(event, RoundPaired):
            seated = {e for t in event.tables for e in t} | set(event.byes)
            assert not seated & gone


def started(format: str = "swiss", n: int = 4, seats: int = 2, **extra: object) -> Run:
    run = Run("withdrawal")
    create(run, format=format, entrants=[f"p{i}" for i in range(n)], seats=seats,
           **({"rounds": 3} if format == "swiss" else {}), **extra)
    run.send(Start())
    return run


def test_the_pending_match_is_forfeited_a_win_for_the_others() -> None:
    """Withdrawing mid-round records the table's result at once: the withdrawer last with forfeit `withdrawal`,
    every other entrant of the table a win."""
    run = started(n=6, seats=3)
    table = run.now.rounds[0].tables[0]
    run.send(OpenTable(round=1, table=0, match_id="m1"))
    events = run.send(Withdraw(entrant=table[1]))
    assert events[0] == PlayerWithdrawn(entrant=table[1])
    forfeit = events[1]
    assert isinstance(forfeit, MatchResult) and forfeit.match_id == "m1" and (forfeit.round, forfeit.table) == (1, 0)
    assert {r.entrant: r.forfeit for r in forfeit.results} == {table[0]: None, table[1]: "withdrawal", table[2]: None}
    assert table_points(forfeit.results, False) == {table[0]: 1, table[1]: 0, table[2]: 1}


def test_the_service_cannot_record_that_match_again() -> None:
    """The match of a forfeited table ends too (the service resigns the seat); its own result is then refused."""
    run = started()
    table = run.now.rounds[0].tables[0]
    run.send(Withdraw(entrant=table[0]))
    with pytest.raises(Refusal) as refused:
        run.send(RecordResult(round=1, table=0, results=(EntrantResult(entrant=table[0], rank=1),
                                                         EntrantResult(entrant=table[1], rank=2))))
    assert refused.value.code == "result-already-recorded"


def test_a_finished_table_is_not_forfeited() -> None:
    """Withdrawing after one's match ended records only the withdrawal: that result stands."""
    run = started()
    a, b = run.now.rounds[0].tables[0]
    run.send(RecordResult(round=1, table=0, results=(EntrantResult(entrant=a, rank=1),
                                                     EntrantResult(entrant=b, rank=2))))
    assert run.send(Withdraw(entrant=a)) == [PlayerWithdrawn(entrant=a)]


def test_a_team_withdrawing_forfeits_only_its_own_match() -> None:
    """At a cooperative table each team plays its own match: the others' matches go on."""
    run = Run("teams")
    create(run, format="swiss", entrants=["a", "b", "c", "d"], seats=2, game="mass-transit", rounds=2)
    run.send(Start())
    table = run.now.rounds[0].tables[0]
    events = run.send(Withdraw(entrant=table[0]))
    assert isinstance(events[1], MatchResult)
    assert [(r.entrant, r.forfeit, r.won) for r in events[1].results] == [(table[0], "withdrawal", False)]
    assert not run.now.rounds[0].table_done(0)
    other = teams([table[1]], Rng.derive("x", 1))[0]
    run.send(RecordResult(round=1, table=0, results=other))
    assert run.now.rounds[0].table_done(0)


def test_withdrawing_twice_is_refused() -> None:
    """already-withdrawn."""
    run = started()
    run.send(Withdraw(entrant=2))
    with pytest.raises(Refusal) as refused:
        run.send(Withdraw(entrant=2))
    assert refused.value.code == "already-withdrawn"


def test_withdrawing_before_the_start_leaves_the_entrant_out_of_round_one() -> None:
    """An entrant who withdraws before the start is not in the seeded order."""
    run = Run("early")
    create(run, format="round-robin", entrants=["a", "b", "c", "d"], seats=2)
    run.send(Withdraw(entrant=1))
    run.send(Start())
    assert 1 not in run.now.order and len(run.now.order) == 3
