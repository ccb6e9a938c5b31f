"""Where a discard moves a Commuter: Walk one card on, or ride a vehicle to its next stop (seed, Stations)."""

from __future__ import annotations

from typing import NamedTuple

from domain.engine import Refusal
from domain.games.mass_transit.components import CARDS, LINE_OF, STOPS
from domain.games.mass_transit.state import BIG_CITY, Commuter


class Step(NamedTuple):
    """The result of a legal movement: the card reached, how the Commuter may leave it, home or not."""

    to_pos: int
    held: str
    home: bool


def stuck(vehicle: str) -> Refusal:
    """Seed, Traffic Stops: "Commuters cannot get out of a vehicle and walk if they are stuck in traffic!"."""
    return Refusal("stuck-in-traffic", f"this Commuter is stuck in traffic in a {vehicle}: only a {vehicle} moves it")


def walk(route: tuple[str, ...], rider: Commuter) -> Step:
    """Seed, Walk: one card on along the route, from the Big City or anywhere but a Traffic Stop reached by vehicle.

    Reading 1: a walker may start from any card, not only a Station. Reading 2/14: walking onto a card that shows
    a Traffic Stop on any line lays the Commuter flat (it leaves only by Walk).
    """
    if rider.held and rider.held != "walk":
        raise stuck(rider.held)
    to = rider.pos + 1
    if to >= len(route):
        where = "the Big City" if rider.pos == BIG_CITY else "this card"
        raise Refusal("no-next-card", f"no card follows {where} on this route yet")
    arrived = CARDS[route[to]]
    return Step(to, "walk" if arrived.has_traffic else "", arrived.is_suburbs)


def ride(route: tuple[str, ...], rider: Commuter, vehicle: str) -> Step:
    """Seed, Bus/Ferry/Train: from a matching Station to the next matching Station or Traffic Stop on that line.

    Readings 4 and 14: a Commuter stuck at a Traffic Stop leaves only by the vehicle it rode in; one that walked
    onto a Traffic Stop card leaves only by Walk; a line that dead-ends here cannot be departed by vehicle.
    """
    if rider.pos == BIG_CITY:
        raise Refusal("must-walk-out-of-city", "Commuters begin their trek home with a Walk out of the Big City")
    if rider.held == "walk":
        raise Refusal("must-walk-on", "this Commuter walked onto a Traffic Stop card: only a Walk moves it on")
    if rider.held and rider.held != vehicle:
        raise stuck(rider.held)
    line = LINE_OF[vehicle]
    here = CARDS[route[rider.pos]].feature(line)
    if here == "station_deadend":
        raise Refusal("dead-end", f"the {line} line dead-ends on this card: walk to the next card first")
    if here != "station" and not (here == "traffic" and rider.held == vehicle):
        raise Refusal("no-matching-station", f"there is no {vehicle} station on this Commuter's card")
    for to in range(rider.pos + 1, len(route)):
        arrived = CARDS[route[to]]
        feature = arrived.feature(line)
        if feature in STOPS:
            return Step(to, vehicle if feature == "traffic" else "", arrived.is_suburbs)
    raise Refusal("no-station-ahead", f"no {vehicle} station or Traffic Stop lies ahead on the {line} line yet")


def move(route: tuple[str, ...], rider: Commuter, by: str) -> Step:
    """Walk or ride, or a refusal saying why not."""
    if rider.home:
        raise Refusal("commuter-home", "this Commuter is already home in the Suburbs")
    return walk(route, rider) if by == "walk" else ride(route, rider, by)
