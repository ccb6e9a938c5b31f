"""Expect Delays: the Subway Lines with their stops and riders, the Platform, the seats and the viewer's hand."""

from __future__ import annotations

from typing import Any

from api.web.svg import Moment, Svg, hand, seat_colour
from domain.games.expect_delays.components import ADVISORIES, TRAIN_CARDS
from domain.narration import in_words, plural

RIDER_COLOUR = {"commuter": "#333333", "tourist": "#f2c200"}
LINE_COLOUR = {"pink": "#e377c2", "cyan": "#17becf", "blue": "#1f77b4", "orange": "#ff7f0e"}


def draw(view: dict[str, Any], moment: Moment) -> str:
    """The table as the view shows it."""
    lines, seats = view["lines"], view["seats"]
    height = 70 + 60 * len(lines) + 40 * len(seats) + 170
    svg = Svg(760, height, title="Expect Delays table", data_game="expect-delays", **moment.attrs())
    left = f" ({plural(view['actions_left'], 'action')} left)" if moment.to_move else ""
    svg.text(16, 24, f"Turn {view['turn']} of {view['max_turns']} · {moment.status()}{left}", 14,
             data_turn=view["turn"], data_header="")
    y = 60
    for line in lines:
        _line(svg, line, y, moment)
        y += 60
    with svg.group(data_zone="platform"):
        svg.rect(16, y, 300, 44, fill="#eeeeee", stroke="#666666", rx=6)
        svg.text(26, y + 27, f"Platform: {plural(view['platform_fare_swipes'], 'fare swipe')}, "
                             f"{plural(view['platform_tourists'], 'tourist')}", 13,
                 data_fare_swipes=view["platform_fare_swipes"], data_tourists=view["platform_tourists"])
    svg.text(340, y + 18, f"Train deck {view['train_deck_size']} · discard {len(view['discard_pile'])} · "
                          f"out of service {len(view['out_of_service'])}", 12, data_deck=view["train_deck_size"])
    svg.text(340, y + 36, f"Advisory: {_advisory(view['active_advisory'])} · next: {_advisory(view['next_advisory'])}",
             12, data_advisory=view["active_advisory"] or "")
    y += 70
    for seat in seats:
        _seat(svg, seat, y, seat["seat"] in moment.to_move, moment)
        y += 40
    hand(svg, view["hand"], y + 10, width=96, detail=_face)
    svg.text(16, y + 70, f"Train cards: the lines they run · the Fare Swipes they give out of service. Card data: "
                         f"{view['data']}", 11, fill="#b00020" if view["data"] != "SEED" else "#555555",
             data_status=view["data"])
    return svg.tostring()


def _advisory(card: str | None) -> str:
    """A Service Advisory by its printed name and kind (component data), or a dash."""
    face = ADVISORIES.get(card or "")
    return f"{face.name} ({in_words(face.kind)})" if face else "-"


def _face(card: str) -> str:
    """A Train card's face: its line symbols and Fare Swipe value (component data)."""
    face = TRAIN_CARDS.get(card)
    return f"{'/'.join(face.symbols)} · {plural(face.fare_swipes, 'swipe')}" if face else ""


def _line(svg: Svg, line: dict[str, Any], y: float, moment: Moment) -> None:
    """One Subway Line: a track, a circle per stop, a rider on an occupied stop."""
    colour = LINE_COLOUR.get(line["colour"], line["colour"])
    with svg.group(data_line=line["id"], data_owner=line["owner"]):
        svg.text(16, y + 5, f"{line['id']} · {moment.short(line['owner'])}", 13, fill=seat_colour(line["owner"]))
        stops = line["stops"]
        svg.line(130, y, 130 + 80 * (len(stops) - 1), y, stroke=colour, stroke_width=8, stroke_linecap="round")
        for index, rider in enumerate(stops):
            x = 130 + 80 * index
            svg.circle(x, y, 11, fill="#ffffff", stroke=colour, stroke_width=3, data_stop=index)
            if rider is not None:
                svg.circle(x, y, 7, fill=RIDER_COLOUR.get(rider, "#888888"), data_rider=rider, data_at=index)
                svg.text(x - 20, y - 16, rider, 10)


def _seat(svg: Svg, seat: dict[str, Any], y: float, active: bool, moment: Moment) -> None:
    """A seat's public counts."""
    with svg.group(data_seat=seat["seat"], data_points=seat["points"], data_hand_size=seat["hand_size"]):
        svg.rect(16, y, 728, 32, fill="#ffffff", stroke=seat_colour(seat["seat"]), stroke_width=3 if active else 1,
                 rx=4)
        svg.text(26, y + 21, f"{moment.name(seat['seat'])}, {seat['name']}: {plural(seat['points'], 'point')} · "
                             f"{plural(seat['fare_swipes'], 'fare swipe')} · "
                             f"{plural(seat['commuters_in_pool'], 'commuter')} in pool · "
                             f"{plural(seat['riders_on_lines'], 'rider')} on lines · "
                             f"{plural(seat['hand_size'], 'card')} in hand", 13)

