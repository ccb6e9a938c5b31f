"""Match options."""

from __future__ import annotations

import msgspec


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Match options. Seed: "any player may volunteer to take the first turn" (reading 16: an option)."""

    first_seat: int = 0
