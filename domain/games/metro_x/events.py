"""Metro X events: set-up, card flips, sealed submissions, turn resolutions and the final scoring."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.engine import Event

Action = Literal["route", "transfer", "free", "pass"]
Bonus = Literal["gold", "white"]


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's submitted marking for the current card, sealed from the others until the turn resolves.

    `key` is a unique token ("mx-pending:<turn>:<seat>:...") naming this exact choice: it is what
    `hidden_from` reports for other seats, so a leak of the sealed choice is detectable.
    """

    action: Action
    route: str = ""
    stations: int = 0
    write_number: bool = False
    station: str = ""
    key: str = ""


class Marking(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat wrote when the turn resolved: a window mark ("3", "X" or none) and the stations filled."""

    seat: int
    action: Action
    route: str = ""
    window: str = ""
    crossed: tuple[str, ...] = ()
    transfer_station: str = ""
    transfer_value: int = 0


class Completion(msgspec.Struct, frozen=True, kw_only=True):
    """A route completed by a seat this turn, announced with the bonus it circles."""

    seat: int
    route: str
    bonus: Bonus
    points: int


class SeatScore(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's score sheet: Completed + Transfers - the empty-stations penalty."""

    seat: int
    completed: int
    transfers: int
    empty: int
    penalty: int
    total: int


class SetUp(Event, frozen=True, tag="metro-x.set-up"):
    """The chosen map and the number of seats; every sheet starts blank."""

    map: str
    seats: int


class CardFlipped(Event, frozen=True, tag="metro-x.card-flipped"):
    """The top Transit card is revealed for turn `turn` (drawn at random from the undiscarded cards)."""

    turn: int
    card: str


class DeckReshuffled(Event, frozen=True, tag="metro-x.deck-reshuffled"):
    """After a Re-Shuffle turn, all 15 cards (discards and the Re-Shuffle card) form the deck again."""

    cards: int = 15


class MarkingSubmitted(Event, frozen=True, tag="metro-x.marking-submitted"):
    """A seat sealed its marking for this turn. Other seats and spectators see it with `choice=None`."""

    seat: int
    turn: int
    choice: Choice | None = None


class TurnResolved(Event, frozen=True, tag="metro-x.turn-resolved"):
    """Every seat has submitted: all markings are revealed and written, completions announced."""

    turn: int
    card: str
    markings: tuple[Marking, ...]
    completions: tuple[Completion, ...] = ()


class GameScored(Event, frozen=True, tag="metro-x.game-scored"):
    """All Train Car Windows are filled: the final score sheets (and the solo rating when playing alone)."""

    scores: tuple[SeatScore, ...]
    solo_rating: str = ""


EVENTS: tuple[type[Event], ...] = (SetUp, CardFlipped, DeckReshuffled, MarkingSubmitted, TurnResolved, GameScored)
