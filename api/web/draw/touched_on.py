"""Touched On: the Line cards, the carriages in play grouped by line, each seat's hand size and Exp, the hands."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, card_rows, face_card, hands, seat_colour, wrap
from domain.games.touched_on.commands import Appeal, FeetOnSeat, Inspect, PeakHour, PlayEvaders, TramTracker
from domain.games.touched_on.components import (
    DATA,
    evader_line,
    exp_value,
    is_authorised,
    is_evader,
    is_undercover,
    power_kind,
)
from domain.narration import plural

LINE_LABEL = {line.id: line.label for line in DATA.lines}
LINE_COLOUR = {"red": "#d62728", "yellow": "#d4a600", "green": "#2ca02c", "blue": "#1f77b4"}
COLOUR = {line.id: LINE_COLOUR.get(line.colour, "#1f3a93") for line in DATA.lines}
# What each Power card does, in a few words (rules/touched_on.md, the Power Notes).
POWER = {"appeal": ("Appeal", "cancels an inspection of your carriage"),
         "priority-seat": ("Priority Seat", "plays with Evaders"),
         "feet-on-seat": ("Feet On Seat", "inspects like an Undercover"),
         "peak-hour": ("Peak Hour", "others start no carriage"),
         "tram-tracker": ("Tram Tracker", "take a card from a fan, give one")}
CARD_W, CARD_H = 112, 94
SMALL_W = 112  # a card in a carriage: its name, what it does (its line's colour down its side) and its code


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it (a phone: one column)."""
    width = moment.width
    svg = Svg(width, 100, title="Touched On table", data_game="touched-on", **moment.attrs())
    current = view["current_line"]
    line = f" on {LINE_LABEL.get(current, current)}" if moment.to_move and current else ""
    over = " · over" if view["over"] and moment.ended is None else ""  # once ended, the status says so
    y = svg.para(16, 24, f"Journey {view['journey']} · {moment.status('to play')}{line} · "
                         f"draw pile {view['draw_size']} · Exp left {view['exp_left']}{over}", width - 32, 14,
                 data_journey=view["journey"], data_header="", font_weight="bold") + 4
    x = 16.0
    for line_card in view["lines"]:
        if x + 170 > width:
            x, y = 16.0, y + 48
        with svg.group(data_line=line_card["line"], data_count=line_card["count"]):
            current = line_card["line"] == view["current_line"]
            svg.rect(x, y, 170, 40, fill="#ffffff", stroke=COLOUR.get(line_card["line"], "#1f3a93"), rx=5,
                     stroke_width=4 if current else 2)
            svg.text(x + 8, y + 17, LINE_LABEL.get(line_card["line"], line_card["line"]), 13, font_weight="bold",
                     fill=COLOUR.get(line_card["line"], "#1b1b1b"))
            svg.text(x + 8, y + 33, f"{plural(line_card['count'], 'card')} left"
                                    f"{' · Exp' if line_card['exp_hidden'] else ''}", 12)
        x += 178
    y += 56
    for line_id in dict.fromkeys(c["line"] for c in sorted(view["carriages"], key=lambda c: c["line"])):
        svg.text(16, y + 14, f"{LINE_LABEL.get(line_id, line_id)}: carriages", 13, font_weight="bold",
                 fill=COLOUR.get(line_id, "#1b1b1b"), data_carriages_of=line_id)
        y += 22
        for carriage in (c for c in view["carriages"] if c["line"] == line_id):
            y = _carriage(svg, carriage, y, moment)
    for seat in view["seats"]:
        with svg.group(data_seat=seat["seat"], data_hand_size=seat["hand_size"], data_exp_total=seat["exp_total"]):
            place = f" · finished {seat['place']}" if seat["place"] else ""
            y = svg.para(16, y + 16, f"{moment.name(seat['seat'])}: {plural(seat['hand_size'], 'card')} in hand · "
                                     f"Exp {seat['exp_total']} ({plural(len(seat['exp']), 'card')}){place}",
                         width - 32, 13, fill=seat_colour(seat["seat"]),
                         font_weight="bold" if seat["seat"] in moment.to_move else None) - 10
    recent = view["carriages"][-1]["line"] if view["carriages"] else None
    y = hands(svg, view["hand"], moment, y + 12,
              face_card(name, effect, CARD_W, CARD_H, plays=lambda card: plays(card, recent)), CARD_W, CARD_H)
    svg.resize(width, y + 6)
    return svg.tostring()


def name(card: str) -> str:
    """A card's name, from its id and the component data."""
    if is_evader(card):
        return "Evader"
    if is_authorised(card):
        return "Inspector"
    if is_undercover(card):
        return "Undercover"
    kind = power_kind(card)
    if kind:
        return POWER[kind][0]
    return f"Exp {exp_value(card)}" if card.startswith("XP-") else card


def effect(card: str) -> str:
    """What a card does, in a few words."""
    if is_evader(card):
        return f"rides {LINE_LABEL.get(evader_line(card), evader_line(card))}"
    if is_authorised(card):
        line = card.removeprefix("AU-")
        return f"inspects a carriage of {LINE_LABEL.get(line, line)}"
    if is_undercover(card):
        return "inspects any carriage"
    kind = power_kind(card)
    return POWER[kind][1] if kind else ""


def _tag(command: type[Any]) -> str:
    return str(command.__struct_config__.tag)


POWER_PLAYS: dict[str, dict[str, Any]] = {
    "priority-seat": {"type": _tag(PlayEvaders), "priority_seat": True},
    "feet-on-seat": {"type": _tag(FeetOnSeat)}, "peak-hour": {"type": _tag(PeakHour)},
    "tram-tracker": {"type": _tag(TramTracker)}, "appeal": {"type": _tag(Appeal)}}


def plays(card: str, recent_line: str | None) -> list[dict[str, Any]]:
    """The moves a card in the hand is played by, as move fields (the page's click target, `face_card`): an Evader
    by playing Evaders of its line, an Authorised Inspector by inspecting the most recent carriage when it is of the
    Inspector's line, an Undercover by inspecting, a Power card by its power (a Priority Seat joins Evaders)."""
    if is_evader(card):
        return [{"type": _tag(PlayEvaders), "line": evader_line(card)}]
    if is_authorised(card):
        return [{"type": _tag(Inspect), "inspector": "authorised"}] if line_of(card) == recent_line else []
    if is_undercover(card):
        return [{"type": _tag(Inspect), "inspector": "undercover"}]
    kind = power_kind(card)
    return [POWER_PLAYS[kind]] if kind in POWER_PLAYS else []


def line_of(card: str) -> str | None:
    """The line printed on a card (an Evader's, an Authorised Inspector's), None for the others."""
    if is_evader(card):
        return evader_line(card)
    return card.removeprefix("AU-") if is_authorised(card) else None


def _carriage(svg: Svg, carriage: dict[str, Any], y: float, moment: Moment) -> float:
    """A carriage: its owner, then the cards in it as faces (wrapping at the width); the y below."""
    owner = carriage["owner"]
    lines = max((len(wrap(effect(card), SMALL_W - 14, 12)) for card in carriage["cards"]), default=1)
    height = 38 + 15.6 * lines
    with svg.group(data_carriage=carriage["line"], data_owner=owner):
        svg.text(16, y + 14, f"{moment.short(owner)}'s carriage", 12, fill=seat_colour(owner), font_weight="bold")

        def small(svg: Svg, card: str, x: float, y: float) -> None:
            svg.rect(x, y, SMALL_W, height, fill="#ffffff", stroke=seat_colour(owner), rx=4, data_carriage_card=card)
            line = line_of(card)
            if line is not None:  # the line's colour down the card's side
                svg.rect(x + 1, y + 1, 4, height - 2, fill=COLOUR.get(line, "#1f3a93"))
            svg.text(x + 9, y + 16, name(card), 12, font_weight="bold", data_kind=name(card))
            said = effect(card)
            if said:
                svg.para(x + 9, y + 31, said, SMALL_W - 14, 12, fill="#333333")
            svg.text(x + 9, y + height - 6, card, 12, fill="#777777", data_code=card)

        return card_rows(svg, carriage["cards"], 16, y + 20, moment.width - 16, SMALL_W, height, small) + 4
