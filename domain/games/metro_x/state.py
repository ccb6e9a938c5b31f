"""Metro X state: one subway sheet per seat, the face-up card, the discard pile and the sealed submissions."""

from __future__ import annotations

import msgspec

from domain.engine import Event
from domain.games.metro_x.components import BOARDS, Board
from domain.games.metro_x.events import (
    CardFlipped,
    Choice,
    Completion,
    DeckReshuffled,
    GameScored,
    Marking,
    MarkingSubmitted,
    SeatScore,
    SetUp,
    TurnResolved,
)

CROSSED = "x"


class Sheet(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's subway board.

    `windows[r]`: the marks written in route r's Train Car Windows ("3", "X"), in order.
    `stations[i]`: "" empty, "x" crossed off, or a transfer number ("6") for `Board.stations[i]`.
    `completed[r]`: "" or the bonus circled when route r was completed ("gold" / "white").
    """

    windows: tuple[tuple[str, ...], ...]
    stations: tuple[str, ...]
    completed: tuple[str, ...]


class State(msgspec.Struct, frozen=True, kw_only=True):
    """The table. `pending[s]` is seat s's sealed choice this turn (None: not yet submitted)."""

    map: str
    seats: int
    sheets: tuple[Sheet, ...]
    pending: tuple[Choice | None, ...]
    gold_taken: tuple[bool, ...]
    turn: int = 0
    card: str = ""
    discard: tuple[str, ...] = ()
    final: tuple[SeatScore, ...] = ()
    solo_rating: str = ""

    @property
    def board(self) -> Board:
        """The map being played."""
        return BOARDS[self.map]

    @property
    def over(self) -> bool:
        """True once the game has been scored."""
        return bool(self.final)


def blank_sheet(board: Board) -> Sheet:
    """A fresh board: no windows, no stations, no completions."""
    return Sheet(
        windows=tuple(() for _ in board.routes),
        stations=tuple("" for _ in board.stations),
        completed=tuple("" for _ in board.routes),
    )


def write_marking(board: Board, sheet: Sheet, marking: Marking) -> Sheet:
    """The sheet after `marking` is written on it (a window mark and station marks)."""
    windows = sheet.windows
    if marking.window:
        r = board.route_index[marking.route]
        windows = (*windows[:r], (*windows[r], marking.window), *windows[r + 1 :])
    stations = list(sheet.stations)
    for station in marking.crossed:
        stations[board.station_index[station]] = CROSSED
    if marking.transfer_station:
        stations[board.station_index[marking.transfer_station]] = str(marking.transfer_value)
    return msgspec.structs.replace(sheet, windows=windows, stations=tuple(stations))


def circle_bonus(board: Board, sheet: Sheet, completion: Completion) -> Sheet:
    """The sheet with a completed route's bonus circled."""
    r = board.route_index[completion.route]
    completed = (*sheet.completed[:r], completion.bonus, *sheet.completed[r + 1 :])
    return msgspec.structs.replace(sheet, completed=completed)


def resolve_sheets(board: Board, sheets: tuple[Sheet, ...], event: TurnResolved) -> tuple[Sheet, ...]:
    """All sheets after a turn's markings and completions."""
    out = list(sheets)
    for marking in event.markings:
        out[marking.seat] = write_marking(board, out[marking.seat], marking)
    for completion in event.completions:
        out[completion.seat] = circle_bonus(board, out[completion.seat], completion)
    return tuple(out)


def evolve(state: State | None, event: Event) -> State:
    """Apply one Metro X event."""
    if isinstance(event, SetUp):
        board = BOARDS[event.map]
        return State(
            map=event.map,
            seats=event.seats,
            sheets=tuple(blank_sheet(board) for _ in range(event.seats)),
            pending=tuple(None for _ in range(event.seats)),
            gold_taken=tuple(False for _ in board.routes),
        )
    if state is None:
        raise ValueError("a Metro X stream begins with metro-x.set-up")
    replace = msgspec.structs.replace
    if isinstance(event, CardFlipped):
        return replace(state, turn=event.turn, card=event.card, discard=(*state.discard, event.card))
    if isinstance(event, DeckReshuffled):
        return replace(state, discard=())
    if isinstance(event, MarkingSubmitted):
        pending = (*state.pending[: event.seat], event.choice, *state.pending[event.seat + 1 :])
        return replace(state, pending=pending)
    if isinstance(event, TurnResolved):
        gold = list(state.gold_taken)
        for completion in event.completions:
            gold[state.board.route_index[completion.route]] = True
        return replace(
            state,
            sheets=resolve_sheets(state.board, state.sheets, event),
            pending=tuple(None for _ in range(state.seats)),
            gold_taken=tuple(gold),
        )
    if isinstance(event, GameScored):
        return replace(state, final=event.scores, solo_rating=event.solo_rating)
    raise ValueError(f"not a Metro X event: {event!r}")
