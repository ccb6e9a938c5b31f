"""Mass Transit: the routes of cards from Big City, the commuters riding them, the hands and the viewer's cards."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, hands, seat_colour
from domain.games.mass_transit.components import CARDS, LINES
from domain.narration import plural

CARD_W, CARD_H, GAP = 84, 72, 6
WIDE = 860  # a route of eight cards a row beside its Big City; a phone's picture is Moment.width, four a row
# The seed's line colours (geekdad): grey road (bus), blue canal (ferry), red rail (train).
LINE_COLOUR = {"road": "#8c8c8c", "canal": "#1f77b4", "rail": "#d62728"}
FEATURE = {"station": "S", "traffic": "T", "station_deadend": "S|", "plain": "", "none": ""}
# A Null card moves no Commuter (the legend says so).
MOVE_LABEL = {"walk": "Walk", "bus": "Bus", "ferry": "Ferry", "train": "Train", "null": "Null"}


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it: routes first, then the seats and the hands (a phone: one column)."""
    width = moment.width if moment.narrow else WIDE
    svg = Svg(width, 100, title="Mass Transit table", data_game="mass-transit", data_status=view["status"],
              **moment.attrs())
    playing = "" if moment.ended is not None else f" · {view['status']}"  # the end's words say won or lost
    y = svg.para(16, 24, f"Turn {view['turn']} · {moment.status('to play')} · commuters home {view['home']} · "
                         f"deck {view['deck_size']} · discards {len(view['discards'])}{playing}",
                 width - 32, 14, data_home=view["home"], data_header="", font_weight="bold")
    riders = {c["route"]: c for c in view["commuters"]}
    for index, cards in enumerate(view["routes"]):
        y = _route(svg, index, cards, riders.get(index), y + 6, width, moment.narrow)
    y += 10
    for seat, size in enumerate(view["hand_sizes"]):
        with svg.group(data_seat=seat, data_hand_size=size):
            svg.text(16, y + 16, f"{moment.name(seat)}: {plural(size, 'card')} in hand", 13, fill=seat_colour(seat),
                     font_weight="bold" if seat in moment.to_move else None)
        y += 24
    y = hands(svg, view["hand"] if view["seat"] is not None else None, moment, y,
              lambda svg, card, x, y: _card(svg, card, x, y, data_card=card), CARD_W, CARD_H)
    y = _legend(svg, y + 16, width)
    svg.resize(width, y + 6)
    return svg.tostring()


def _card(svg: Svg, card: str, x: float, y: float, **attrs: object) -> None:
    """A card face from the component data: its move (or Suburbs distance), its three lines with their Stations (S)
    and Traffic Stops (T), a red frame when Urgent, and its code as a small label."""
    face = CARDS.get(card)
    urgent = face is not None and face.urgent
    svg.rect(x, y, CARD_W, CARD_H, fill="#ffffff", stroke="#d62728" if urgent else "#555555",
             stroke_width=2.5 if urgent else 1, rx=4, **attrs)
    if face is None:
        svg.text(x + 5, y + 20, card, 12)
        return
    title = f"Suburbs {face.suburbs}" if face.is_suburbs else MOVE_LABEL[face.move]
    if face.move == "null":  # the seed's Null card: a yellow banner, and no movement icon
        svg.rect(x + 1, y + 1, CARD_W - 2, 18, fill="#ffe066", rx=3)
    svg.text(x + 4, y + 14, title, 13, font_weight="bold", fill="#2ca02c" if face.is_suburbs else "#1b1b1b")
    for row, line in enumerate(LINES):
        feature = face.feature(line)
        if feature == "none":
            continue
        ly = y + 22 + 13 * row
        svg.line(x + 4, ly, x + CARD_W - 22, ly, stroke=LINE_COLOUR[line], stroke_width=3)
        if FEATURE[feature]:
            svg.text(x + CARD_W - 19, ly + 5, FEATURE[feature], 12, fill=LINE_COLOUR[line], font_weight="bold")
    svg.text(x + 4, y + CARD_H - 5, card, 12, fill="#666666", data_code=card)


def _legend(svg: Svg, y: float, width: int) -> float:
    """What the card faces mean; the y below."""
    svg.text(16, y, "Legend:", 13, font_weight="bold")
    x, y = 16.0, y + 20
    for line, vehicle in zip(LINES, ("bus", "ferry", "train"), strict=True):
        if x + 120 > width:
            x, y = 16.0, y + 20
        svg.line(x, y - 4, x + 24, y - 4, stroke=LINE_COLOUR[line], stroke_width=3)
        svg.text(x + 28, y, f"{line} ({vehicle})", 12)
        x += 124
    return svg.para(16, y + 20, "S a Station · T a Traffic Stop · red frame: Urgent · Null (yellow banner): a card "
                                "that moves no Commuter · ● a Commuter (green: home)", width - 32, 12)


def _route(svg: Svg, index: int, cards: list[str], rider: dict[str, Any] | None, y: float, width: int,
           narrow: bool) -> float:
    """One route: Big City, then its cards in order (wrapping at the width; on a phone Big City stands above them);
    the commuter on the card it stands on (-1: Big City); the y below."""
    with svg.group(data_route=index, data_length=len(cards)):
        svg.rect(16, y, 100, 44 if narrow else CARD_H, fill="#dddddd", stroke="#555555", rx=4)
        svg.text(24, y + 18, "Big City", 13, font_weight="bold")
        svg.text(24, y + 36, f"route {index + 1}", 12)
        x0, top = (16.0, y + 50) if narrow else (130.0, y)
        per_row = max(1, int((width - x0 + GAP) // (CARD_W + GAP)))

        def place(n: int) -> tuple[float, float]:
            return x0 + (CARD_W + GAP) * (n % per_row), top + (CARD_H + GAP) * (n // per_row)

        for n, card in enumerate(cards):
            _card(svg, card, *place(n), data_route_card=card)
        if rider is not None:  # the Commuter stands inside the card it is on (top right corner)
            cx, cy = (110.0, y + 10) if rider["pos"] < 0 else (place(rider["pos"])[0] + CARD_W - 10,
                                                              place(rider["pos"])[1] + 10)
            svg.circle(cx, cy, 6, fill="#2ca02c" if rider["home"] else "#333333", stroke="#ffffff",
                       data_commuter=index, data_pos=rider["pos"], data_home=str(rider["home"]).lower())
    rows = max(1, -(-len(cards) // per_row))
    return top + (CARD_H + GAP) * rows if cards or not narrow else top
