"""Whole tournaments with random results: every format, tables of 2 to 5 seats, and Mass Transit's teams, played
to `tournament.finished`; each record re-derives from its seed and survives a JSON round trip."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import Event
from domain.rng import Rng
from domain.tournaments import fold, rederive
from domain.tournaments.events import RoundPaired, TournamentEvent
from tests.tournaments.play import Run, create, play_out, teams

FORMATS = ("round-robin", "swiss", "knockout")


def check_record(run: Run) -> None:
    """Finished, verifiable, JSON-stable, with disjoint tables and a total final order."""
    state = run.now
    assert state.finished and state.final is not None
    assert [s.place for s in state.final] == list(range(1, len(state.entrants) + 1))
    assert sorted(s.entrant for s in state.final) == list(range(len(state.entrants)))
    assert rederive(run.events, run.seed) is None
    for event in run.events:
        if isinstance(event, RoundPaired):
            seated = [e for t in event.tables for e in t] + list(event.byes)
            assert len(seated) == len(set(seated))
    decoded: list[Event] = [msgspec.json.decode(msgspec.json.encode(e), type=TournamentEvent) for e in run.events]
    assert decoded == run.events and fold(decoded) == state


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FORMATS), st.integers(2, 5).flatmap(lambda k: st.tuples(st.just(k), st.integers(k, 12))),
       st.integers(1, 5), st.text(max_size=6))
def test_every_format_and_seat_count_plays_to_the_end(format: str, case: tuple[int, int], rounds: int,
                                                      seed: str) -> None:
    """Each format, 2..5 seats a table, 2..12 entrants (some of them bots): the record ends `finished`."""
    k, n = case
    entrants: list[Any] = [f"p{i}" if i % 3 else {"bot": "random", "name": f"r{i}"} for i in range(n)]
    run = Run(seed)
    create(run, format=format, entrants=entrants, seats=k, **({"rounds": rounds} if format == "swiss" else {}))
    play_out(run, Rng.derive(seed, 5))
    check_record(run)
    if format != "swiss":
        assert len(run.now.rounds) == run.now.planned_rounds


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(FORMATS), st.integers(2, 4).flatmap(lambda k: st.tuples(st.just(k), st.integers(k, 9))),
       st.integers(1, 4), st.text(max_size=6))
def test_mass_transit_teams_play_to_the_end(format: str, case: tuple[int, int], seats: int, seed: str) -> None:
    """A cooperative tournament: teams (a player alone, a bot team, a team of members), `table_size` teams a
    table, each in its own match, ranked by won, Commuters home, fewer turns."""
    size, n = case
    def team(i: int) -> Any:
        if i % 3 == 0:
            return {"bot": "greedy", "name": f"bots{i}"}
        if i % 3 == 1 and seats > 1:
            return {"team": f"t{i}", "members": [f"t{i}m{s}" for s in range(seats)]}
        return f"solo{i}"
    run = Run(seed)
    create(run, format=format, entrants=[team(i) for i in range(n)], seats=seats, game="mass-transit",
           table_size=size, **({"rounds": 3} if format == "swiss" else {}))
    play_out(run, Rng.derive(seed, 5), results=teams)
    check_record(run)
    opened = [e for e in run.events if type(e).__name__ == "TableOpened"]
    assert all(len(e.entrants) == 1 for e in opened), "one match per team"
