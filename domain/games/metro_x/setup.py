"""The opening of a match (Rules, Set-up): blank sheets on the chosen map and the first card flipped."""

from __future__ import annotations

from domain.engine import Event
from domain.games.metro_x.components import DECK
from domain.games.metro_x.events import CardFlipped, SetUp
from domain.games.metro_x.options import Options
from domain.rng import Rng


def start(options: Options, seats: int, rng: Rng) -> list[Event]:
    """Set-up: blank sheets on the chosen map, a shuffled deck, and the first card flipped (a recorded draw)."""
    return [SetUp(map=options.map, seats=seats), CardFlipped(turn=1, card=rng.choice(DECK))]
