"""The facts of a Mass Transit match. Card ids in `Dealt` and `TurnEnded.drawn` are hidden zones (see visibility)."""

from __future__ import annotations

import msgspec

from domain.engine import Event


class Mulligan(msgspec.Struct, frozen=True, kw_only=True):
    """A seat set aside an opening hand with 3+ Suburbs cards and drew four new ones (seed, Setup)."""

    seat: int
    set_aside: tuple[str, ...] = ()
    count: int = 0


class Dealt(Event, frozen=True, tag="mass-transit.dealt"):
    """Set-up: each seat's opening hand, the draw pile top first, the mulligans taken and who starts."""

    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    first_seat: int = 0
    mulligans: tuple[Mulligan, ...] = ()
    hand_sizes: tuple[int, ...] = ()
    deck_size: int = 0


class CardPlaced(Event, frozen=True, tag="mass-transit.card-placed"):
    """A card was added at the open end of a route (it is public from now on)."""

    seat: int
    card: str
    route: int
    position: int


class CommuterMoved(Event, frozen=True, tag="mass-transit.commuter-moved"):
    """A card was discarded and a Commuter moved along its route to card `to_pos` (`by` walk or a vehicle).

    `held` is how it may leave: "" freely, "walk" (walked onto a Traffic Stop card: walk only), or a vehicle
    (rode into that vehicle's Traffic Stop: that vehicle only). `home`: it reached its Suburbs card.
    """

    seat: int
    card: str
    commuter: int
    by: str
    from_pos: int
    to_pos: int
    held: str = ""
    home: bool = False


class TurnEnded(Event, frozen=True, tag="mass-transit.turn-ended"):
    """A seat ended its turn and drew back up to four (`drawn` is private to that seat)."""

    seat: int
    drawn: tuple[str, ...] = ()
    drawn_count: int = 0
    next_seat: int = 0


class TeamLost(Event, frozen=True, tag="mass-transit.team-lost"):
    """Seed, Losing the Game: `seat` cannot play at least two cards this turn, so the team loses."""

    seat: int
    hand_size: int = 0


EVENTS: tuple[type[Event], ...] = (Dealt, CardPlaced, CommuterMoved, TurnEnded, TeamLost)
