"""Terminus: the city map (districts, rails, stations, Developments), the markets, the players and the scores."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, seat_colour
from domain.games.terminus.components import RESOURCES, TILES, board
from domain.narration import in_words, plural

CELL = 90
DISTRICT_FILL = {"residential": "#e6f4e6", "commercial": "#e6ecfa", "industrial": "#f6ebe0"}
LEVELS = {1: "station", 2: "hub", 3: "prime hub"}


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it."""
    index = board(view["board"])
    width = max(CELL * (max(p.x for p in index.plots) + 1) + 320, 760)
    map_h = CELL * (max(p.y for p in index.plots) + 1) + 60
    faces = card_faces(view, index)
    svg = Svg(width, map_h + 60 * len(view["players"]) + 150 + 16 * ((len(faces) + 1) // 2), title="Terminus table",
              data_game="terminus", **moment.attrs())
    step = " ".join(in_words(part) for part in (view["phase"], view["step"]) if part)
    svg.text(16, 22, f"Year {view['year']} · {step} · {moment.status()} · "
                     f"deck {view['deck']}", 14, data_phase=view["phase"], data_header="")
    with svg.group(data_zone="city", transform="translate(30,50)"):
        _city(svg, view, index)
    _markets(svg, view["markets"], width - 280, 50)
    y = map_h + 10
    finals = {line["player"]: line for line in view["final"]}
    for seat, player in enumerate(view["players"]):
        _player(svg, seat, player, finals.get(seat), y, moment)
        y += 60
    below = _legend(svg, index, y + 10)
    for row in range(0, len(faces), 2):  # two a line
        svg.text(16, below + 6 + 8 * row, " · ".join(faces[row:row + 2]), 11, data_zone="faces")
    return svg.tostring()


def _legend(svg: Svg, index: Any, y: float) -> float:
    """What the plot labels and colours mean (the board's districts), and whether the board is DEFAULT data; the
    height used."""
    named = [f"{d.code} {d.name} ({d.type})" for d in index.board.districts]
    for row in range(0, len(named), 4):  # four a line: the legend stays inside the picture
        svg.text(16, y, ("Districts: " if row == 0 else "") + " · ".join(named[row:row + 4]), 11, data_zone="legend")
        y += 16
    svg.text(16, y, "Plot colours: green residential, blue commercial, brown industrial · ■ a Stop in its "
                         f"owner's colour · board data: {index.board.status}", 11,
             fill="#b00020" if index.board.status != "SEED" else "#555555", data_status=index.board.status)
    return y + 16


def agenda_face(agenda: Any) -> str:
    """An Agenda card as printed: what it counts where, and the Prestige of its top and bottom rows."""
    rows = " / ".join(f"{'+'.join(map(str, row))} → {prestige}" for row, prestige in
                      ((agenda.top, agenda.top_prestige), (agenda.bottom, agenda.bottom_prestige)))
    return f"{agenda.id} {agenda.kind.replace('_', ' ')} in {'+'.join(agenda.districts)}: {rows} Prestige"


def card_faces(view: dict[str, Any], index: Any) -> list[str]:
    """The faces of the cards and tiles the picture names by id: the Agendas the viewer sees (a hand, a secret
    Agenda) and the Developments built, from the component data."""
    shown = [card for player in view["players"] if not isinstance(player["hand"], int) for card in player["hand"]]
    shown += [p["secret"] for p in view["players"] if isinstance(p["secret"], str) and p["secret"]]
    faces = [agenda_face(index.agendas[card]) for card in dict.fromkeys(shown) if card in index.agendas]
    built = [TILES[tile] for tile in dict.fromkeys(t for t in view["block_tile"] if t is not None and t >= 0)
             if tile < len(TILES)]
    return faces + [f"{tile.id} ({tile.type} {tile.zone}): {tile.text}" for tile in built]


def _city(svg: Svg, view: dict[str, Any], index: Any) -> None:
    """Plots coloured by district, rails with their owners, Stops with their level and owner, Developments."""
    def at(plot: int) -> tuple[float, float]:
        return index.plots[plot].x * CELL, index.plots[plot].y * CELL

    for block, corners in enumerate(index.block_corners):
        xs, ys = zip(*map(at, corners), strict=True)
        tile = view["block_tile"][block]  # a Development's index in TILES; -1 (or None): none there
        if tile is not None and tile >= 0:
            svg.rect(min(xs) + 20, min(ys) + 20, max(xs) - min(xs) - 40, max(ys) - min(ys) - 40, fill="#c9b27c",
                     data_development=tile, data_block=block)
            face = TILES[tile] if tile < len(TILES) else None
            if face is not None:
                svg.text(min(xs) + 24, min(ys) + 36, face.id, 10)
                svg.text(min(xs) + 24, min(ys) + 50, face.zone, 9)
    for rail, (one, other) in enumerate(index.rail_ends):
        (x1, y1), (x2, y2) = at(one), at(other)
        owners = view["rail_owners"][rail]
        svg.line(x1, y1, x2, y2, stroke="#cccccc", stroke_width=2, stroke_dasharray="4 4")
        for n, owner in enumerate(owners):
            shift = 4 * n - 2 * (len(owners) - 1)
            svg.line(x1 + shift, y1 + shift, x2 + shift, y2 + shift, stroke=seat_colour(owner), stroke_width=5,
                     data_rail=rail, data_owner=owner)
    for plot, place in enumerate(index.plots):
        x, y = at(plot)
        district = index.board.districts[index.plot_district[plot]]
        svg.circle(x, y, 16, fill=DISTRICT_FILL.get(district.type, "#eeeeee"), stroke="#777777", data_plot=place.id)
        svg.text(x - 10, y + 28, district.code, 9)
        owner, level = view["stop_owner"][plot], view["stop_level"][plot]
        if level:
            svg.rect(x - 9, y - 9, 18, 18, fill=seat_colour(owner), stroke="#000000",
                     stroke_width=1 + level, data_stop=place.id, data_owner=owner, data_level=LEVELS.get(level, level))


def _markets(svg: Svg, markets: list[list[int]], x: float, y: float) -> None:
    """Each resource market: its cubes per column."""
    with svg.group(data_zone="markets"):
        svg.text(x, y, "Markets (cubes per column)", 12)
        for row, (resource, columns) in enumerate(zip(RESOURCES, markets, strict=True)):
            svg.text(x, y + 24 + 22 * row, f"{resource}: {' '.join(map(str, columns))}", 12, data_market=resource,
                     data_cubes=sum(columns))


def _player(svg: Svg, seat: int, player: dict[str, Any], final: dict[str, Any] | None, y: float,
            moment: Moment) -> None:
    """A player's public board, and its own hand and secret Agenda when the viewer holds them."""
    hand = player["hand"]
    size = hand if isinstance(hand, int) else len(hand)
    score = f" · Prestige {final['total']}" if final else ""
    with svg.group(data_seat=seat, data_hand_size=size, data_score=final["total"] if final else None):
        svg.rect(16, y, 728, 52, fill="#ffffff", stroke=seat_colour(seat), rx=4)
        cubes = ", ".join(plural(n, r) for n, r in zip(player["res"], RESOURCES, strict=False))
        svg.text(26, y + 20, f"{moment.name(seat)}: {plural(player['coins'], 'coin')} · {cubes} · "
                             f"rails {player['rails_reserve']} reserve/"
                             f"{player['rails_storage']} storage · {plural(size, 'card')} in hand{score}", 12)
        if not isinstance(hand, int):
            for n, card in enumerate(hand):
                svg.text(26 + 56 * n, y + 42, str(card), 11, data_card=card, data_zone="hand")
        if isinstance(player["secret"], str) and player["secret"]:
            svg.text(560, y + 42, f"Secret agenda {player['secret']}", 11, data_secret=player["secret"])
