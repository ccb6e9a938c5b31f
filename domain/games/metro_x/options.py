"""Metro X match options."""

from __future__ import annotations

from typing import Literal

import msgspec


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Which side of the subway board everyone plays (Set-up 2; "metro-city" is recommended for a first game)."""

    map: Literal["metro-city", "tube-town"] = "metro-city"
