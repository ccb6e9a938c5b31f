"""The Metro X game record."""

from __future__ import annotations

from domain.engine import Game
from domain.games.metro_x.commands import COMMAND_TYPES
from domain.games.metro_x.events import EVENT_TYPES
from domain.games.metro_x.options import MetroXOptions
from domain.games.metro_x.render import render
from domain.games.metro_x.rules import decide, legal, start, to_move
from domain.games.metro_x.scoring import outcome, scores
from domain.games.metro_x.state import MetroXState, evolve
from domain.games.metro_x.visibility import hidden_from, redact, scramble, view

GAME: Game[MetroXState] = Game(
    slug="metro-x",
    title="Metro X",
    min_seats=1,
    max_seats=6,
    options_type=MetroXOptions,
    command_types=COMMAND_TYPES,
    event_types=EVENT_TYPES,
    default_data=("solo_rating: invented solo score bands (the printed table was lost)",),
    deviations=(),
    rules_version="1",
    sample_setups=((2, {"map": "tube-town"}), (1, {"map": "metro-city"}), (6, {"map": "metro-city"})),
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
