"""The opening of a match (seed, Setup): the shuffle, the deal and each seat's Suburbs mulligan, in one event."""

from __future__ import annotations

from collections.abc import Sequence

from domain.engine import Event, Refusal
from domain.games.mass_transit.components import CARDS, DECK_IDS, HAND_SIZE
from domain.games.mass_transit.events import Dealt, Mulligan
from domain.games.mass_transit.options import Options
from domain.games.mass_transit.rules import loss_check
from domain.games.mass_transit.state import evolve
from domain.rng import Rng


def suburbs_count(cards: Sequence[str]) -> int:
    """How many Suburbs cards are among `cards`."""
    return sum(CARDS[c].is_suburbs for c in cards)


def deal(order: Sequence[str], seats: int, rng: Rng, first_seat: int = 0) -> Dealt:
    """Seed, Setup: four cards each from the shuffled `order`, then each seat's Suburbs mulligan in seat order.

    A hand with three or more Suburbs cards is set aside, four new cards are drawn, and the set-aside cards are
    shuffled back into the draw pile; reading 9: repeat while the new hand has 3+ Suburbs too.
    """
    hands = [tuple(order[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(seats)]
    pile = tuple(order[HAND_SIZE * seats :])
    mulligans: list[Mulligan] = []
    for seat in range(seats):
        while suburbs_count(hands[seat]) >= 3:
            set_aside = hands[seat]
            hands[seat], pile = pile[:HAND_SIZE], rng.shuffled((*pile[HAND_SIZE:], *set_aside))
            mulligans.append(Mulligan(seat=seat, set_aside=set_aside, count=len(set_aside)))
    return Dealt(
        hands=tuple(hands),
        deck=pile,
        first_seat=first_seat,
        mulligans=tuple(mulligans),
        hand_sizes=tuple(len(h) for h in hands),
        deck_size=len(pile),
    )


def start(options: Options, seats: int, rng: Rng) -> list[Event]:
    """Shuffle the 52 cards, deal with the mulligan; the first seat is an option (reading 16)."""
    if not 0 <= options.first_seat < seats:
        raise Refusal("bad-options", f"first_seat must be a seat from 0 to {seats - 1}")
    dealt = deal(rng.shuffled(DECK_IDS), seats, rng, options.first_seat)
    return [dealt, *loss_check(evolve(None, dealt))]
