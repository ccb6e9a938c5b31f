"""Small Mass Transit tables for rule tests: find cards by their faces, lay out a table by hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.games.mass_transit.components import DECK
from domain.games.mass_transit.state import Commuter, State


def cards(n: int = 1, **face: object) -> list[str]:
    """The ids of `n` distinct cards whose faces match every given attribute (move, road, urgent, suburbs, ...)."""
    found = [c.id for c in DECK if all(getattr(c, key) == value for key, value in face.items())]
    assert len(found) >= n, f"the deck has only {len(found)} cards like {face}"
    return found[:n]


def card(**face: object) -> str:
    """The id of the first card whose face matches."""
    return cards(1, **face)[0]


# Faces used again and again (seed, Stations; rules/mass-transit.md data).
BUS_STOP = dict(move="bus", road="station", canal="plain", rail="plain", urgent=False)
FERRY_STOP = dict(move="ferry", road="plain", canal="station", rail="plain", urgent=False)
TRAIN_STOP = dict(move="train", road="plain", canal="plain", rail="station", urgent=False)
TRAIN_PLAIN = dict(move="train", road="plain", canal="plain", rail="plain")
FERRY_PLAIN = dict(move="ferry", road="plain", canal="plain", rail="plain")
WALK_PLAIN = dict(move="walk", road="plain", canal="plain", rail="plain")
NULL_PLAIN_ROAD = dict(move="null", road="plain", canal="station_deadend", rail="station_deadend")


def table(
    *,
    hands: Iterable[Iterable[str]] = ((),),
    deck: Iterable[str] = (),
    routes: Mapping[int, Iterable[str]] | None = None,
    commuters: Mapping[int, Commuter] | None = None,
    active: int = 0,
    played: int = 0,
    discards: Iterable[str] = (),
) -> State:
    """A table laid out by hand: unnamed routes are empty, unnamed Commuters wait in the Big City."""
    routes = routes or {}
    commuters = commuters or {}
    return State(
        hands=tuple(tuple(h) for h in hands),
        deck=tuple(deck),
        discards=tuple(discards),
        routes=tuple(tuple(routes.get(r, ())) for r in range(6)),
        commuters=tuple(commuters.get(r, Commuter()) for r in range(6)),
        active=active,
        played=played,
    )


# Two ordinary Null cards kept in a hand so that a test's turn does not end in a loss (seed, Losing the Game).
SPARE: list[str] = cards(6, move="null", urgent=False)[-2:]
