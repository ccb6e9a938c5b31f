"""What a seat may ask to do: the six actions of the Action Phase, and ending it.

Commands carry only the player's choices. Choices that are sets (cards, Tourist lines) are tuples in
table order (card id order, line order) without repeats, so each choice has exactly one spelling.
"""

from __future__ import annotations

from domain.engine import Command


class Board(Command, frozen=True, tag="expect-delays.board"):
    """Board: pay the fare and put a Commuter from your pool on the 0 stop of one of your lines."""

    line: str


class Disembark(Command, frozen=True, tag="expect-delays.disembark"):
    """Disembark the Commuter at `stop` of your `line`, with the choices that may follow.

    `tourists`: opponent lines that each get a Tourist on their open 0 stop (none, or up to the
    number allowed). `repair` / `board`: the card to Repair or the line to Board, when the active
    Transfer advisory fires and asks for one (None declines it).
    """

    line: str
    stop: int
    tourists: tuple[str, ...] = ()
    repair: str | None = None
    board: str | None = None


class Repair(Command, frozen=True, tag="expect-delays.repair"):
    """Repair: put a card from the Out of Service pile into the Discard pile."""

    card: str


class RunTheLine(Command, frozen=True, tag="expect-delays.run-the-line"):
    """Run the Line: discard `cards` (each showing `line`) and move that line's riders one stop per symbol."""

    line: str
    cards: tuple[str, ...]


class TakeOutOfService(Command, frozen=True, tag="expect-delays.take-out-of-service"):
    """Take Out of Service: put a card from your hand on the Out of Service pile and gain its Fare Swipes."""

    card: str


class UseServiceAdvisory(Command, frozen=True, tag="expect-delays.use-service-advisory"):
    """Use the active New Action advisory, with the choices its effect needs.

    Express Run: `line`. Fare Collection: nothing. Night Crew: `cards` (1 or 2 Out of Service cards).
    Card Swap: `cards` (the one card to discard). Free Boarding: `line`. Tourist Shuttle: `line` and `stop`.
    """

    line: str | None = None
    stop: int | None = None
    cards: tuple[str, ...] = ()


class EndActions(Command, frozen=True, tag="expect-delays.end-actions"):
    """End the Action Phase now; the Upkeep Phase follows at once."""


COMMANDS: tuple[type[Command], ...] = (
    Board,
    Disembark,
    Repair,
    RunTheLine,
    TakeOutOfService,
    UseServiceAdvisory,
    EndActions,
)
