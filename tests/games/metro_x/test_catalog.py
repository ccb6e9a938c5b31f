"""Metro X's catalog entry says where the engine reads the rulebook more loosely than its letter."""

from __future__ import annotations

from domain.games.metro_x.game import GAME


def test_declining_a_free_space_and_a_transfer_without_its_number_are_listed_as_deviations() -> None:
    """Readings 4 and 13 (shared/rules/metro-x.md): the engine offers `metro-x.pass` on a Free Space card and a
    Transfer that writes only its X; both depart from the rulebook's letter, so the catalog names them."""
    assert any("metro-x.pass" in line and "Free Space" in line for line in GAME.deviations)
    assert any("write_number" in line and "Transfer" in line for line in GAME.deviations)
    assert GAME.rules_version == "1", "a catalog text is no rules change"
