"""One released edition of a game's rules, as a game's package lists it (`Game.editions`, oldest first): in a module
of its own, below both the engine (whose `Game` holds editions) and domain/editions.py (which binds a game to one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from domain.upcasters import Upcaster


@dataclass(frozen=True, kw_only=True)
class Edition:
    """One released edition of a game's rules.

    `changes`: what this edition changed from the one before, each with the rulebook passage behind it.
    `rules`: the switches the rules read (a frozen msgspec Struct with a `rules` field in the game's State), or
    None for a game whose rules have no switches. `options_type`, `deviations`, `default_data`, `sample_setups`:
    this edition's own, where they differ from the game record's (None: the game's). `upcasters`: (event type,
    upcaster) pairs turning payloads this edition recorded in an older shape into today's (domain/upcasters.py); a
    match of this edition decodes its events through them (domain/codec.py).
    """

    rules_version: str
    released: str
    changes: tuple[str, ...]
    rules: msgspec.Struct | None = None
    options_type: type[msgspec.Struct] | None = None
    deviations: tuple[str, ...] | None = None
    default_data: tuple[str, ...] | None = None
    sample_setups: tuple[tuple[int, dict[str, Any]], ...] | None = None
    upcasters: tuple[tuple[str, Upcaster], ...] = ()
