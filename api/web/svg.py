"""A small SVG builder over ElementTree: every text and attribute is escaped, so no name can become markup."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import msgspec

from domain.narration import in_words

NS = "http://www.w3.org/2000/svg"
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
            return f"match over ({in_words(self.ended)})"
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
        """A text, escaped."""
        return self.add("text", text, x=round(x, 1), y=round(y, 1), font_size=size, **attrs)

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


def hand(svg: Svg, cards: list[str] | None, y: float, *, width: int = 56, size: int = 12,
         urgent: frozenset[str] = frozenset(), detail: Callable[[str], str] | None = None) -> None:
    """The viewer's own hand, each card marked `data-card` (None: a spectator, who has none); `detail` gives the
    line printed under a card's id (what the card is, from the component data)."""
    with svg.group(data_zone="hand"):
        if cards is None:
            svg.text(16, y + 20, "Spectator: no hand is shown", 13)
            return
        svg.text(16, y + 20, "Your hand:", 13)
        for index, card in enumerate(cards):
            x = 100 + (width + 6) * index
            svg.rect(x, y, width, 40 if detail else 34, fill="#ffe0e0" if card in urgent else "#fffbe6",
                     stroke="#444444", rx=4, data_card=card)
            svg.text(x + 5, y + (16 if detail else 22), card, size)
            if detail:
                svg.text(x + 5, y + 32, detail(card), 10, fill="#333333")


def not_set_up(title: str) -> str:
    """The picture of a match whose table is not laid out yet (inside its one set-up append)."""
    svg = Svg(360, 80, title=title, data_table="none")
    svg.text(20, 45, "Setting up the table…", 16)
    return svg.tostring()
