"""The game's components (rulebook "Components"), decoded from `data.toml` into typed Structs once.

The whole data set is DEFAULT (see README.md); only the set-up numbers are printed in the rulebook.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.data import load_data

AdvisoryKind = Literal["new-action", "event", "transfer"]
NewActionEffect = Literal[
    "move-all-riders-on-own-line",
    "gain-fare-swipes",
    "repair",
    "discard-then-draw-train",
    "board-without-fare",
    "move-one-tourist-on-own-line-to-platform",
]
EventEffect = Literal[
    "board-cost",
    "run-line-max-stops",
    "dual-cards-move-chosen-line-only",
    "out-of-service-swipe-modifier",
    "tourists-per-disembark",
]
TransferEffect = Literal[
    "opponent-returns-half-swipes",
    "gain-fare-swipes",
    "repair",
    "board-without-fare",
    "draw-train-cards",
    "gain-extra-action",
]


class SetupRules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The numbers of the rulebook's Setup and Components sections (SEED)."""

    seat_names: tuple[str, ...]
    start_fare_swipes: tuple[int, ...]
    hand_size: int
    actions_per_turn: int
    commuters_per_seat: int
    fare_swipes_total: int
    tourists_total: int
    board_cost: int
    win_points: int


class Line(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One Subway Line: its symbol id, owning seat and colour."""

    id: str
    owner: int
    colour: str


class Track(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The stops every line shares: Destination Points per stop and the ◇ (transfer) stops."""

    stop_points: tuple[int, ...]
    transfer_stops: tuple[int, ...]

    @property
    def last_stop(self) -> int:
        """Index of the end of the line."""
        return len(self.stop_points) - 1


class TrainCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Train card: its line symbols and the Fare Swipes it gives when taken Out of Service."""

    id: str
    symbols: tuple[str, ...]
    fare_swipes: int


class Advisory(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Service Advisory card: its kind, what it does, and the number printed on it (if any)."""

    id: str
    name: str
    kind: AdvisoryKind
    effect: str
    amount: int = 0


class Components(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything in the box."""

    status: str
    setup: SetupRules
    lines: tuple[Line, ...]
    track: Track
    train_cards: tuple[TrainCard, ...]
    advisories: tuple[Advisory, ...]


EFFECTS_BY_KIND: dict[str, tuple[str, ...]] = {
    "new-action": NewActionEffect.__args__,  # type: ignore[attr-defined]
    "event": EventEffect.__args__,  # type: ignore[attr-defined]
    "transfer": TransferEffect.__args__,  # type: ignore[attr-defined]
}


def _checked(components: Components) -> Components:
    """Fail at import if the data file is inconsistent (unknown symbols, effects of the wrong kind)."""
    line_ids = {line.id for line in components.lines}
    for card in components.train_cards:
        if not card.symbols or not set(card.symbols) <= line_ids or len(set(card.symbols)) != len(card.symbols):
            raise ValueError(f"train card {card.id} has bad symbols {card.symbols}")
    for advisory in components.advisories:
        if advisory.effect not in EFFECTS_BY_KIND[advisory.kind]:
            raise ValueError(f"advisory {advisory.id}: {advisory.effect!r} is not a {advisory.kind} effect")
    for advisory in components.advisories:
        if advisory.kind == "transfer" and advisory.effect == "repair" and advisory.amount != 1:
            raise ValueError(f"advisory {advisory.id}: a Transfer repairs one card (Disembark names one)")
    for ids in ([c.id for c in components.train_cards], [a.id for a in components.advisories]):
        if len(ids) != len(set(ids)) or ids != sorted(ids):
            raise ValueError("card ids must be unique and listed in order")
    return components


COMPONENTS: Components = _checked(load_data(__package__ or __name__, "data.toml", Components))
SETUP = COMPONENTS.setup
TRACK = COMPONENTS.track
LINES: dict[str, Line] = {line.id: line for line in COMPONENTS.lines}
LINE_ORDER: tuple[str, ...] = tuple(LINES)
TRAIN_CARDS: dict[str, TrainCard] = {card.id: card for card in COMPONENTS.train_cards}
CARD_ORDER: tuple[str, ...] = tuple(TRAIN_CARDS)
ADVISORIES: dict[str, Advisory] = {advisory.id: advisory for advisory in COMPONENTS.advisories}


def lines_of(seat: int) -> tuple[str, ...]:
    """The two Subway Lines a seat operates, in table order."""
    return tuple(line.id for line in COMPONENTS.lines if line.owner == seat)


def opponent(seat: int) -> int:
    """The other seat (a two-player game)."""
    return 1 - seat
