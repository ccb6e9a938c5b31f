"""What a seat may ask for on its turn: place a card, discard one to move a Commuter, or end the turn."""

from __future__ import annotations

from domain.engine import Command


class PlaceCard(Command, frozen=True, tag="mass-transit.place-card"):
    """Seed, Gameplay 1: add `card` at the open end of route `route` (0-5, one per Big City edge)."""

    card: str
    route: int


class DiscardCard(Command, frozen=True, tag="mass-transit.discard-card"):
    """Seed, Gameplay 2: discard `card` to move Commuter `commuter` (the one bound to route `commuter`)."""

    card: str
    commuter: int


class EndTurn(Command, frozen=True, tag="mass-transit.end-turn"):
    """Seed, Ending Your Turn: after 2-4 cards, draw back up to four."""


COMMANDS: tuple[type[Command], ...] = (PlaceCard, DiscardCard, EndTurn)
