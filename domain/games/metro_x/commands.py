"""Metro X commands: what a seat writes on its own sheet for the flipped Transit card."""

from __future__ import annotations

from domain.engine import Command


class MarkRoute(Command, frozen=True, tag="metro-x.mark-route"):
    """Number, Skip or Re-Shuffle card: write the number in an empty window of `route`, cross `stations` stations.

    `stations` may be fewer than the card allows, down to 0 (Rules, "You may always choose to cross off fewer").
    """

    route: str
    stations: int


class MarkTransfer(Command, frozen=True, tag="metro-x.mark-transfer"):
    """Transfer card: an X in an empty window of `route`; write the transfer number at its first empty station.

    `write_number=False` writes only the X (reading 13).
    """

    route: str
    write_number: bool = True


class MarkFreeSpace(Command, frozen=True, tag="metro-x.mark-free-space"):
    """Free Space card: cross off any one empty station anywhere, filling no window."""

    station: str


class Pass(Command, frozen=True, tag="metro-x.pass"):
    """Free Space card only: cross off nothing (the card allows one station; fewer is always allowed)."""


COMMANDS: tuple[type[Command], ...] = (MarkRoute, MarkTransfer, MarkFreeSpace, Pass)
