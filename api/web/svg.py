"""A small SVG builder over ElementTree: every text and attribute is escaped, so no name can become markup."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import msgspec

from domain.narration import in_words

NS = "http://www.w3.org/2000/svg"
WIDE, NARROW = 760, 380  # a phone's page shows NARROW units in ≥ 388 CSS px: a unit is at least a pixel there
MIN_TEXT = 12  # no text is drawn smaller (so none renders under 12 CSS px on a phone)
# An end's reason in the header's words where its code does not read as them ("match over · scores counted").
END_WORDS = {"scored": "scores counted"}
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")


def seat_colour(seat: int | None) -> str:
    """The colour a seat is drawn in everywhere (grey for nobody)."""
    return "#999999" if seat is None or seat < 0 else PALETTE[seat % len(PALETTE)]


class Moment(msgspec.Struct, frozen=True, kw_only=True):
    """What a picture says besides the view: the players' names, who is to move and whether the match is over, all
    as of the version drawn (the same `to_move` as GET /v1/matches/{id}/state at that version)."""

    names: tuple[str, ...]
    to_move: tuple[int, ...]
    version: int
    ended: str | None = None  # the end's reason, once the version drawn is the end
    # At the end every hand is public: each seat's view then (the hands it holds), in seat order; () before the end.
    seat_views: tuple[dict[str, Any], ...] = ()
    narrow: bool = False  # a phone's picture: NARROW wide, every text at least MIN_TEXT, laid out in one column

    @property
    def width(self) -> int:
        """The width a drawing lays itself out in."""
        return NARROW if self.narrow else WIDE

    def name(self, seat: int | None) -> str:
        """`Ada (seat 0)`; `nobody` for no seat."""
        if seat is None or not 0 <= seat < len(self.names):
            return "nobody"
        return f"{self.names[seat] or 'open'} (seat {seat})"

    def short(self, seat: int) -> str:
        """The player's name alone (`seat N` when it has none)."""
        return self.names[seat] if 0 <= seat < len(self.names) and self.names[seat] else f"seat {seat}"

    def status(self, verb: str = "to act") -> str:
        """`Ada (seat 0) to act`, `Ada (seat 0) and Grace (seat 1) to act`, or how the match ended."""
        if self.ended is not None:
            return f"match over · {END_WORDS.get(self.ended, in_words(self.ended))}"
        if not self.to_move:
            return "nobody to act"
        seats = [self.name(seat) for seat in self.to_move]
        return f"{', '.join(seats[:-1])} and {seats[-1]} {verb}" if len(seats) > 1 else f"{seats[0]} {verb}"

    def attrs(self) -> dict[str, Any]:
        """Attributes for the picture's root: the version drawn and who is to move (space-separated seats)."""
        return {"data_version": self.version, "data_to_move": " ".join(map(str, self.to_move)),
                "data_ended": "true" if self.ended is not None else "false"}


def _attrs(attrs: dict[str, Any]) -> dict[str, str]:
    """Keyword names as SVG attribute names (`class_` → class, `font_size` → font-size); None values dropped."""
    return {key.rstrip("_").replace("_", "-"): str(value) for key, value in attrs.items() if value is not None}


class Svg:
    """An SVG document being drawn; `group` nests, `text` escapes."""

    def __init__(self, width: int, height: int, *, title: str, **attrs: Any) -> None:
        self.root = ET.Element("svg", {"xmlns": NS, "viewBox": f"0 0 {width} {height}", "width": str(width),
                                       "height": str(height), "role": "img", **_attrs(attrs)})
        ET.SubElement(self.root, "title").text = title
        self.current = self.root

    def add(self, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
        """Append an element to the current group."""
        element = ET.SubElement(self.current, tag, _attrs(attrs))
        if text is not None:
            element.text = text
        return element

    def rect(self, x: float, y: float, w: float, h: float, **attrs: Any) -> ET.Element:
        """A rectangle."""
        return self.add("rect", x=round(x, 1), y=round(y, 1), width=round(w, 1), height=round(h, 1), **attrs)

    def circle(self, x: float, y: float, r: float, **attrs: Any) -> ET.Element:
        """A circle."""
        return self.add("circle", cx=round(x, 1), cy=round(y, 1), r=r, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: Any) -> ET.Element:
        """A straight line."""
        return self.add("line", x1=round(x1, 1), y1=round(y1, 1), x2=round(x2, 1), y2=round(y2, 1), **attrs)

    def text(self, x: float, y: float, text: str, size: int = 12, **attrs: Any) -> ET.Element:
        """A text, escaped (never smaller than MIN_TEXT)."""
        return self.add("text", text, x=round(x, 1), y=round(y, 1), font_size=max(size, MIN_TEXT), **attrs)

    def para(self, x: float, y: float, text: str, width: float, size: int = 12, **attrs: Any) -> float:
        """A text wrapped at word boundaries into lines that fit `width` (first baseline at `y`); the y below it."""
        size = max(size, MIN_TEXT)
        lines = wrap(text, width, size, bold=attrs.get("font_weight") == "bold")
        element = self.add("text", x=round(x, 1), y=round(y, 1), font_size=size, **attrs)
        for index, line in enumerate(lines):
            dy = "0" if index == 0 else str(round(size * 1.3, 1))
            ET.SubElement(element, "tspan", {"x": str(round(x, 1)), "dy": dy}).text = line
        return y + size * 1.3 * len(lines)

    def resize(self, width: float, height: float) -> None:
        """The picture's final size, once the drawing knows how far down it went."""
        self.root.set("viewBox", f"0 0 {round(width)} {round(height)}")
        self.root.set("width", str(round(width)))
        self.root.set("height", str(round(height)))

    def group(self, **attrs: Any) -> _Group:
        """A <g> that further elements go into, as a context manager."""
        return _Group(self, self.add("g", **attrs))

    def tostring(self) -> str:
        """The document as text."""
        return ET.tostring(self.root, encoding="unicode")


class _Group:
    """Enters a <g>: elements added inside the `with` go into it."""

    def __init__(self, svg: Svg, element: ET.Element) -> None:
        self.svg, self.element, self.outer = svg, element, svg.current

    def __enter__(self) -> ET.Element:
        self.svg.current = self.element
        return self.element

    def __exit__(self, *_: object) -> None:
        self.svg.current = self.outer


def wrap(text: str, width: float, size: int, bold: bool = False) -> list[str]:
    """`text` broken at spaces into lines of at most `width` units (a character taken as 0.6 of the size, wider
    than system-ui's average, so a line never runs past its width); a word is never split."""
    per_line = max(1, int(width / (size * (0.66 if bold else 0.6))))
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def text_width(text: str, size: int) -> float:
    """The width `wrap` reckons a one-line text takes."""
    return len(text) * max(size, MIN_TEXT) * 0.6


CardFace = Callable[[Svg, str, float, float], None]


def card_rows(svg: Svg, cards: list[str], x0: float, y: float, right: float, card_w: float, card_h: float,
              face: CardFace, gap: float = 6) -> float:
    """Cards left to right from `x0`, wrapping before `right`; each drawn by `face(svg, card, x, y)`; the y below."""
    per_row = max(1, int((right - x0 + gap) // (card_w + gap)))
    for index, card in enumerate(cards):
        face(svg, card, x0 + (card_w + gap) * (index % per_row), y + (card_h + gap) * (index // per_row))
    return y + (card_h + gap) * max(1, -(-len(cards) // per_row))


def hands(svg: Svg, mine: list[str] | None, moment: Moment, y: float, face: CardFace, card_w: float, card_h: float,
          of: Callable[[dict[str, Any], int], list[str] | None] = lambda view, seat: view.get("hand")) -> float:
    """The hands the viewer may see: at the end every seat's (`of` reads a seat's hand from its view), else the
    viewer's own (None: a spectator sees none and nothing is drawn); each card marked `data-card`; the y below."""
    shown = ([(f"{moment.short(seat)}'s hand:", of(view, seat)) for seat, view in enumerate(moment.seat_views)]
             if moment.seat_views else [("Your hand:", mine)])
    with svg.group(data_zone="hand"):
        for label, cards in shown:
            if cards is None:
                continue
            svg.text(16, y + 16, label if cards else f"{label} empty", 13, font_weight="bold")
            y = card_rows(svg, cards, 16, y + 24, moment.width - 16, card_w, card_h, face) if cards else y + 24
    return y + 6


def face_card(name: Callable[[str], str], effect: Callable[[str], str], width: float = 112,
              height: float = 78, urgent: frozenset[str] = frozenset(), mark: str = "data_card",
              plays: Callable[[str], list[dict[str, Any]]] | None = None) -> CardFace:
    """A card as printed: its name large, what it does wrapped under it, its code as a small label at the foot (all
    from the component data); the card is a group marked `mark` with the code. With `plays`, the card is a click
    target of the seat's page: `data-play` holds the move fields that mean "this card" (a JSON list of patterns;
    a move naming the card in `card` or `cards` uses it too), and the page plays the one legal move using it."""
    def face(svg: Svg, card: str, x: float, y: float) -> None:
        attrs: dict[str, Any] = {mark: card}
        if plays is not None:
            attrs.update(data_play=json.dumps(plays(card), separators=(",", ":")), tabindex=0)
        with svg.group(**attrs):
            svg.rect(x, y, width, height, fill="#ffe0e0" if card in urgent else "#fffbe6", stroke="#444444", rx=4)
            svg.text(x + 5, y + 17, name(card) or card, 13, font_weight="bold")
            said = effect(card)
            if said:
                svg.para(x + 5, y + 33, said, width - 10, 12, fill="#333333")
            svg.text(x + 5, y + height - 6, card, 12, fill="#777777", data_code=card)
    return face


def not_set_up(title: str) -> str:
    """The picture of a match whose table is not laid out yet (inside its one set-up append)."""
    svg = Svg(360, 80, title=title, data_table="none")
    svg.text(20, 45, "Setting up the table…", 16)
    return svg.tostring()
