"""Mass Transit: the routes of cards from Big City, the commuters riding them, the hands and the viewer's cards."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, hand, seat_colour

CARD_W = 54


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it."""
    routes = view["routes"]
    longest = max((len(r) for r in routes), default=0)
    width = max(760, 140 + (CARD_W + 6) * (longest + 1))
    height = 80 + 56 * len(routes) + 40 * len(view["hand_sizes"]) + 80
    svg = Svg(width, height, title="Mass Transit table", data_game="mass-transit", data_status=view["status"],
              **moment.attrs())
    svg.text(16, 24, f"Turn {view['turn']} · {moment.status('to play')} · commuters home {view['home']} · "
                     f"deck {view['deck_size']} · discards {len(view['discards'])} · {view['status']}", 14,
             data_home=view["home"], data_header="")
    riders = {c["route"]: c for c in view["commuters"]}
    y = 60
    for index, cards in enumerate(routes):
        _route(svg, index, cards, riders.get(index), y)
        y += 56
    for seat, size in enumerate(view["hand_sizes"]):
        with svg.group(data_seat=seat, data_hand_size=size):
            svg.text(16, y + 16, f"{moment.name(seat)}: {size} cards in hand", 13, fill=seat_colour(seat),
                     font_weight="bold" if seat in moment.to_move else None)
        y += 40
    hand(svg, None if view["seat"] is None else view["hand"], y, urgent=frozenset(view["urgent_in_hand"]))
    return svg.tostring()


def _route(svg: Svg, index: int, cards: list[str], rider: dict[str, Any] | None, y: float) -> None:
    """One route: Big City, then its cards in order; the commuter on the card it stands on (-1: Big City)."""
    with svg.group(data_route=index, data_length=len(cards)):
        svg.rect(16, y, 100, 36, fill="#dddddd", stroke="#555555", rx=4)
        svg.text(24, y + 22, f"Big City · {index}", 11)
        for place, card in enumerate(cards):
            x = 130 + (CARD_W + 6) * place
            svg.rect(x, y, CARD_W, 36, fill="#ffffff", stroke="#555555", rx=4, data_route_card=card)
            svg.text(x + 6, y + 22, card, 12)
        if rider is not None:
            x = 66 if rider["pos"] < 0 else 130 + (CARD_W + 6) * rider["pos"] + CARD_W / 2
            svg.circle(x, y + 36, 8, fill="#2ca02c" if rider["home"] else "#333333", data_commuter=index,
                       data_pos=rider["pos"], data_home=str(rider["home"]).lower())
