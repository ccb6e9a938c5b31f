"""One drawing per game, from a game's view (as builtins) to an SVG picture; registered in one tuple."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api.web.draw import expect_delays, mass_transit, metro_x, terminus, touched_on
from api.web.svg import Moment

Drawing = Callable[[dict[str, Any], Moment], str]
DRAWINGS: tuple[tuple[str, Drawing], ...] = (
    ("expect-delays", expect_delays.draw),
    ("metro-x", metro_x.draw),
    ("terminus", terminus.draw),
    ("mass-transit", mass_transit.draw),
    ("touched-on", touched_on.draw),
)


def drawing(slug: str) -> Drawing:
    """The drawing of a game; KeyError for a game with none."""
    return dict(DRAWINGS)[slug]
