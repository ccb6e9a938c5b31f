"""How the team stands and how a match ends (seed, Winning the Game, Losing the Game): one shared result."""

from __future__ import annotations

from domain.engine import Outcome, SeatResult
from domain.games.mass_transit.components import ROUTES
from domain.games.mass_transit.state import State


def scores(state: State) -> list[float]:
    """Every seat shares the team's score: the number of Commuters home."""
    return [float(state.home)] * state.seats


def outcome(state: State) -> Outcome | None:
    """Seed, Winning / Losing the Game: one shared result; the turns used are written in the reason."""
    if not state.over:
        return None
    if state.won:
        reason = f"team-won: all {ROUTES} Commuters home in {state.turn} turns"
    else:
        reason = (
            f"team-lost: seat {state.lost_by} could not play two cards; "
            f"{state.home} of {ROUTES} Commuters home in {state.turn} turns"
        )
    results = tuple(
        SeatResult(seat=s, rank=1, score=float(state.home), winner=state.won) for s in range(state.seats)
    )
    return Outcome(reason=reason, results=results, cooperative=True, team_won=state.won)
