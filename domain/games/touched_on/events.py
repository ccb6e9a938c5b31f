"""The facts of a Touched On match. Card ids that land in a hidden zone appear only in events redacted per seat."""

from __future__ import annotations

from typing import Literal

from domain.engine import Event

EndReason = Literal["two-out", "stuck", "turn-limit"]


class GameSetUp(Event, frozen=True, tag="touched-on.game-set-up"):
    """The table: seats, Line cards in play, the first dealer and the shuffled Exp pile (hidden from all);
    `free_tram_zone`: the line no Inspector card may be played on ("": none, the default; reading 23)."""

    seats: int
    lines: tuple[str, ...]
    dealer: int
    exp_pile: tuple[str, ...] = ()
    exp_count: int = 0
    max_turns_per_journey: int = 0
    max_journeys: int = 0
    free_tram_zone: str = ""


class JourneyDealt(Event, frozen=True, tag="touched-on.journey-dealt"):
    """A journey is dealt: each hand (a seat sees only its own), the draw pile (hidden), the dealer."""

    journey: int
    dealer: int
    hands: tuple[tuple[str, ...], ...] = ()
    hand_sizes: tuple[int, ...] = ()
    draw_pile: tuple[str, ...] = ()
    draw_size: int = 0


class TurnStarted(Event, frozen=True, tag="touched-on.turn-started"):
    """`seat` begins a turn (its Peak Hour, if any, leaves play)."""

    seat: int


class EvadersPlayed(Event, frozen=True, tag="touched-on.evaders-played"):
    """Evaders (and perhaps a Priority Seat) go face up onto `line`, continuing or starting a carriage."""

    seat: int
    line: str
    cards: tuple[str, ...]
    new_carriage: bool


class ExpUnlocked(Event, frozen=True, tag="touched-on.exp-unlocked"):
    """`seat` played the 9th counting card on `line`: the Exp hidden under it may be claimed."""

    seat: int
    line: str


class InspectionStarted(Event, frozen=True, tag="touched-on.inspection-started"):
    """An Inspector (or Feet On Seat) lands on the most recent carriage; `responders` may answer, in order."""

    seat: int
    card: str
    kind: Literal["authorised", "undercover", "feet-on-seat"]
    line: str
    owner: int
    responders: tuple[int, ...] = ()


class Appealed(Event, frozen=True, tag="touched-on.appealed"):
    """`seat` answers the inspection with an Appeal card (out of turn)."""

    seat: int
    card: str


class Passed(Event, frozen=True, tag="touched-on.passed"):
    """`seat` declines to answer in the open response window."""

    seat: int


class InspectionResolved(Event, frozen=True, tag="touched-on.inspection-resolved"):
    """The inspected carriage empties: `taker` takes its Evaders, all its other cards are discarded."""

    taker: int
    appealed: bool = False


class PeakHourPlayed(Event, frozen=True, tag="touched-on.peak-hour-played"):
    """`seat` puts Peak Hour in front of itself."""

    seat: int
    card: str


class TramTrackerPlayed(Event, frozen=True, tag="touched-on.tram-tracker-played"):
    """`seat` plays Tram Tracker on `target`."""

    seat: int
    card: str
    target: int


class CardTaken(Event, frozen=True, tag="touched-on.card-taken"):
    """`seat` takes a card unseen from `target`'s fan (the card is shown to `seat` only)."""

    seat: int
    target: int
    card: str = ""


class CardGiven(Event, frozen=True, tag="touched-on.card-given"):
    """`seat` gives `target` a card (the card is shown to `target` only)."""

    seat: int
    target: int
    card: str = ""


class DrawPileRenewed(Event, frozen=True, tag="touched-on.draw-pile-renewed"):
    """The empty draw pile is replaced by the shuffled discard pile (the order is hidden)."""

    order: tuple[str, ...] = ()
    size: int = 0


class CardDrawn(Event, frozen=True, tag="touched-on.card-drawn"):
    """`seat` draws the top card (shown to `seat` only)."""

    seat: int
    card: str = ""


class TurnEnded(Event, frozen=True, tag="touched-on.turn-ended"):
    """`seat`'s turn is over."""

    seat: int


class ClaimOffered(Event, frozen=True, tag="touched-on.claim-offered"):
    """The previous player forgot the Exp they unlocked on `line`: `seat` may claim it now."""

    seat: int
    line: str


class ExpAwarded(Event, frozen=True, tag="touched-on.exp-awarded"):
    """Exp cards go face up to `seat`: for an unlock, or for 1st / 2nd place in the journey."""

    seat: int
    cards: tuple[str, ...]
    reason: Literal["unlock", "first", "second"]


class PlayerFinished(Event, frozen=True, tag="touched-on.player-finished"):
    """`seat` is out of the journey in `place` (its DING stood, or the journey ended)."""

    seat: int
    place: int


class JourneyEnded(Event, frozen=True, tag="touched-on.journey-ended"):
    """The journey is over; `final` when the engine's journey limit ends the game."""

    journey: int
    reason: EndReason
    final: bool = False


EVENTS = (
    GameSetUp, JourneyDealt, TurnStarted, EvadersPlayed, ExpUnlocked, InspectionStarted, Appealed, Passed,
    InspectionResolved, PeakHourPlayed, TramTrackerPlayed, CardTaken, CardGiven, DrawPileRenewed, CardDrawn,
    TurnEnded, ClaimOffered, ExpAwarded, PlayerFinished, JourneyEnded,
)
