"""What a missed deadline does, per game, decided by the match wrapper (domain/match.py) with no clock."""

from __future__ import annotations

from typing import Any

import pytest

from domain import match
from domain.catalog import GAMES
from domain.engine import Game, Refusal
from domain.games.metro_x import GAME as METRO_X
from domain.lifecycle import MatchEnded, SeatResigned, TimedOut, TimeOut
from domain.match import MatchState
from domain.rng import Rng
from tests.games.metro_x.tables import table, with_card

RNG = Rng.derive("timeouts", 1)


def wrapped(game_state: object, seats: int, **options: int) -> MatchState:
    """A started Metro X match at this table, with these match options."""
    return MatchState(game="metro-x", players=tuple(f"p{i}" for i in range(seats)), options=dict(options), version=3,
                      game_state=game_state, since=(2,) * seats)


def test_metro_x_plays_the_pass_for_a_seat_that_misses_a_free_space_card() -> None:
    """Metro X, Free Space card ("you may cross off fewer"): the timed-out seat crosses nothing, the match goes on
    (the game's `idle` command, its pass)."""
    state = wrapped(with_card(table(seats=2), "FS-1"), 2, move_deadline=60)
    events = match.decide(METRO_X, state, None, TimeOut(seat=1), RNG)
    expected = METRO_X.decide(state.game_state, 1, METRO_X.idle[0](), RNG)
    assert events == [TimedOut(seat=1), *expected]
    assert not match.fold(METRO_X, events, state).finished


def test_metro_x_resigns_a_seat_that_misses_any_other_card() -> None:
    """On a number card every move marks a window: no move marks nothing, so the seat resigns."""
    state = wrapped(table(seats=2), 2, move_deadline=60)
    events = match.decide(METRO_X, state, None, TimeOut(seat=0), RNG)
    assert events[:2] == [TimedOut(seat=0), SeatResigned(seat=0)]
    ended = events[2]
    assert isinstance(ended, MatchEnded) and ended.reason == "timed-out"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
def test_a_timeout_needs_a_deadline_and_a_seat_to_move(game: Game[Any]) -> None:
    """Every game: no `move_deadline`, or a seat not to move, is refused (and the seats' clocks only run with one)."""
    seats = min(max(game.min_seats, 2), game.max_seats)
    plain = match.fold(game, match.open_match(game, [f"p{i}" for i in range(seats)], None, "s"))
    with pytest.raises(Refusal) as refused:
        match.decide(game, plain, None, TimeOut(seat=0), RNG)
    assert refused.value.code == "no-deadline" and plain.since == ()
    timed = match.fold(game, match.open_match(game, [f"p{i}" for i in range(seats)], {"move_deadline": 5}, "s"))
    idle = [s for s in range(seats) if s not in match.to_move(game, timed)]
    assert all(timed.since[s] == 0 for s in idle)
    assert all(timed.since[s] > 0 for s in match.to_move(game, timed))
    for seat in idle:
        with pytest.raises(Refusal) as refused:
            match.decide(game, timed, None, TimeOut(seat=seat), RNG)
        assert refused.value.code == "not-to-move"
