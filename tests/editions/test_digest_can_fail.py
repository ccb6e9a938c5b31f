"""The edition digest can fail: flipping any one switch of any edition (as editing a released edition would) changes
its digest, so tests/editions/test_digests.py would catch it."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest

from domain.catalog import EDITIONS, PACKAGES
from domain.editions import bind
from domain.engine import Game
from tests.editions.digests import digest, key, recorded

SWITCHED = [game for editions in EDITIONS.values() for game in editions.values() if game.rules is not None]


def _flipped(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return "L2" if value != "L2" else "L3"


@pytest.mark.parametrize("game", SWITCHED, ids=key)
def test_editing_any_switch_of_an_edition_fails_the_digest(game: Game[Any]) -> None:
    """The digest is no check that cannot fail: each switch of each edition is exercised by its playouts, so
    changing any one of them (as editing an old edition would) changes the digest."""
    edition = next(e for e in game.editions if e.rules_version == game.rules_version)
    package = next(record for record in PACKAGES if record.slug == game.slug)
    for field in msgspec.structs.fields(game.rules):
        changed = msgspec.structs.replace(game.rules, **{field.name: _flipped(getattr(game.rules, field.name))})
        edited = bind(package, dataclasses.replace(edition, rules=changed))
        assert digest(edited) != recorded()[key(game)], f"{key(game)}: switch {field.name} is never exercised"
