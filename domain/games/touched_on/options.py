"""Match options: the Free Tram Zone variant and the engine's limits."""

from __future__ import annotations

from typing import Literal

import msgspec


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """`free_tram_zone`: "" (the default: the rulebook names no line as one, reading 23) or a line in play, on which
    no Inspector card may be played (Feet On Seat may) and whose Authorised Inspector leaves the deck.
    `max_turns_per_journey`, `max_journeys`: engine limits (deviations: the rulebook has none) so every match ends."""

    free_tram_zone: Literal["", "L1", "L2", "L3", "L4"] = msgspec.field(default="")
    max_turns_per_journey: int = msgspec.field(default=200)
    max_journeys: int = msgspec.field(default=40)
