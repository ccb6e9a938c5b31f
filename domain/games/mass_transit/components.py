"""The 52 Mass Transit cards, typed, from `data.toml` (ids MT01..MT52 in data order)."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.data import load_data

Move = Literal["walk", "bus", "ferry", "train", "null"]
Feature = Literal["plain", "station", "traffic", "station_deadend", "none"]
Line = Literal["road", "canal", "rail"]

LINES: tuple[Line, ...] = ("road", "canal", "rail")
# geekdad: grey = bus on the road, blue = ferry on the canal, red = train on the rail.
LINE_OF: dict[str, Line] = {"bus": "road", "ferry": "canal", "train": "rail"}
VEHICLES: tuple[str, ...] = ("bus", "ferry", "train")
# Features a vehicle stops at: a Station (also one where the line dead-ends) or a Traffic Stop.
STOPS: frozenset[str] = frozenset({"station", "station_deadend", "traffic"})


class Face(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a card shows: its movement icon, the feature of each line, Urgent, and a Suburbs distance (0: none)."""

    move: Move
    road: Feature
    canal: Feature
    rail: Feature
    urgent: bool = False
    suburbs: int = 0


class CardGroup(Face, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """`n` identical cards as listed in the data file."""

    n: int


class DeckData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole data file."""

    status: str
    hand_size: int
    min_cards_per_turn: int
    routes: int
    cards: tuple[CardGroup, ...]


class Card(Face, frozen=True, kw_only=True):
    """One physical card with its unique id."""

    id: str

    def feature(self, line: str) -> Feature:
        """What `line` (road, canal, rail) shows on this card."""
        return {"road": self.road, "canal": self.canal, "rail": self.rail}[line]

    @property
    def is_suburbs(self) -> bool:
        """A Suburbs card: the end of a route, home of one Commuter."""
        return self.suburbs > 0

    @property
    def discardable(self) -> bool:
        """Null cards never move a Commuter (seed, Null); Suburbs cards are never discarded (reading 15)."""
        return self.move != "null" and not self.is_suburbs

    @property
    def has_traffic(self) -> bool:
        """The card shows a Traffic Stop on some line (a walker arriving here lies flat)."""
        return "traffic" in (self.road, self.canal, self.rail)


DATA: DeckData = load_data("domain.games.mass_transit", "data.toml", DeckData)
HAND_SIZE = DATA.hand_size
MIN_PLAYS = DATA.min_cards_per_turn
ROUTES = DATA.routes


def _expand(groups: tuple[CardGroup, ...]) -> tuple[Card, ...]:
    flat = [group for group in groups for _ in range(group.n)]
    return tuple(
        Card(id=f"MT{i:02d}", move=g.move, road=g.road, canal=g.canal, rail=g.rail, urgent=g.urgent, suburbs=g.suburbs)
        for i, g in enumerate(flat, 1)
    )


DECK: tuple[Card, ...] = _expand(DATA.cards)
CARDS: dict[str, Card] = {card.id: card for card in DECK}
DECK_IDS: tuple[str, ...] = tuple(card.id for card in DECK)

