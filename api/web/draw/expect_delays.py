"""Expect Delays: the Subway Lines with their stops and riders, the Platform, the seats and the viewer's hand."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, face_card, hands, seat_colour
from domain.games.expect_delays.components import ADVISORIES, TRAIN_CARDS
from domain.narration import in_words, plural

RIDER_COLOUR = {"commuter": "#333333", "tourist": "#f2c200"}
LINE_COLOUR = {"pink": "#e377c2", "cyan": "#17becf", "blue": "#1f77b4", "orange": "#ff7f0e"}


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it, laid out in the moment's width (a phone's: one column)."""
    width = moment.width
    svg = Svg(width, 100, title="Expect Delays table", data_game="expect-delays", **moment.attrs())
    left = f" ({plural(view['actions_left'], 'action')} left)" if moment.to_move else ""
    y = svg.para(16, 24, f"Turn {view['turn']} of {view['max_turns']} · {moment.status()}{left}", width - 32, 14,
                 data_turn=view["turn"], data_header="", font_weight="bold") + 14
    for line in view["lines"]:
        y = _line(svg, line, y, moment)
    with svg.group(data_zone="platform"):
        svg.rect(16, y, 300, 30, fill="#eeeeee", stroke="#666666", rx=6)
        svg.text(26, y + 20, f"Platform: {plural(view['platform_fare_swipes'], 'fare swipe')}, "
                             f"{plural(view['platform_tourists'], 'tourist')}", 13,
                 data_fare_swipes=view["platform_fare_swipes"], data_tourists=view["platform_tourists"])
    y = svg.para(16, y + 52, f"Train deck {view['train_deck_size']} · discard {len(view['discard_pile'])} · "
                             f"out of service {len(view['out_of_service'])}", width - 32, 12,
                 data_deck=view["train_deck_size"])
    y = svg.para(16, y, f"Advisory: {_advisory(view['active_advisory'])} · next: {_advisory(view['next_advisory'])}",
                 width - 32, 12, data_advisory=view["active_advisory"] or "") + 4
    for seat in view["seats"]:
        y = _seat(svg, seat, y, seat["seat"] in moment.to_move, moment)
    # A card in the hand is a click target: the move naming it (in `card` or `cards`), when it is the only one.
    y = hands(svg, view["hand"], moment, y, face_card(_name, _effect, 112, plays=lambda card: []), 112, 78)
    y = svg.para(16, y + 14, "A Train card runs the lines it names (U: Uptown, D: Downtown) and gives its Fare "
                             "Swipes when put out of service", width - 32, 12, fill="#555555", data_zone="legend")
    y = _legend(svg, y + 4, width)
    svg.resize(width, y + 10)
    return svg.tostring()


def _legend(svg: Svg, y: float, width: int) -> float:
    """What the rider colours mean; the y below."""
    x = 16.0
    for rider, colour in RIDER_COLOUR.items():
        if x + 110 > width:
            x, y = 16.0, y + 20
        svg.circle(x + 6, y + 8, 7, fill=colour)
        svg.text(x + 18, y + 13, rider, 12)
        x += 110
    return y + 22


def _advisory(card: str | None) -> str:
    """A Service Advisory by its printed name and kind (component data), or a dash."""
    face = ADVISORIES.get(card or "")
    return f"{face.name} ({in_words(face.kind)})" if face else "-"


def _name(card: str) -> str:
    """A Train card's name: the lines it runs (its symbols, component data)."""
    face = TRAIN_CARDS.get(card)
    return f"Train {'/'.join(face.symbols)}" if face else card


def _effect(card: str) -> str:
    """What a Train card gives besides running its lines: its Fare Swipes, when put out of service."""
    face = TRAIN_CARDS.get(card)
    return f"{plural(face.fare_swipes, 'Fare Swipe')} out of service" if face else ""


def _line(svg: Svg, line: dict[str, Any], y: float, moment: Moment) -> float:
    """One Subway Line: its name and owner, a track, a circle per stop, a rider on an occupied stop; the y below.
    On a phone the name goes above the track, which takes the whole width."""
    colour = LINE_COLOUR.get(line["colour"], line["colour"])
    stops = line["stops"]
    with svg.group(data_line=line["id"], data_owner=line["owner"]):
        label = f"{line['id']} · {moment.short(line['owner'])}"
        if moment.narrow:
            svg.text(16, y + 4, label, 13, fill=seat_colour(line["owner"]), font_weight="bold")
            y += 26
            x0, step = 30.0, (moment.width - 60) / max(1, len(stops) - 1)
        else:
            svg.text(16, y + 5, label, 13, fill=seat_colour(line["owner"]), font_weight="bold")
            x0, step = 150.0, min(80.0, (moment.width - 180) / max(1, len(stops) - 1))
        svg.line(x0, y, x0 + step * (len(stops) - 1), y, stroke=colour, stroke_width=8, stroke_linecap="round")
        for index, rider in enumerate(stops):
            x = x0 + step * index
            svg.circle(x, y, 11, fill="#ffffff", stroke=colour, stroke_width=3, data_stop=index)
            if rider is not None:
                svg.circle(x, y, 7, fill=RIDER_COLOUR.get(rider, "#888888"), data_rider=rider, data_at=index)
    return y + 40


def _seat(svg: Svg, seat: dict[str, Any], y: float, active: bool, moment: Moment) -> float:
    """A seat's public counts in a box that grows with its wrapped text; the y below."""
    with svg.group(data_seat=seat["seat"], data_points=seat["points"], data_hand_size=seat["hand_size"]):
        box = svg.rect(16, y, moment.width - 32, 30, fill="#ffffff", stroke=seat_colour(seat["seat"]),
                       stroke_width=3 if active else 1, rx=4)
        below = svg.para(26, y + 20, f"{moment.name(seat['seat'])}, {seat['name']}: "
                                     f"{plural(seat['points'], 'point')} · "
                                     f"{plural(seat['fare_swipes'], 'fare swipe')} · "
                                     f"{plural(seat['commuters_in_pool'], 'commuter')} in pool · "
                                     f"{plural(seat['riders_on_lines'], 'rider')} on lines · "
                                     f"{plural(seat['hand_size'], 'card')} in hand", moment.width - 52, 13)
        box.set("height", str(round(below - y - 4, 1)))
    return below + 4
