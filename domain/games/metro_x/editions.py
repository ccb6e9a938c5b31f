"""The released editions of the Metro X rules, oldest first; the last is current. Never edit one: a rule change
adds an edition (domain/editions.py says how, and tests/conformance/test_editions.py keeps each one fixed)."""

from __future__ import annotations

from domain.editions import Edition

# The rules read no switches yet: the first change that needs one adds a `Rules` Struct here, a `rules` field to
# the State, and an edition whose switches keep edition 1 as it was (see ../expect_delays/editions.py).
EDITIONS: tuple[Edition, ...] = (
    Edition(
        rules_version="1",
        released="2026-11-23, 7942bdf (Metro X refereed)",
        changes=("The first edition: the rulebook with the readings of ../shared/rules/metro-x.md",),
    ),
)
