"""Touched On: the Line cards, the carriages in play, each seat's hand size and Exp, and the viewer's hand."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, hand, seat_colour
from domain.games.touched_on.components import DATA, evader_line, is_authorised, is_evader, is_undercover, power_kind
from domain.narration import plural

CARD_W = 64


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it."""
    carriages, seats = view["carriages"], view["seats"]
    longest = max((len(c["cards"]) for c in carriages), default=0)
    width = max(760, 160 + (CARD_W + 4) * longest)
    width = max(width, 110 + 92 * len(view["hand"] or ()))  # the viewer's hand in one row, each card named
    height = 100 + 50 * len(view["lines"]) + 50 * len(carriages) + 40 * len(seats) + 110
    svg = Svg(width, height, title="Touched On table", data_game="touched-on", **moment.attrs())
    line = f" on {view['current_line']}" if moment.to_move and view["current_line"] else ""
    svg.text(16, 24, f"Journey {view['journey']} · {moment.status('to play')}{line} · "
                     f"draw pile {view['draw_size']} · Exp left {view['exp_left']}"
                     f"{' · over' if view['over'] else ''}", 14, data_journey=view["journey"], data_header="")
    y = 50
    for line in view["lines"]:
        with svg.group(data_line=line["line"], data_count=line["count"]):
            svg.rect(16, y, 130, 40, fill="#e8f0ff", stroke="#1f3a93", rx=5,
                     stroke_width=3 if line["line"] == view["current_line"] else 1)
            svg.text(24, y + 25, f"{line['line']}: {line['count']}{' · Exp' if line['exp_hidden'] else ''}", 13)
        y += 50
    for carriage in carriages:
        _carriage(svg, carriage, y, moment)
        y += 50
    for seat in seats:
        with svg.group(data_seat=seat["seat"], data_hand_size=seat["hand_size"], data_exp_total=seat["exp_total"]):
            place = f" · finished {seat['place']}" if seat["place"] else ""
            svg.text(16, y + 18, f"{moment.name(seat['seat'])}: {plural(seat['hand_size'], 'card')} in hand · Exp "
                                 f"{seat['exp_total']} ({plural(len(seat['exp']), 'card')}){place}", 13,
                     fill=seat_colour(seat["seat"]), font_weight="bold" if seat["seat"] in moment.to_move else None)
        y += 40
    hand(svg, view["hand"], y, width=86, size=10, detail=_kind)
    svg.text(16, y + 80, "Cards: EV-<line>-<n> an Evader of that line · AU-<line> its Inspector · UC-<n> an "
                         "Undercover Inspector · PW-<n> a Power card, named by its power · XP-<n> an Exp card", 11,
             data_zone="legend")
    svg.text(16, y + 96, f"A Line shows how many of its cards are left; a carriage, the cards played on it. Card data: "
                         f"{DATA.status}", 11, fill="#b00020" if DATA.status != "SEED" else "#555555",
             data_status=DATA.status)
    return svg.tostring()


def _kind(card: str) -> str:
    """What a card is, from its id and the component data: an Evader of a line, an Inspector, a Power card."""
    if is_evader(card):
        return f"Evader {evader_line(card)}"
    if is_authorised(card):
        return "Inspector"
    if is_undercover(card):
        return "Undercover"
    kind = power_kind(card)
    return str(kind).replace("-", " ") if kind else ""


def _carriage(svg: Svg, carriage: dict[str, Any], y: float, moment: Moment) -> None:
    """A carriage: its line, its owner and the cards in it."""
    owner = carriage["owner"]
    with svg.group(data_carriage=carriage["line"], data_owner=owner):
        svg.text(16, y + 24, f"{carriage['line']} · {moment.short(owner)}", 12, fill=seat_colour(owner))
        for index, card in enumerate(carriage["cards"]):
            x = 160 + (CARD_W + 4) * index
            svg.rect(x, y, CARD_W, 36, fill="#ffffff", stroke=seat_colour(owner), rx=4, data_carriage_card=card)
            svg.text(x + 4, y + 15, card, 9)
            kind = _kind(card)
            if kind:  # what the card is, as on its face: fits the card's width
                svg.text(x + 4, y + 29, kind if len(kind) <= 13 else kind[:12] + "…", 8, data_kind=kind)

