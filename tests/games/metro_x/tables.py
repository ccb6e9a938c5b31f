"""Small Metro X tables for rule tests: a set-up with a chosen face-up card, then marks written by hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from msgspec.structs import replace

from domain.games.metro_x import GAME
from domain.games.metro_x.components import BOARDS
from domain.games.metro_x.events import CardFlipped, SetUp
from domain.games.metro_x.state import CROSSED, State
from tests.games.given import given


def table(
    map_slug: str = "metro-city",
    seats: int = 1,
    card: str = "N3-1",
    crossed: Mapping[int, Iterable[str]] | None = None,
    transfers: Mapping[int, Mapping[str, int]] | None = None,
    windows: Mapping[int, Mapping[str, tuple[str, ...]]] | None = None,
) -> State:
    """Blank sheets on `map_slug` with `card` face up (turn 1), then the given marks written on the sheets."""
    state = given(GAME, SetUp(map=map_slug, seats=seats), CardFlipped(turn=1, card=card)).state
    board = BOARDS[map_slug]
    sheets = list(state.sheets)
    for seat in range(seats):
        stations = list(sheets[seat].stations)
        for station in (crossed or {}).get(seat, ()):
            stations[board.station_index[station]] = CROSSED
        for station, value in (transfers or {}).get(seat, {}).items():
            stations[board.station_index[station]] = str(value)
        marks = list(sheets[seat].windows)
        for route, written in (windows or {}).get(seat, {}).items():
            marks[board.route_index[route]] = written
        sheets[seat] = replace(sheets[seat], stations=tuple(stations), windows=tuple(marks))
    return replace(state, sheets=tuple(sheets))


def all_windows_but_one(map_slug: str, route: str) -> dict[str, tuple[str, ...]]:
    """Every Train Car Window filled with "3" except the last one of `route` (one card left to play)."""
    board = BOARDS[map_slug]
    out = {r.id: ("3",) * r.windows for r in board.routes}
    out[route] = ("3",) * (board.routes[board.route_index[route]].windows - 1)
    return out


def with_card(state: State, card: str) -> State:
    """The same table with another face-up card (as if it had been flipped)."""
    return replace(state, card=card, discard=(*state.discard[:-1], card))


def marks(state: State, seat: int) -> dict[str, str]:
    """Seat's filled stations: station id -> "x" or the transfer number written there."""
    board = state.board
    return {board.stations[i]: m for i, m in enumerate(state.sheets[seat].stations) if m}


def window_marks(state: State, seat: int, route: str) -> tuple[str, ...]:
    """What is written in a route's Train Car Windows."""
    return state.sheets[seat].windows[state.board.route_index[route]]
