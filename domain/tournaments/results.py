"""From a match's end to a tournament result: the one mapping the service records and the verifier re-checks.

A table's match seats its entrants in the table's seat order (cooperative: a team's match, every seat the team's).
Each seat's `SeatResult` gives the entrant's rank and score; a seat that resigned forfeits (`resignation`, or
`deadline` when the match ended `timed-out`); a match that ended with no results (`abandoned`, `cancelled`) is
forfeited by every entrant in it (`deadline`). A cooperative team's result is the game's shared one: `won`, the
score (Mass Transit: Commuters home) and `turns`, which the service reads from the match's final state.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain import bots
from domain.lifecycle import MatchEnded
from domain.tournaments.events import Entrant, EntrantResult
from domain.tournaments.state import TournamentState


def forfeit_of(ended: MatchEnded, seat: int, resigned: Sequence[int]) -> str | None:
    """How `seat` forfeited its match, if it did."""
    if not ended.results:
        return "deadline"
    if ended.reason == "timed-out" and (ended.cooperative or seat in resigned):
        return "deadline"
    if ended.reason == "resigned" and (ended.cooperative or seat in resigned):
        return "resignation"
    return None


def entrant_results(seated: Sequence[int], ended: MatchEnded, resigned: Sequence[int] = (),
                    turns: int | None = None) -> tuple[EntrantResult, ...]:
    """The results to record for a finished match: `seated[s]` is the entrant at seat s (competitive), or the one
    team playing every seat (cooperative: `seated` holds that team alone)."""
    if ended.cooperative or len(seated) == 1:
        score = ended.results[0].score if ended.results else 0.0
        return (EntrantResult(entrant=seated[0], won=bool(ended.team_won), score=score, turns=turns,
                              forfeit=forfeit_of(ended, 0, resigned)),)
    if not ended.results:
        return tuple(EntrantResult(entrant=e, rank=len(seated), forfeit="deadline") for e in seated)
    by_seat = {r.seat: r for r in ended.results}
    return tuple(EntrantResult(entrant=e, rank=by_seat[s].rank, score=by_seat[s].score,
                               forfeit=forfeit_of(ended, s, resigned)) for s, e in enumerate(seated))


def players_of(state: TournamentState, seated: Sequence[int], *, named: bool = True) -> list[str]:
    """The match's players: each entrant of a competitive table in seat order, or every seat of one team's match.
    A bot entrant's seat carries its name (`bot:random:r1`); `named=False` gives the seating of records written
    before seats did (`bot:random`), which keep verifying."""
    def player(entrant: Entrant) -> str:
        if entrant.bot is not None:
            return bots.player(entrant.bot, entrant.name if named else None)
        return str(entrant.handle)

    if state.created.cooperative:
        team = state.entrants[seated[0]]
        return list(team.members) if team.members else [player(team)] * state.created.seats
    return [player(state.entrants[e]) for e in seated]
