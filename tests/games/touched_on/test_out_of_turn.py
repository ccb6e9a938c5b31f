"""Out-of-turn actions in random play: Appeals answer inspections and forgotten Exp is claimed by the next
player, in explicit response windows; while a window is open only the awaited seat may act."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain import match
from domain.engine import Command, Event, Refusal
from domain.games.touched_on import GAME
from domain.games.touched_on.commands import Appeal, ClaimExp, EndTurn, Pass
from domain.match import MatchState
from domain.playout import play
from domain.rng import Rng


class WindowWatcher:
    """Before each move: if a window is open, check who may act and that the others are refused."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.seen: Counter[str] = Counter()

    def __call__(self, state: MatchState, seat: int, command: Command, events: list[Event]) -> None:
        game_state: Any = state.game_state
        window = game_state.window
        if window is None:
            return
        responder = window.seats[0]
        assert match.to_move(GAME, state) == [responder] and seat == responder
        assert seat != game_state.turn_seat  # out of turn: the turn belongs to the inspector or has ended
        self.seen[f"{window.kind}:{type(command).__name__}"] += 1
        for other in range(self.seats):
            if other == responder:
                continue
            assert match.legal(GAME, state, other) == []
            for attempt in (Pass(), Appeal(), ClaimExp(), EndTurn()):
                with pytest.raises(Refusal) as refused:
                    match.decide(GAME, state, other, attempt, Rng.derive("x", state.version))
                assert refused.value.code in {"not-your-turn", "awaiting-response"}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_out_of_turn_answers_occur_in_random_play_and_are_checked(seats: int) -> None:
    """Random play reaches both windows, and each kind of answer (Appeal, claim, pass) is accepted from the
    awaited seat only; an appeal comes from a seat whose turn it is not."""
    watcher = WindowWatcher(seats)
    for n in range(6):
        played = play(GAME, seats, {}, seed=f"out-of-turn-{seats}-{n}", on_step=watcher)
        assert played.state is not None and played.state.finished
    for kind in ("appeal:Appeal", "appeal:Pass", "claim:ClaimExp", "claim:Pass"):
        assert watcher.seen[kind] > 0, (kind, watcher.seen)
