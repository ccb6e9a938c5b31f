"""The Touched On game record."""

from __future__ import annotations

from domain.engine import Game
from domain.games.touched_on.commands import COMMANDS
from domain.games.touched_on.decide import decide
from domain.games.touched_on.events import EVENTS
from domain.games.touched_on.render import render
from domain.games.touched_on.rules import legal, to_move
from domain.games.touched_on.scoring import outcome, scores
from domain.games.touched_on.setup import Options, start
from domain.games.touched_on.state import State, evolve
from domain.games.touched_on.visibility import hidden_from, redact, scramble, view

GAME: Game[State] = Game(
    slug="touched-on",
    title="Touched On",
    min_seats=2,
    max_seats=4,
    options_type=Options,
    command_types=COMMANDS,
    event_types=EVENTS,
    state_type=State,
    default_data=(
        "Line names and colours (L1 red tram .. L4 blue bus)",
        "Exp card values 1,1,1,1,2,2,2,2,3,3,3,3",
        "Power card mix per player count",
        "Power effects of Appeal, Feet On Seat, Peak Hour and Tram Tracker",
        "Free Tram Zone = L1 (no Inspector cards there; Feet On Seat may)",
    ),
    deviations=(
        "Reading 17: the player who last added Evaders to the inspected carriage takes them (not 'the previous "
        "player'); only another player's carriage may be inspected",
        "Engine limits: max_turns_per_journey and max_journeys end play the rulebook would let run on",
    ),
    rules_version="1",
    sample_setups=((2, {}), (3, {}), (4, {})),
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
