"""Terminus: the city map (districts, rails, stations, Developments), the markets, the players and the scores."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, seat_colour, text_width
from domain.games.terminus.components import RESOURCES, TILES, board
from domain.narration import in_words, plural

CELL, PHONE_CELL = 90, 56
DISTRICT_FILL = {"residential": "#e6f4e6", "commercial": "#e6ecfa", "industrial": "#f6ebe0"}
DEVELOPMENT = "#c9b27c"
LEVELS = {1: "station", 2: "hub", 3: "prime hub"}
CUBE = {"permit": "#9467bd", "blueprint": "#1f77b4", "power": "#ff7f0e", "construction": "#8c564b"}


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it: the city, the markets beside it (a phone: below it), the players, the
    legend and the faces of the cards shown."""
    index = board(view["board"])
    cell = PHONE_CELL if moment.narrow else CELL
    map_w = cell * (max(p.x for p in index.plots) + 1) + 20
    width = moment.width if moment.narrow else max(map_w + 320, moment.width)
    svg = Svg(width, 100, title="Terminus table", data_game="terminus", **moment.attrs())
    step = " ".join(in_words(part) for part in (view["phase"], view["step"]) if part)
    top = svg.para(16, 22, f"Year {view['year']} · {step} · {moment.status()} · "
                           f"deck {view['deck']}", width - 32, 14, data_phase=view["phase"], data_header="",
                   font_weight="bold")
    with svg.group(data_zone="city", transform=f"translate(30,{round(top + 24)})"):
        _city(svg, view, index, cell)
    map_bottom = top + 24 + cell * max(p.y for p in index.plots) + 40
    if moment.narrow:
        y = _markets(svg, view["markets"], 16, map_bottom + 10, width - 16)
    else:
        y = max(map_bottom, _markets(svg, view["markets"], width - 280, top + 24, width - 16))
    finals = {line["player"]: line for line in view["final"]}
    for seat, player in enumerate(view["players"]):
        if moment.seat_views:  # the end: every hand and secret Agenda is public
            player = moment.seat_views[seat]["players"][seat]
        y = _player(svg, seat, player, finals.get(seat), y + 8, moment)
    y = _legend(svg, index, y + 16, width, len(view["players"]), moment)
    shown = [moment.seat_views[s]["players"][s] for s in range(len(view["players"]))] if moment.seat_views else None
    for face in card_faces(view, index, shown):
        y = svg.para(16, y, face, width - 32, 12, data_zone="faces")
    svg.resize(width, y + 6)
    return svg.tostring()


def district_name(district: Any) -> str:
    """A district's name as printed; an invented district (DEFAULT data) by its code alone."""
    return district.name if district.source == "SEED" else f"District {district.code}"


def _legend(svg: Svg, index: Any, y: float, width: int, seats: int, moment: Moment) -> float:
    """A swatch for every colour on the board (districts, Developments, rails, Stops, the seats, the market cubes);
    the y below."""
    swatches = [(DISTRICT_FILL.get(d.type, "#eeeeee"), f"{d.code} {district_name(d)} ({d.type})", "circle")
                for d in index.board.districts]
    swatches += [(DEVELOPMENT, "a Development", "rect"), ("#cccccc", "an empty rail space", "dash")]
    swatches += [(seat_colour(seat), f"{moment.short(seat)}: rails, Stops", "rect") for seat in range(seats)]
    swatches += [(colour, f"a {resource} cube", "rect") for resource, colour in CUBE.items()]
    svg.text(16, y, "Legend (a Stop's border: thicker for a hub)", 13, font_weight="bold")
    x, y = 16.0, y + 20
    with svg.group(data_zone="legend"):
        for colour, label, shape in swatches:
            room = 26 + text_width(label, 12) + 14
            if x + room > width - 16:
                x, y = 16.0, y + 20
            if shape == "circle":
                svg.circle(x + 7, y - 4, 7, fill=colour, stroke="#777777")
            elif shape == "dash":
                svg.line(x, y - 4, x + 16, y - 4, stroke=colour, stroke_width=2, stroke_dasharray="4 4")
            else:
                svg.rect(x, y - 11, 14, 14, fill=colour, stroke="#333333")
            svg.text(x + 22, y, label, 12)
            x += room
    return y + 24


def agenda_face(agenda: Any) -> str:
    """An Agenda card as printed: what it counts where, and the Prestige of its top and bottom rows."""
    rows = " / ".join(f"{'+'.join(map(str, row))} → {prestige}" for row, prestige in
                      ((agenda.top, agenda.top_prestige), (agenda.bottom, agenda.bottom_prestige)))
    return f"{agenda.id} {agenda.kind.replace('_', ' ')} in {'+'.join(agenda.districts)}: {rows} Prestige"


def card_faces(view: dict[str, Any], index: Any, players: list[dict[str, Any]] | None = None) -> list[str]:
    """The faces of the cards and tiles the picture names by id: the Agendas the viewer sees (a hand, a secret
    Agenda; `players`: every seat's, at the end) and the Developments built, from the component data."""
    players = players or view["players"]
    shown = [card for player in players if not isinstance(player["hand"], int) for card in player["hand"]]
    shown += [p["secret"] for p in players if isinstance(p["secret"], str) and p["secret"]]
    faces = [agenda_face(index.agendas[card]) for card in dict.fromkeys(shown) if card in index.agendas]
    built = [TILES[tile] for tile in dict.fromkeys(t for t in view["block_tile"] if t is not None and t >= 0)
             if tile < len(TILES)]
    return faces + [f"{tile.id} ({tile.type} {tile.zone}): {tile.text}" for tile in built]


def _city(svg: Svg, view: dict[str, Any], index: Any, cell: int) -> None:
    """Plots coloured by district, rails with their owners, Stops with their level and owner, Developments."""
    def at(plot: int) -> tuple[float, float]:
        return index.plots[plot].x * cell, index.plots[plot].y * cell

    inset = cell * 0.22
    for block, corners in enumerate(index.block_corners):
        xs, ys = zip(*map(at, corners), strict=True)
        tile = view["block_tile"][block]  # a Development's index in TILES; -1 (or None): none there
        if tile is not None and tile >= 0:
            svg.rect(min(xs) + inset, min(ys) + inset, max(xs) - min(xs) - 2 * inset, max(ys) - min(ys) - 2 * inset,
                     fill=DEVELOPMENT, data_development=tile, data_block=block)
            face = TILES[tile] if tile < len(TILES) and cell >= CELL else None
            if face is not None:  # named on the board when there is room (always in the faces below)
                svg.text(min(xs) + inset + 4, min(ys) + inset + 16, face.id, 12)
    for rail, (one, other) in enumerate(index.rail_ends):
        (x1, y1), (x2, y2) = at(one), at(other)
        owners = view["rail_owners"][rail]
        svg.line(x1, y1, x2, y2, stroke="#cccccc", stroke_width=2, stroke_dasharray="4 4")
        for n, owner in enumerate(owners):
            shift = 4 * n - 2 * (len(owners) - 1)
            svg.line(x1 + shift, y1 + shift, x2 + shift, y2 + shift, stroke=seat_colour(owner), stroke_width=5,
                     data_rail=rail, data_owner=owner)
    radius = 16 if cell >= CELL else 12
    for plot, place in enumerate(index.plots):
        x, y = at(plot)
        district = index.board.districts[index.plot_district[plot]]
        svg.circle(x, y, radius, fill=DISTRICT_FILL.get(district.type, "#eeeeee"), stroke="#777777",
                   data_plot=place.id)
        svg.text(x - 8, y + radius + 13, district.code, 12, fill="#444444")
        owner, level = view["stop_owner"][plot], view["stop_level"][plot]
        if level:
            svg.rect(x - 9, y - 9, 18, 18, fill=seat_colour(owner), stroke="#000000",
                     stroke_width=1 + level, data_stop=place.id, data_owner=owner, data_level=LEVELS.get(level, level))


def _markets(svg: Svg, markets: list[list[int]], x: float, y: float, right: float) -> float:
    """Each resource market: its columns of cubes, drawn as cubes, wrapping before `right`; the y below."""
    per_row = max(1, int((right - x - 96 - 30) // 38) + 1)
    with svg.group(data_zone="markets"):
        svg.text(x, y + 12, "Markets", 13, font_weight="bold")
        y += 22
        for resource, columns in zip(RESOURCES, markets, strict=True):
            svg.text(x, y + 12, resource, 12, data_market=resource, data_cubes=sum(columns))
            for column, cubes in enumerate(columns):
                cx, cy = x + 96 + 38 * (column % per_row), y + 24 * (column // per_row)
                svg.rect(cx, cy, 34, 18, fill="none", stroke="#bbbbbb", rx=2)
                for cube in range(cubes if cubes <= 3 else 1):  # more than three: one cube and the count
                    svg.rect(cx + 3 + 10 * cube, cy + 5, 8, 8, fill=CUBE.get(resource, "#555555"))
                if cubes > 3:
                    svg.text(cx + 13, cy + 14, f"×{cubes}", 12)
            y += 24 * max(1, -(-len(columns) // per_row))
    return y


def _player(svg: Svg, seat: int, player: dict[str, Any], final: dict[str, Any] | None, y: float,
            moment: Moment) -> float:
    """A player's public board, and its hand and secret Agenda when the viewer may see them; the y below."""
    hand = player["hand"]
    size = hand if isinstance(hand, int) else len(hand)
    score = f" · Prestige {final['total']}" if final else ""
    with svg.group(data_seat=seat, data_hand_size=size, data_score=final["total"] if final else None):
        box = svg.rect(16, y, moment.width - 32 if moment.narrow else 728, 30, fill="#ffffff",
                       stroke=seat_colour(seat), rx=4, stroke_width=3 if seat in moment.to_move else 1)
        cubes = ", ".join(plural(n, r) for n, r in zip(player["res"], RESOURCES, strict=False))
        inner = (moment.width - 32 if moment.narrow else 728) - 20
        below = svg.para(26, y + 20, f"{moment.name(seat)}: {plural(player['coins'], 'coin')} · {cubes} · rails "
                                     f"{player['rails_reserve']} reserve/{player['rails_storage']} storage · "
                                     f"{plural(size, 'card')} in hand{score}", inner, 12)
        if not isinstance(hand, int):
            x = 26.0
            svg.text(x, below + 2, "Agendas:" if hand else "Agendas: none", 12, font_weight="bold")
            for n, card in enumerate(hand):
                svg.text(x + 64 + 56 * n, below + 2, str(card), 12, data_card=card, data_zone="hand")
            below += 18
        if isinstance(player["secret"], str) and player["secret"]:
            svg.text(26, below + 2, f"Secret agenda {player['secret']}", 12, data_secret=player["secret"])
            below += 18
        box.set("height", str(round(below - y - 4, 1)))
    return below
