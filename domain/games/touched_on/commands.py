"""What a seat may ask: plays in its turn, and answers in a response window (`appeal`, `claim-exp`, `pass`)."""

from __future__ import annotations

from typing import Literal

from domain.engine import Command


class PlayEvaders(Command, frozen=True, tag="touched-on.play-evaders"):
    """Play `count` Evaders of `line` (all of one line), optionally with a Priority Seat (wild, counts)."""

    line: str
    count: int
    priority_seat: bool = False


class Inspect(Command, frozen=True, tag="touched-on.inspect"):
    """Play an Inspector onto the most recent carriage: the Authorised one of its line, or an Undercover."""

    inspector: Literal["authorised", "undercover"]


class FeetOnSeat(Command, frozen=True, tag="touched-on.feet-on-seat"):
    """Power: inspect the most recent carriage as an Undercover Inspector would (also in the Free Tram Zone)."""


class PeakHour(Command, frozen=True, tag="touched-on.peak-hour"):
    """Power: until your next turn, the others may only play Evaders on the current line."""


class TramTracker(Command, frozen=True, tag="touched-on.tram-tracker"):
    """Power: take a card unseen from `target`'s fanned hand, then give them one of yours."""

    target: int


class GiveCard(Command, frozen=True, tag="touched-on.give-card"):
    """The second half of Tram Tracker: the card you give back."""

    card: str


class Draw(Command, frozen=True, tag="touched-on.draw"):
    """Take the top card of the draw pile (only when you hold no playable card)."""


class EndTurn(Command, frozen=True, tag="touched-on.end-turn"):
    """End your turn (after playing a card, or when you may neither play nor draw)."""


class ClaimExp(Command, frozen=True, tag="touched-on.claim-exp"):
    """Take the Exp unlocked by the 9th Evader: yours in your turn, or the one the previous player forgot."""


class Appeal(Command, frozen=True, tag="touched-on.appeal"):
    """Power, out of turn: answer an inspection of your carriage; the inspector takes the Evaders instead."""


class Pass(Command, frozen=True, tag="touched-on.pass"):
    """Decline to answer in a response window (no Appeal; leave the forgotten Exp)."""


COMMANDS = (
    PlayEvaders, Inspect, FeetOnSeat, PeakHour, TramTracker, GiveCard, Draw, EndTurn, ClaimExp, Appeal, Pass,
)
