"""Mass Transit: the routes of cards from Big City, the commuters riding them, the hands and the viewer's cards."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, seat_colour
from domain.games.mass_transit.components import CARDS, DATA, LINES
from domain.narration import plural

CARD_W, CARD_H = 66, 50
# Cards per row of a route: a longer route wraps, so the picture stays 860 wide and its text legible at any length.
PER_ROW = 10
# The seed's line colours (geekdad): grey road (bus), blue canal (ferry), red rail (train).
LINE_COLOUR = {"road": "#8c8c8c", "canal": "#1f77b4", "rail": "#d62728"}
FEATURE = {"station": "S", "traffic": "T", "station_deadend": "S|", "plain": "", "none": ""}
MOVE_LABEL = {"walk": "walk", "bus": "bus", "ferry": "ferry", "train": "train", "null": "null"}


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it."""
    routes = view["routes"]
    rows = [_rows(cards) for cards in routes]
    width = 140 + (CARD_W + 6) * PER_ROW
    height = 80 + 64 * sum(rows) + 30 * len(view["hand_sizes"]) + 150
    svg = Svg(width, height, title="Mass Transit table", data_game="mass-transit", data_status=view["status"],
              **moment.attrs())
    svg.text(16, 24, f"Turn {view['turn']} · {moment.status('to play')} · commuters home {view['home']} · "
                     f"deck {view['deck_size']} · discards {len(view['discards'])} · {view['status']}", 14,
             data_home=view["home"], data_header="")
    riders = {c["route"]: c for c in view["commuters"]}
    y = 44
    for index, cards in enumerate(routes):
        _route(svg, index, cards, riders.get(index), y)
        y += 64 * rows[index]
    for seat, size in enumerate(view["hand_sizes"]):
        with svg.group(data_seat=seat, data_hand_size=size):
            svg.text(16, y + 16, f"{moment.name(seat)}: {plural(size, 'card')} in hand", 13, fill=seat_colour(seat),
                     font_weight="bold" if seat in moment.to_move else None)
        y += 30
    with svg.group(data_zone="hand"):
        if view["seat"] is None:
            svg.text(16, y + 24, "Spectator: no hand is shown", 13)
        else:
            svg.text(16, y + 30, "Your hand:", 13)
            for place, card in enumerate(view["hand"]):
                _card(svg, card, 100 + (CARD_W + 8) * place, y + 6, data_card=card)
    _legend(svg, y + 84)
    return svg.tostring()


def _card(svg: Svg, card: str, x: float, y: float, **attrs: object) -> None:
    """A card face from the component data: its move (or Suburbs distance), its three lines with their Stations (S)
    and Traffic Stops (T), a red frame when Urgent, and its id small."""
    face = CARDS.get(card)
    urgent = face is not None and face.urgent
    svg.rect(x, y, CARD_W, CARD_H, fill="#ffffff", stroke="#d62728" if urgent else "#555555",
             stroke_width=2.5 if urgent else 1, rx=4, **attrs)
    if face is None:
        svg.text(x + 5, y + 20, card, 11)
        return
    title = f"Suburbs {face.suburbs}" if face.is_suburbs else MOVE_LABEL[face.move]
    svg.text(x + 4, y + 13, title, 11, font_weight="bold", fill="#2ca02c" if face.is_suburbs else "#1b1b1b")
    for row, line in enumerate(LINES):
        feature = face.feature(line)
        if feature == "none":
            continue
        ly = y + 21 + 8 * row
        svg.line(x + 4, ly, x + CARD_W - 16, ly, stroke=LINE_COLOUR[line], stroke_width=3)
        if FEATURE[feature]:
            svg.text(x + CARD_W - 14, ly + 3, FEATURE[feature], 8, fill=LINE_COLOUR[line], font_weight="bold")
    svg.text(x + 4, y + CARD_H - 3, card + (" · urgent" if urgent else ""), 8, fill="#555555")


def _legend(svg: Svg, y: float) -> None:
    """What the card faces mean, and whether the deck is the rulebook's or DEFAULT data."""
    svg.text(16, y, "Legend:", 12, font_weight="bold")
    x = 80
    for line, vehicle in zip(LINES, ("bus", "ferry", "train"), strict=True):
        svg.line(x, y - 4, x + 24, y - 4, stroke=LINE_COLOUR[line], stroke_width=3)
        svg.text(x + 28, y, f"{line} ({vehicle})", 11)
        x += 118
    svg.text(x, y, "S station · T Traffic Stop · red frame: Urgent · ● Commuter (green: home)", 11)
    svg.text(16, y + 18, f"Card data: {DATA.status}", 11, fill="#b00020" if DATA.status != "SEED" else "#555555",
             data_status=DATA.status)


def _rows(cards: list[str]) -> int:
    """The rows a route of these cards takes (at least one, for Big City)."""
    return max(1, -(-len(cards) // PER_ROW))


def _place(place: int, y: float) -> tuple[float, float]:
    """Where the route's card number `place` lies: rows of PER_ROW cards after Big City."""
    return 130 + (CARD_W + 6) * (place % PER_ROW), y + 64 * (place // PER_ROW)


def _route(svg: Svg, index: int, cards: list[str], rider: dict[str, Any] | None, y: float) -> None:
    """One route: Big City, then its cards in order (wrapping after PER_ROW); the commuter on the card it stands on
    (-1: Big City)."""
    with svg.group(data_route=index, data_length=len(cards)):
        svg.rect(16, y, 100, CARD_H, fill="#dddddd", stroke="#555555", rx=4)
        svg.text(24, y + 20, "Big City", 12, font_weight="bold")
        svg.text(24, y + 36, f"route {index + 1}", 11)
        for place, card in enumerate(cards):
            _card(svg, card, *_place(place, y), data_route_card=card)
        if rider is not None:  # the Commuter stands inside the card it is on (top right corner)
            if rider["pos"] < 0:
                x = 104.0
            else:
                card_x, y = _place(rider["pos"], y)
                x = card_x + CARD_W - 10
            svg.circle(x, y + 10, 6, fill="#2ca02c" if rider["home"] else "#333333", stroke="#ffffff",
                       data_commuter=index, data_pos=rider["pos"], data_home=str(rider["home"]).lower())
