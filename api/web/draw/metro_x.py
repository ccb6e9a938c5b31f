"""Metro X: one subway map per seat, with its crossed stations, transfers, filled windows and completed routes."""

from __future__ import annotations

from typing import Any

import msgspec

from api.web.svg import Moment, Svg, seat_colour
from domain.games.metro_x.components import BOARDS
from domain.games.metro_x.events import Choice
from domain.games.metro_x.render import choice_words
from domain.narration import plural

CELL = 22
MAP_W = 14 * CELL + 30
MAP_H = 11 * CELL + 110
PER_ROW = 2


def _at(station: str) -> tuple[float, float]:
    """A station's place: its id is the grid coordinate "x.y"."""
    x, y = station.split(".")
    return 20 + CELL * float(x), 60 + CELL * float(y)


def draw(view: dict[str, Any], moment: Moment) -> str:
    """Every seat's sheet over the map, and the face-up card."""
    sheets = view["sheets"]
    # At most two sheets a row: three or more side by side would shrink every map's text below reading size.
    columns = min(len(sheets), PER_ROW) or 1
    rows = -(-len(sheets) // columns)
    svg = Svg(max(MAP_W * columns, 420), MAP_H * rows + 60, title="Metro X table", data_game="metro-x",
              **moment.attrs())
    card = view["card"]
    with svg.group(data_header=""):  # two lines: the card, then who is to move (one line overflows two sheets)
        svg.text(16, 20, f"{view['title']} · turn {view['turn']} · card {card['id']} ({card['kind']} {card['value']}) "
                         f"· deck {view['deck_left']} · windows left {view['windows_left']}", 13,
                 data_face_up=card["id"], data_turn=view["turn"])
        svg.text(16, 38, moment.status(), 13, font_weight="bold")
    for index, sheet in enumerate(sheets):
        with svg.group(data_seat=sheet["seat"], data_score=sheet["score"]["total"],
                       transform=f"translate({index % columns * MAP_W},{20 + index // columns * MAP_H})"):
            _sheet(svg, view["map"], sheet, sheet["seat"] in moment.to_move, moment)
    if view["my_choice"] is not None:
        sealed = choice_words(msgspec.convert(view["my_choice"], Choice))
        svg.text(16, MAP_H * rows + 50, f"Your sealed choice: {sealed}", 12, data_zone="my-choice")
    return svg.tostring()


def _sheet(svg: Svg, map_slug: str, sheet: dict[str, Any], to_move: bool, moment: Moment) -> None:
    """One seat's map."""
    board = BOARDS[map_slug]
    colour = seat_colour(sheet["seat"])
    svg.text(20, 44, f"{moment.name(sheet['seat'])}: {plural(sheet['score']['total'], 'point')}"
                     f"{' · to move' if to_move else ''}{' · sealed' if sheet['submitted'] else ''}", 13, fill=colour)
    for route in board.routes:
        points = " ".join(f"{x},{y}" for x, y in map(_at, route.stations))
        done = sheet["completed"].get(route.id)
        svg.add("polyline", points=points, fill="none", stroke=route.color, stroke_width=6 if done else 3,
                stroke_opacity=1 if done else 0.6, data_route=route.id, data_completed=done or None,
                data_windows=",".join(sheet["windows"].get(route.id, ())))
    crossed = set(sheet["crossed"])
    for station in board.stations:
        x, y = _at(station)
        svg.circle(x, y, 5, fill="#ffffff", stroke="#333333")
        if station in crossed:
            svg.add("path", d=f"M{x - 5},{y - 5}L{x + 5},{y + 5}M{x + 5},{y - 5}L{x - 5},{y + 5}", stroke=colour,
                    stroke_width=2.5, data_crossed=station)
    for station, value in sheet["transfers"].items():
        x, y = _at(station)
        svg.text(x + 5, y - 5, str(value), 10, data_transfer=station)
    _legend(svg, board, sheet)
    done = ", ".join(f"{route} ({kind})" for route, kind in sorted(sheet["completed"].items())) or "none"
    svg.text(20, MAP_H - 10, f"Completed: {done}", 11)


def _legend(svg: Svg, board: Any, sheet: dict[str, Any]) -> None:
    """Each route's letter in its colour at its first station, and below the map its windows filled of all."""
    per_row = 6
    for index, route in enumerate(board.routes):
        x, y = _at(route.stations[0])
        svg.text(x - 14, y + 4, route.id, 11, fill=route.color, font_weight="bold", data_route_label=route.id)
        filled = len(sheet["windows"].get(route.id, ()))
        col, row = index % per_row, index // per_row
        svg.text(20 + 52 * col, MAP_H - 44 + 14 * row, f"{route.id} {filled}/{route.windows}", 11, fill=route.color,
                 font_weight="bold", data_route_windows=route.id)
