"""The Mass Transit `Game` record: cooperative, 1-6 seats, hidden hands."""

from __future__ import annotations

from domain.engine import Game, Outcome, SeatResult
from domain.games.mass_transit.cards import ROUTES
from domain.games.mass_transit.commands import COMMANDS, Options
from domain.games.mass_transit.events import EVENTS
from domain.games.mass_transit.render import render
from domain.games.mass_transit.rules import decide, legal, start, to_move
from domain.games.mass_transit.state import MassTransitState, evolve
from domain.games.mass_transit.visibility import hidden_from, redact, scramble, view


def scores(state: MassTransitState) -> list[float]:
    """Every seat shares the team's score: the number of Commuters home."""
    return [float(state.home)] * state.seats


def outcome(state: MassTransitState) -> Outcome | None:
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


GAME: Game[MassTransitState] = Game(
    slug="mass-transit",
    title="Mass Transit",
    min_seats=1,
    max_seats=6,
    options_type=Options,
    command_types=COMMANDS,
    event_types=EVENTS,
    cooperative=True,
    default_data=(
        "data.toml cards: the 52-card list is fan-transcribed (conor-mcavoy/mass-transit@4e8fba9) and "
        "unverified against a physical copy",
    ),
    deviations=(
        "each Commuter is bound to the route of its Big City edge (readings 3, 13)",
        "a turn is several place/discard commands closed by an explicit end-turn command that draws back to four",
        "the first player is the first_seat option, default seat 0 (reading 16)",
        "the communication rule is social and not enforced (reading 11)",
        "a player whose own plays leave them unable to reach two cards this turn loses at once (seed, Losing)",
    ),
    rules_version="1",
    sample_setups=tuple((seats, {}) for seats in (2, 1, 4, 6)),
    start=start,
    evolve=evolve,
    decide=decide,
    legal=legal,
    to_move=to_move,
    view=view,
    redact=redact,
    outcome=outcome,
    scores=scores,
    hidden_from=hidden_from,
    scramble=scramble,
    render=render,
)
