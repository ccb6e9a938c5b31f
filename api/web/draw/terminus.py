"""Terminus: the city map (districts, rails, stations, Developments), the markets, the players and the scores."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api.web.svg import Moment, Svg, seat_colour, text_width
from domain.games.terminus.components import MARKETS, PROJECTS, RESOURCES, TILES, ZONES, board
from domain.narration import in_words, plural

CELL, PHONE_CELL = 90, 50
DISTRICT_FILL = {"residential": "#dff0d8", "commercial": "#dce6f7", "industrial": "#f3e3d0"}
BORDER = "#6b6b6b"  # a district's border
DEVELOPMENT = "#c9b27c"
LEVELS = {1: "station", 2: "hub", 3: "prime hub"}
CUBE = {"permit": "#9467bd", "blueprint": "#1f77b4", "power": "#ff7f0e", "construction": "#8c564b"}
SLOT, SLOT_GAP, COLUMN = 12, 2, 20  # a market space, the gap between spaces, a market column's width


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it: the city, the markets beside it (a phone: below it), the players, the
    legend and the faces of the cards shown."""
    index = board(view["board"])
    cell = PHONE_CELL if moment.narrow else CELL
    map_w = cell * (max(p.x for p in index.plots) + 1)
    width = moment.width if moment.narrow else max(16 + map_w + 230, moment.width)
    svg = Svg(width, 100, title="Terminus table", data_game="terminus", **moment.attrs())
    # The phase `over` goes without saying: the status says the match is over, and why.
    step = " ".join(in_words(part) for part in (view["phase"], view["step"]) if part and part != "over")
    top = svg.para(16, 22, f"Year {view['year']} · {step + ' · ' if step else ''}{moment.status()} · "
                           f"{plural(view['deck'], 'Agenda')} in the deck", width - 32, 14, data_phase=view["phase"],
                   data_header="", font_weight="bold")
    with svg.group(data_zone="city", transform=f"translate({16 + cell / 2},{round(top + 10 + cell / 2)})"):
        _city(svg, view, index, cell, moment)
    map_bottom = top + 10 + cell * (max(p.y for p in index.plots) + 1)
    if moment.narrow:
        y = _markets(svg, view["markets"], view["seats"], 16, map_bottom + 14, width - 16)
    else:
        y = max(map_bottom, _markets(svg, view["markets"], view["seats"], 16 + map_w + 30, top + 10, width - 16,
                                        stack=True))
    finals = {line["player"]: line for line in view["final"]}
    for seat, player in enumerate(view["players"]):
        if moment.seat_views:  # the end: every hand and secret Agenda is public
            player = moment.seat_views[seat]["players"][seat]
        y = _player(svg, seat, player, finals.get(seat), y + 8, moment)
    if view["automa"]:
        y = _automa(svg, view["automa"], view["seats"], y + 8, moment)
    y = _legend(svg, y + 16, width, view["seats"], moment, view["automa"] is not None)
    shown = [moment.seat_views[s]["players"][s] for s in range(len(view["players"]))] if moment.seat_views else None
    for face in card_faces(view, index, shown, moment.short):
        y = svg.para(16, y, face, width - 32, 12, data_zone="faces")
    svg.resize(width, y + 6)
    return svg.tostring()


def district_name(district: Any) -> str:
    """A district's name as printed; an invented district (DEFAULT data) by its code alone."""
    return district.name if district.source == "SEED" else district.code


def owner_name(owner: int, seats: int, moment: Moment) -> str:
    """Whose piece: a seat's player, or the Automa (owner number `seats`)."""
    return "the Automa" if owner == seats else moment.short(owner)


def _legend(svg: Svg, y: float, width: int, seats: int, moment: Moment, automa: bool) -> float:
    """A swatch for every colour and shape on the board (district types and borders, Developments, rail spaces,
    Stations, Hubs, the Prime Hub, each owner's colour, the market spaces and cubes); the y below."""
    swatches: list[tuple[str, str, str]] = [(fill, f"{kind} district", "cell") for kind, fill in DISTRICT_FILL.items()]
    swatches += [(BORDER, "a district's border", "border"), (DEVELOPMENT, "a Development (its tile number)", "rect"),
                 ("#aaaaaa", "an empty rail space", "dash"), ("#aaaaaa", "a double rail space", "double"),
                 ("#ffffff", "an empty plot", "plot"), ("#888888", "a Station", "station"),
                 ("#888888", "a Hub (two Stations)", "hub"), ("#888888", "a Prime Hub", "prime"),
                 ("#888888", "a Lobbyist", "lobbyist")]
    owners = [*range(seats), *([seats] if automa else [])]
    swatches += [(seat_colour(owner), f"{owner_name(owner, seats, moment)}'s rails, Stops and Lobbyists", "rail")
                 for owner in owners]
    swatches += [(colour, f"a {resource} cube", "cube") for resource, colour in CUBE.items()]
    swatches += [("#ffffff", "an empty market space", "space"), ("#d9d9d9", "a space unused by 2 players", "space"),
                 ("#444444", "a market column's price per cube, in coins", "price")]
    svg.text(16, y, "Legend", 13, font_weight="bold")
    x, y = 16.0, y + 22
    with svg.group(data_zone="legend"):
        for colour, label, shape in swatches:
            room = 28 + text_width(label, 12) + 12
            if x + room > width - 16:
                x, y = 16.0, y + 22
            _swatch(svg, shape, colour, x, y - 5)
            svg.text(x + 24, y, label, 12, data_legend=shape)
            x += room
    return y + 24


def _swatch(svg: Svg, shape: str, colour: str, x: float, y: float) -> None:
    """One legend symbol, drawn as on the board, centred on the height `y` from `x` (about 18 wide)."""
    if shape == "cell":
        svg.rect(x, y - 8, 18, 16, fill=colour, stroke="#bbbbbb")
    elif shape == "border":
        svg.line(x, y, x + 18, y, stroke=colour, stroke_width=3)
    elif shape in ("dash", "double"):
        for shift in ((-2.5, 2.5) if shape == "double" else (0,)):
            svg.line(x, y + shift, x + 18, y + shift, stroke=colour, stroke_width=2, stroke_dasharray="4 3")
    elif shape == "rail":
        svg.line(x, y, x + 18, y, stroke=colour, stroke_width=5)
    elif shape in ("station", "hub", "prime", "plot"):
        _stop(svg, x + 9, y, 7, colour, {"plot": 0, "station": 1, "hub": 2, "prime": 3}[shape])
    elif shape == "lobbyist":
        svg.circle(x + 9, y, 4, fill=colour, stroke="#222222")
    elif shape == "cube":
        svg.rect(x + 3, y - 6, 12, 12, fill=colour, stroke="#333333")
    elif shape == "price":
        svg.text(x + 9, y + 5, "3", 12, text_anchor="middle", fill=colour)
    else:  # a market space
        svg.rect(x + 3, y - 6, 12, 12, fill=colour, stroke="#999999")


def _stop(svg: Svg, x: float, y: float, r: float, colour: str, level: int, **attrs: Any) -> None:
    """A plot as it stands: empty (a white disc), a Station (a disc in its owner's colour), a Hub (two stacked
    discs) or the Prime Hub (a diamond)."""
    if level == 0:
        svg.circle(x, y, r, fill="#ffffff", stroke="#888888", **attrs)
    elif level == 1:
        svg.circle(x, y, r, fill=colour, stroke="#222222", stroke_width=1.5, **attrs)
    elif level == 2:
        with svg.group(**attrs):
            svg.circle(x + r * 0.3, y + r * 0.3, r, fill=colour, stroke="#222222", stroke_width=1.5)
            svg.circle(x - r * 0.2, y - r * 0.2, r, fill=colour, stroke="#222222", stroke_width=1.5)
    else:
        d = r * 1.35
        points = f"{x},{y - d} {x + d},{y} {x},{y + d} {x - d},{y}"
        svg.add("polygon", points=points, fill=colour, stroke="#000000", stroke_width=2.5, **attrs)


def agenda_face(agenda: Any) -> str:
    """An Agenda card as printed: what it counts where, and the Prestige of its top and bottom rows."""
    rows = " / ".join(f"{'+'.join(map(str, row))} → {prestige}" for row, prestige in
                      ((agenda.top, agenda.top_prestige), (agenda.bottom, agenda.bottom_prestige)))
    return f"{agenda.id} {agenda.kind.replace('_', ' ')} in {'+'.join(agenda.districts)}: {rows} Prestige"


def card_faces(view: dict[str, Any], index: Any, players: list[dict[str, Any]] | None = None,
               names: Callable[[int], str] | None = None) -> list[str]:
    """The faces of the cards and tiles the picture names by id: the Agendas the viewer sees (a hand, a secret
    Agenda; `players`: every seat's, at the end) and the Developments built, from the component data."""
    players = players or view["players"]
    shown = [card for player in players if not isinstance(player["hand"], int) for card in player["hand"]]
    shown += [p["secret"] for p in players if isinstance(p["secret"], str) and p["secret"]]
    faces = [agenda_face(index.agendas[card]) for card in dict.fromkeys(shown) if card in index.agendas]
    built = [TILES[tile] for tile in dict.fromkeys(t for t in view["block_tile"] if t is not None and t >= 0)
             if tile < len(TILES)]
    faces += [f"{tile.id} ({tile.type} {tile.zone}): {tile.text}" for tile in built]
    display = [TILES[tile] for tile, place in enumerate(view["tile_at"]) if place == -1 and tile < len(TILES)]
    if display:
        faces.append("On display: " + "; ".join(f"{tile.id} ({tile.type} {tile.zone}): {tile.text}"
                                                  for tile in display))
    return faces + [project_face(project, rows, names) for project, rows in
                    zip(view["projects"], view["project_rows"], strict=False) if 0 <= project < len(PROJECTS)]


def project_face(project: int, rows: list[list[int]], names: Callable[[int], str] | None = None) -> str:
    """A Project in play as printed (what it counts, its thresholds and their Prestige) and who lobbied it."""
    face = PROJECTS[project]
    steps = ", ".join(f"{n} → {p}" for n, p in zip(face.thresholds, face.prestige, strict=True))
    named = names or (lambda seat: f"seat {seat}")
    lobbied = "; ".join(f"{named(owner)} {plural(count, 'Lobbyist')}" for owner, count in rows)
    return f"{face.id} {face.text}: {steps} Prestige" + (f" · lobbied: {lobbied}" if lobbied else "")


def _city(svg: Svg, view: dict[str, Any], index: Any, cell: int, moment: Moment) -> None:
    """The districts as regions (a cell around each plot, coloured by type, a border between districts, each named
    once), the rail spaces and the Rails on them in their owners' colours, the Developments and the Stops."""
    def at(plot: int) -> tuple[float, float]:
        return index.plots[plot].x * cell, index.plots[plot].y * cell

    half = cell / 2
    where = {(p.x, p.y): n for n, p in enumerate(index.plots)}
    district_of = {(p.x, p.y): index.plot_district[n] for n, p in enumerate(index.plots)}
    for plot in range(len(index.plots)):
        x, y = at(plot)
        kind = index.board.districts[index.plot_district[plot]].type
        svg.rect(x - half, y - half, cell, cell, fill=DISTRICT_FILL.get(kind, "#eeeeee"))
    for (px, py), district in district_of.items():  # a border where two districts meet, and round the city
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            if district_of.get((px + dx, py + dy)) == district:
                continue
            x, y = px * cell + dx * half, py * cell + dy * half
            ex, ey = (0, half) if dx else (half, 0)
            svg.line(x - ex, y - ey, x + ex, y + ey, stroke=BORDER, stroke_width=3, stroke_linecap="square")
    inset = cell * 0.24
    developments = []
    for block, corners in enumerate(index.block_corners):
        xs, ys = zip(*map(at, corners), strict=True)
        tile = view["block_tile"][block]  # a Development's index in TILES; -1 (or None): none there
        if tile is not None and tile >= 0:
            box = (min(xs) + inset, min(ys) + inset, max(xs) - min(xs) - 2 * inset, max(ys) - min(ys) - 2 * inset)
            developments.append((tile, block, box))
    for rail, (one, other) in enumerate(index.rail_ends):
        (x1, y1), (x2, y2) = at(one), at(other)
        sides = index.board.rails[rail].sides
        for shift in ((-3.0, 3.0) if sides > 1 else (0.0,)):
            nx, ny = _normal(x1, y1, x2, y2, shift)
            svg.line(x1 + nx, y1 + ny, x2 + nx, y2 + ny, stroke="#aaaaaa", stroke_width=2, stroke_dasharray="4 4")
        owners = view["rail_owners"][rail]
        for n, owner in enumerate(owners):
            nx, ny = _normal(x1, y1, x2, y2, 5 * n - 2.5 * (len(owners) - 1))
            svg.line(x1 + nx, y1 + ny, x2 + nx, y2 + ny, stroke=seat_colour(owner), stroke_width=6,
                     stroke_linecap="round", data_rail=rail, data_owner=owner)
    for tile, block, (x, y, w, h) in developments:
        with svg.group(data_development=tile, data_block=block):
            face = TILES[tile] if tile < len(TILES) else None
            svg.rect(x, y, w, h, fill=DEVELOPMENT, stroke="#7a6330", rx=3)
            if face is not None:
                svg.add("title", f"Development {face.id} ({face.type}, {face.zone}): {face.text}")
                if cell >= CELL:  # its number on the tile when there is room (always in the faces below)
                    svg.text(x + w / 2, y + h / 2 + 1, face.id, 12, text_anchor="middle", fill="#3d3318")
            lobbyists = view["tile_lobbyists"][tile] if tile < len(view["tile_lobbyists"]) else ()
            per_row = max(1, int((w - 4) // 9))
            for n, owner in enumerate(lobbyists):  # its Lobbyists, in their owners' colours, along its foot
                svg.circle(x + 6 + 9 * (n % per_row), y + h - 6 - 9 * (n // per_row), 4, fill=seat_colour(owner),
                           stroke="#222222", data_lobbyist=owner)
    radius = 15 if cell >= CELL else 11
    for plot, place in enumerate(index.plots):
        x, y = at(plot)
        owner, level = view["stop_owner"][plot], view["stop_level"][plot]
        if level:
            _stop(svg, x, y, radius, seat_colour(owner), level, data_stop=place.id, data_owner=owner,
                  data_level=LEVELS.get(level, level), data_plot=place.id)
        else:
            _stop(svg, x, y, radius, "#ffffff", 0, data_plot=place.id)
    taken = [(x, y, w, h) for _, _, (x, y, w, h) in developments]
    for district_index, district in enumerate(index.board.districts):
        label = district_name(district)
        named = label != district.code
        lx, ly = _label_place(label, district_index, index, where, district_of, cell, radius, taken)
        svg.text(lx, ly, label, 12, text_anchor="middle", fill="#222222" if named else "#555555",
                 font_weight="bold" if named else None, stroke="#ffffff", stroke_width=3, paint_order="stroke",
                 stroke_linejoin="round", data_district=district.code)
        taken.append((lx - text_width(label, 12) / 2, ly - 12, text_width(label, 12), 15))


def _normal(x1: float, y1: float, x2: float, y2: float, shift: float) -> tuple[float, float]:
    """The offset `shift` units across the segment (so two Rails side by side run parallel)."""
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-9)
    return -(y2 - y1) / length * shift, (x2 - x1) / length * shift


def _label_place(label: str, district: int, index: Any, where: dict[tuple[int, int], int],
                 district_of: dict[tuple[int, int], int], cell: int, radius: float,
                 taken: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """Where a district's name goes (its text's middle and baseline): just above or below one of its plots, or
    between two of them side by side, the place that stays most inside the district and the city and covers the
    fewest Developments and other names."""
    width = text_width(label, 12)
    columns, rows = max(x for x, _ in where) + 1, max(y for _, y in where) + 1
    half = cell / 2
    anchors: list[tuple[float, float]] = []
    for (px, py), owner in district_of.items():
        if owner != district:
            continue
        anchors.append((px * cell, py * cell))
        if district_of.get((px + 1, py)) == district:
            anchors.append(((px + 0.5) * cell, py * cell))

    def cost(x: float, y: float) -> float:
        left, right, top, bottom = x - width / 2, x + width / 2, y - 11, y + 3
        outside = max(0.0, -half - left) + max(0.0, right - (columns - 1) * cell - half)
        outside += max(0.0, -half - top) + max(0.0, bottom - (rows - 1) * cell - half)
        foreign = 0.0
        for sample in range(9):  # how much of the label lies over other districts' cells
            sx = left + (right - left) * sample / 8
            cellx, celly = round(sx / cell), round((top + bottom) / 2 / cell)
            foreign += district_of.get((cellx, celly), -1) != district
        covered = sum(max(0.0, min(right, bx + bw) - max(left, bx)) * max(0.0, min(bottom, by + bh) - max(top, by))
                      for bx, by, bw, bh in taken)
        return outside * 50 + foreign * 10 + covered

    candidates = [(x, y + dy) for x, y in anchors for dy in (radius + 14, -radius - 5)]
    return min(candidates, key=lambda c: cost(*c))


def _markets(svg: Svg, markets: list[list[int]], seats: int, x0: float, y: float, right: float,
             stack: bool = False) -> float:
    """Each market as on the board: its columns of spaces, a cube in each filled space (spent cubes come back into
    the rightmost free spaces), the spaces 2 players leave unused in grey, each column's price in coins below it;
    the markets side by side, wrapping before `right` (`stack`: one under the other); the y below."""
    with svg.group(data_zone="markets"):
        svg.text(x0, y + 14, "Markets", 13, font_weight="bold")
        x, y = x0, y + 26
        height = 4 * (SLOT + SLOT_GAP) + (34 if stack else 40)
        for resource, columns, layout in zip(RESOURCES, markets, MARKETS, strict=True):
            room = max(COLUMN * len(columns), text_width(resource, 12) + 10)
            if x > x0 and (x + room > right or stack):
                x, y = x0, y + height + 6
            svg.text(x, y + 12, resource, 12, font_weight="bold", data_market=resource, data_cubes=sum(columns))
            bottom = y + 18 + 4 * (SLOT + SLOT_GAP)
            for column, (cubes, (price, spaces, grey)) in enumerate(zip(columns, layout, strict=True)):
                cx = x + COLUMN * column
                unused = grey if seats == 2 else 0
                for space in range(spaces):  # from the bottom up: the cubes, the free spaces, the grey ones
                    sy = bottom - (space + 1) * (SLOT + SLOT_GAP)
                    if space < cubes:
                        svg.rect(cx + 2, sy, SLOT, SLOT, fill=CUBE.get(resource, "#555555"), stroke="#333333")
                    else:
                        svg.rect(cx + 2, sy, SLOT, SLOT, fill="#d9d9d9" if space >= spaces - unused else "#ffffff",
                                 stroke="#999999")
                if price:
                    svg.text(cx + 8, bottom + 14, str(price), 12, text_anchor="middle", fill="#444444")
            x += room + 24
    return y + height


def _automa(svg: Svg, automa: dict[str, Any], seats: int, y: float, moment: Moment) -> float:
    """The Automa's card, where it stands and what it has left; the y below."""
    zone = f"in the {ZONES[automa['zone']].capitalize()} Zone" if 0 <= automa["zone"] < len(ZONES) else "waiting"
    inner = (moment.width - 32 if moment.narrow else 728) - 20
    with svg.group(data_automa=automa["card"]):
        box = svg.rect(16, y, inner + 20, 30, fill="#ffffff", stroke=seat_colour(seats), rx=4)
        below = svg.para(26, y + 20, f"The Automa: card {automa['card']}, side {automa['side'].upper()}, facing "
                                     f"{automa['arrow']} · {zone} · {plural(automa['stations'], 'Station')} and "
                                     f"{plural(automa['rails'], 'rail')} left · {plural(automa['coins'], 'coin')}",
                         inner, 12)
        box.set("height", str(round(below - y - 4, 1)))
    return below


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
        zone = (f"in the {ZONES[player['zone']].capitalize()} Zone" if 0 <= player["zone"] < len(ZONES)
                else "on the Turn Order card")
        below = svg.para(26, y + 20, f"{moment.name(seat)}: {plural(player['coins'], 'coin')} · {cubes} · rails "
                                     f"{player['rails_reserve']} reserve/{player['rails_storage']} storage · "
                                     f"{plural(size, 'card')} in hand · {zone}{score}", inner, 12)
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
