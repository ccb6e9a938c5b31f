"""The opening of a match (rulebook, Setup): every random outcome is written into the set-up events."""

from __future__ import annotations

from domain.engine import Event
from domain.games.expect_delays.components import ADVISORIES, SETUP, TRAIN_CARDS
from domain.games.expect_delays.events import AdvisoryDeckShuffled, CardsDrawn, GameSetUp, TrainDeckShuffled
from domain.games.expect_delays.options import Options
from domain.rng import Rng


def start(options: Options, seat_count: int, rng: Rng) -> list[Event]:
    """Rulebook Setup: shuffle the Train deck, deal 3 to each seat, shuffle the advisory deck face up.

    Reading 3: no advisory is in effect at the start; the first in-game reshuffle reveals one.
    """
    deck = rng.shuffled(tuple(TRAIN_CARDS))
    advisories = rng.shuffled(tuple(ADVISORIES))
    hand = SETUP.hand_size
    return [
        GameSetUp(seats=seat_count, max_turns=options.max_turns),
        TrainDeckShuffled(order=deck, size=len(deck)),
        AdvisoryDeckShuffled(order=advisories, size=len(advisories)),
        *(
            CardsDrawn(seat=seat, cards=deck[seat * hand : (seat + 1) * hand], count=hand)
            for seat in range(seat_count)
        ),
    ]
