"""What each seat may see. Every sheet is public; a seat's sealed choice is its own until the turn resolves.

The Transit deck has no hidden order (each flip is drawn when it happens), so the only hidden zone is
`pending`: seat s's choice is owned by s, and other seats and spectators learn only THAT s submitted.
"""

from __future__ import annotations

import msgspec

from domain.engine import Event
from domain.games.metro_x.components import CARDS, DECK, Board
from domain.games.metro_x.events import Choice, MarkingSubmitted, SeatScore
from domain.games.metro_x.rules import choice_of, keyed, options_for, to_move
from domain.games.metro_x.scoring import score_sheets
from domain.games.metro_x.state import CROSSED, Sheet, State
from domain.rng import Rng


class CardView(msgspec.Struct, frozen=True, kw_only=True):
    """The face-up Transit card."""

    id: str
    kind: str
    value: int
    reshuffle: bool


class SheetView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's subway board as anyone at the table sees it."""

    seat: int
    submitted: bool
    windows: dict[str, tuple[str, ...]]
    crossed: tuple[str, ...]
    transfers: dict[str, int]
    completed: dict[str, str]
    gold_crossed_out: tuple[str, ...]
    score: SeatScore


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """The table for one seat (or a spectator): all sheets, and only the viewer's own sealed choice."""

    map: str
    title: str
    turn: int
    card: CardView
    discard: tuple[str, ...]
    deck_left: int
    windows_left: int
    to_move: tuple[int, ...]
    sheets: tuple[SheetView, ...]
    my_choice: Choice | None
    final: tuple[SeatScore, ...]
    solo_rating: str


def sheet_view(state: State, seat: int, sheet: Sheet, score: SeatScore) -> SheetView:
    """A public sheet; `submitted` says only whether the seat has sealed a choice."""
    board: Board = state.board
    marks = list(zip(board.stations, sheet.stations, strict=True))
    crossed_out = tuple(
        route.id for r, route in enumerate(board.routes)
        if state.seats > 1 and state.gold_taken[r] and sheet.completed[r] != "gold"
    )
    return SheetView(
        seat=seat,
        submitted=state.pending[seat] is not None,
        windows={route.id: sheet.windows[r] for r, route in enumerate(board.routes)},
        crossed=tuple(station for station, mark in marks if mark == CROSSED),
        transfers={station: int(mark) for station, mark in marks if mark and mark != CROSSED},
        completed={route.id: sheet.completed[r] for r, route in enumerate(board.routes) if sheet.completed[r]},
        gold_crossed_out=crossed_out,
        score=score,
    )


def view(state: State, seat: int | None) -> TableView:
    """What `seat` (None: a spectator) sees."""
    card = CARDS[state.card]
    board = state.board
    filled = sum(len(w) for w in state.sheets[0].windows)
    return TableView(
        map=state.map,
        title=board.title,
        turn=state.turn,
        card=CardView(id=card.id, kind=card.kind, value=card.value, reshuffle=card.reshuffle),
        discard=state.discard,
        deck_left=len(DECK) - len(state.discard),
        windows_left=board.windows - filled,
        to_move=tuple(to_move(state)),
        sheets=tuple(
            sheet_view(state, s, sheet, score)
            for s, (sheet, score) in enumerate(zip(state.sheets, score_sheets(state), strict=True))
        ),
        my_choice=state.pending[seat] if seat is not None and 0 <= seat < state.seats else None,
        final=state.final,
        solo_rating=state.solo_rating,
    )


def redact(event: Event, seat: int | None) -> Event:
    """Another seat's submission shows only that it was made, never what was chosen."""
    if isinstance(event, MarkingSubmitted) and event.seat != seat:
        return msgspec.structs.replace(event, choice=None)
    return event


def hidden_from(state: State, seat: int | None) -> frozenset[str]:
    """The keys of the other seats' sealed choices this turn."""
    return frozenset(
        choice.key for other, choice in enumerate(state.pending) if choice is not None and other != seat
    )


def scramble(state: State, seat: int | None, rng: Rng) -> State:
    """Replace every other seat's sealed choice with a different legal one (when it had another)."""
    pending = list(state.pending)
    for other, choice in enumerate(state.pending):
        if choice is None or other == seat:
            continue
        unkeyed = msgspec.structs.replace(choice, key="")
        alternatives = [c for c in map(choice_of, options_for(state, other)) if c != unkeyed]
        if alternatives:
            pending[other] = keyed(state.turn, other, rng.choice(alternatives))
    return msgspec.structs.replace(state, pending=tuple(pending))


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A complete table `seat` cannot tell from this one, drawn at random from what it sees (a search bot's sample):
    every other seat's sealed choice is drawn among the markings it could have sealed, whatever it really sealed."""
    pending = list(state.pending)
    for other, choice in enumerate(state.pending):
        if choice is not None and other != seat:
            pending[other] = keyed(state.turn, other, choice_of(rng.choice(options_for(state, other))))
    return msgspec.structs.replace(state, pending=tuple(pending))
