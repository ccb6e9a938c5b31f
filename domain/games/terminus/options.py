"""Match options: the Automa, the First Game set-up and the city board."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.games.terminus.components import BOARD_NAMES


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Match options. `automa`: the Automa, a third, non-human player of 2-seat games; unset (the default) means
    "as the rulebook says": on with 2 seats (2-Player Game, reading 33), off with more; `false` plays 2 seats
    without it (a deviation); `true` requires 2 seats. `first_game`: the rulebook's suggested Projects and
    Development tiles. `board`: boards/<name>.toml."""

    automa: bool | None = None
    first_game: bool = False
    board: Annotated[str, msgspec.Meta(extra_json_schema={"enum": list(BOARD_NAMES)})] = "default"
