"""Metro X scoring: Completed + Transfers - the empty-stations penalty; ties go to fewer empty stations."""

from __future__ import annotations

from collections.abc import Sequence

from domain.engine import Outcome, ranked_results
from domain.games.metro_x.components import Board, empty_penalty
from domain.games.metro_x.events import SeatScore
from domain.games.metro_x.state import CROSSED, Sheet, State

END_REASON = "all-windows-filled"


def seat_score(board: Board, sheet: Sheet, seat: int) -> SeatScore:
    """Rules, End of the Game: the three boxes of the score sheet and the total."""
    completed = sum(
        route.gold if bonus == "gold" else route.white
        for route, bonus in zip(board.routes, sheet.completed, strict=True)
        if bonus
    )
    transfers = sum(int(mark) for mark in sheet.stations if mark and mark != CROSSED)
    empty = sum(1 for mark in sheet.stations if not mark)
    penalty = empty_penalty(empty)
    return SeatScore(
        seat=seat, completed=completed, transfers=transfers, empty=empty, penalty=penalty,
        total=completed + transfers - penalty,
    )


def score_sheets(state: State) -> tuple[SeatScore, ...]:
    """Every seat's score as its sheet stands now (the final sheet once the game is scored)."""
    if state.final:
        return state.final
    return tuple(seat_score(state.board, sheet, seat) for seat, sheet in enumerate(state.sheets))


def scores(state: State) -> Sequence[float]:
    """Each seat's current total."""
    return [float(score.total) for score in score_sheets(state)]


def outcome(state: State) -> Outcome | None:
    """Once scored: most points wins; ties go to the fewest empty stations, then stay shared (reading 10)."""
    if not state.final:
        return None
    keys = [(score.total, -score.empty) for score in state.final]
    return Outcome(reason=END_REASON, results=ranked_results(keys, [score.total for score in state.final]))
