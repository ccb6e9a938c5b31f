"""Match options."""

from __future__ import annotations

from typing import Annotated

import msgspec

TurnCount = Annotated[int, msgspec.Meta(ge=1, le=100_000)]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """`max_turns` is an engine limit, not a rule (reading 20, a listed deviation): after that many turns
    (both seats' turns counted) the match ends and is scored like a deck-exhaustion end."""

    max_turns: TurnCount = 300
