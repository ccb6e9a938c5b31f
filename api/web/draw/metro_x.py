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
MAP_W = 14 * CELL + 50
MAP_H = 11 * CELL + 130
PER_ROW = 2


def _at(station: str) -> tuple[float, float]:
    """A station's place: its id is the grid coordinate "x.y"."""
    x, y = station.split(".")
    return 44 + CELL * float(x), 60 + CELL * float(y)


def draw(view: dict[str, Any], moment: Moment) -> str:
    """Every seat's sheet over the map, and the face-up card (on a phone: one sheet a row)."""
    sheets = view["sheets"]
    # At most two sheets a row: three or more side by side would shrink every map's text below reading size.
    columns = 1 if moment.narrow else min(len(sheets), PER_ROW) or 1
    rows = -(-len(sheets) // columns)
    width = max(MAP_W * columns, moment.width)
    svg = Svg(width, 100, title="Metro X table", data_game="metro-x", **moment.attrs())
    card = view["card"]
    with svg.group(data_header=""):  # two paragraphs: the card, then who is to move
        top = svg.para(16, 20, f"{view['title']} · turn {view['turn']} · deck {view['deck_left']} · windows left "
                               f"{view['windows_left']}", width - 32, 13, data_turn=view["turn"])
        name, effect = card_face(card)
        top = svg.para(16, top, f"Face-up card: {name}: {effect}", width - 32, 13, data_face_up=card["id"])
        svg.text(16, top, card["id"], 12, fill="#777777", data_code=card["id"])
        top += 16
        top = svg.para(16, top, moment.status(), width - 32, 13, font_weight="bold") - 30
    for index, sheet in enumerate(sheets):
        with svg.group(data_seat=sheet["seat"], data_score=sheet["score"]["total"],
                       transform=f"translate({index % columns * MAP_W},{round(top + index // columns * MAP_H)})"):
            _sheet(svg, view["map"], sheet, sheet["seat"] in moment.to_move, moment)
    bottom = top + MAP_H * rows
    if view["my_choice"] is not None:
        sealed = choice_words(msgspec.convert(view["my_choice"], Choice))
        bottom = svg.para(16, bottom + 20, f"Your sealed choice: {sealed}", width - 32, 12,
                          data_zone="my-choice")
    svg.resize(width, bottom + 10)
    return svg.tostring()


def card_face(card: dict[str, Any]) -> tuple[str, str]:
    """The face-up Transit card by name and what it does (rules/metro-x.md, the card effects)."""
    kind, value = card["kind"], card["value"]
    if kind == "number":
        name = f"Re-Shuffle {value}" if card.get("reshuffle") else f"Number {value}"
        then = "; then the deck is reshuffled" if card.get("reshuffle") else ""
        return name, f"cross up to {value} empty stations in a row on one route{then}"
    if kind == "skip":
        return f"Skip {value}", f"cross up to {value} empty stations on one route, jumping filled ones"
    if kind == "transfer":
        return "Transfer", "mark a transfer on a route's first empty station"
    return "Free Space", "cross any one empty station (no window)"


def _sheet(svg: Svg, map_slug: str, sheet: dict[str, Any], to_move: bool, moment: Moment) -> None:
    """One seat's map."""
    board = BOARDS[map_slug]
    colour = seat_colour(sheet["seat"])
    svg.text(20, 44, f"{moment.short(sheet['seat'])}: {plural(sheet['score']['total'], 'point')}"
                     f"{' · to move' if to_move else ''}{' · sealed' if sheet['submitted'] else ''}", 13, fill=colour,
             font_weight="bold")
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
    svg.para(20, MAP_H - 30, f"Completed: {done}", MAP_W - 30, 12)


def _legend(svg: Svg, board: Any, sheet: dict[str, Any]) -> None:
    """Each route's letter in its colour at its first station, and below the map its windows filled of all."""
    per_row = 6
    starts: dict[str, int] = {}  # routes already labelled at a station: the next label goes beside them
    for index, route in enumerate(board.routes):
        x, y = _at(route.stations[0])
        beside = starts.get(route.stations[0], 0)
        starts[route.stations[0]] = beside + 1
        svg.text(x - 16 - 11 * beside, y + 4, route.id, 12, fill=route.color, font_weight="bold",
                 data_route_label=route.id)
        filled = len(sheet["windows"].get(route.id, ()))
        col, row = index % per_row, index // per_row
        svg.text(20 + 52 * col, MAP_H - 64 + 16 * row, f"{route.id} {filled}/{route.windows}", 12, fill=route.color,
                 font_weight="bold", data_route_windows=route.id)
