"""The facts of an Expect Delays match. Every shuffle and draw is written here, so a replay never re-rolls.

Private fields (a deck's order, the cards someone drew) are emptied by `visibility.redact` for the
seats that may not see them; the `size` / `count` fields stay, so every seat can still fold the table.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.engine import Event

ActionName = Literal[
    "board", "disembark", "repair", "run-the-line", "take-out-of-service", "use-service-advisory"
]
EndReason = Literal["ten-points", "subway-broken-down", "turn-limit"]


class GameSetUp(Event, frozen=True, tag="expect-delays.game-set-up"):
    """The empty table: Commuters in pools, starting Fare Swipes, Platform supply; Uptown to act."""

    seats: int
    max_turns: int


class TrainDeckShuffled(Event, frozen=True, tag="expect-delays.train-deck-shuffled"):
    """The Discard pile and the rest of the Train deck became a new face-down deck, top card first."""

    order: tuple[str, ...] = ()
    size: int = 0


class AdvisoryDeckShuffled(Event, frozen=True, tag="expect-delays.advisory-deck-shuffled"):
    """The advisory discards became a new face-up advisory deck; `order[0]` is the readable next card."""

    order: tuple[str, ...] = ()
    size: int = 0


class CardsDrawn(Event, frozen=True, tag="expect-delays.cards-drawn"):
    """A seat drew the top `count` Train cards into its hand (`cards` only for that seat)."""

    seat: int
    cards: tuple[str, ...] = ()
    count: int = 0


class ActionTaken(Event, frozen=True, tag="expect-delays.action-taken"):
    """A seat spent one action of its Action Phase; the action's effects follow."""

    seat: int
    action: ActionName


class CommuterBoarded(Event, frozen=True, tag="expect-delays.commuter-boarded"):
    """A Commuter left its seat's pool for the 0 stop of `line`; `fare_paid` swipes went to the Platform."""

    seat: int
    line: str
    fare_paid: int


class CommuterDisembarked(Event, frozen=True, tag="expect-delays.commuter-disembarked"):
    """A Commuter left `stop` of `line` for its seat's pool, scoring `points` Destination Points."""

    seat: int
    line: str
    stop: int
    points: int


class TouristBoarded(Event, frozen=True, tag="expect-delays.tourist-boarded"):
    """A Tourist left the Platform for the 0 stop of `line`."""

    line: str


class TouristReturned(Event, frozen=True, tag="expect-delays.tourist-returned"):
    """A Tourist left `stop` of `line` for the Platform (Tourist Shuttle)."""

    line: str
    stop: int


class RiderMove(msgspec.Struct, frozen=True, kw_only=True):
    """One rider's move within `RidersMoved`: `to_stop` None means off the line, back to the Platform."""

    from_stop: int
    to_stop: int | None


class RidersMoved(Event, frozen=True, tag="expect-delays.riders-moved"):
    """The riders of `line` moved up to `stops` stops, front rider first (readings 6, 7)."""

    line: str
    stops: int
    moves: tuple[RiderMove, ...] = ()


class CardsDiscarded(Event, frozen=True, tag="expect-delays.cards-discarded"):
    """Cards went from a seat's hand to the face-up Discard pile."""

    seat: int
    cards: tuple[str, ...]


class CardTakenOutOfService(Event, frozen=True, tag="expect-delays.card-taken-out-of-service"):
    """A card went from a seat's hand to the Out of Service pile; the seat gained `fare_swipes`."""

    seat: int
    card: str
    fare_swipes: int


class CardRepaired(Event, frozen=True, tag="expect-delays.card-repaired"):
    """A card went from the Out of Service pile to the Discard pile."""

    card: str


class FareSwipesGained(Event, frozen=True, tag="expect-delays.fare-swipes-gained"):
    """A seat took `count` Fare Swipes from the Platform."""

    seat: int
    count: int


class FareSwipesReturned(Event, frozen=True, tag="expect-delays.fare-swipes-returned"):
    """A seat returned `count` Fare Swipes to the Platform."""

    seat: int
    count: int


class ExtraActionGained(Event, frozen=True, tag="expect-delays.extra-action-gained"):
    """The acting seat may take `count` more actions this Action Phase."""

    seat: int
    count: int


class ActionPhaseEnded(Event, frozen=True, tag="expect-delays.action-phase-ended"):
    """The Action Phase is over (`early`: the seat ended it with actions left); Upkeep follows."""

    seat: int
    early: bool = False


class AdvisoryRevealed(Event, frozen=True, tag="expect-delays.advisory-revealed"):
    """The face-up next advisory became the active one (the previous one is discarded).

    `next` is the card now face up on the advisory deck, or None when the deck ran out (an
    `AdvisoryDeckShuffled` follows).
    """

    advisory: str
    next: str | None = None


class TurnPassed(Event, frozen=True, tag="expect-delays.turn-passed"):
    """Turn number `turn` begins: `seat` starts its Action Phase."""

    seat: int
    turn: int


class GameOver(Event, frozen=True, tag="expect-delays.game-over"):
    """The game ended immediately, for `reason`."""

    reason: EndReason


EVENTS: tuple[type[Event], ...] = (
    GameSetUp,
    TrainDeckShuffled,
    AdvisoryDeckShuffled,
    CardsDrawn,
    ActionTaken,
    CommuterBoarded,
    CommuterDisembarked,
    TouristBoarded,
    TouristReturned,
    RidersMoved,
    CardsDiscarded,
    CardTakenOutOfService,
    CardRepaired,
    FareSwipesGained,
    FareSwipesReturned,
    ExtraActionGained,
    ActionPhaseEnded,
    AdvisoryRevealed,
    TurnPassed,
    GameOver,
)
