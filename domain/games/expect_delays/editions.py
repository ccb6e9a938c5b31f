"""The released editions of the Expect Delays rules, oldest first; the last is current. Never edit one: a rule
change adds an edition (domain/editions.py says how, and tests/conformance/test_editions.py keeps each one fixed)."""

from __future__ import annotations

import msgspec

from domain.editions import Edition


class Rules(msgspec.Struct, frozen=True, kw_only=True):
    """The switches the Expect Delays rules read (from `State.rules`).

    `tourist_leaves_end_queue`: a Tourist moved while riders fill every stop ahead of it to the last one returns to
    the Platform (edition 2); edition 1 left it standing where it was."""

    tourist_leaves_end_queue: bool


EDITIONS: tuple[Edition, ...] = (
    Edition(
        rules_version="1",
        released="2026-11-23, abf5953 (Expect Delays refereed completely)",
        changes=("The first edition: the rulebook with readings 1-20 (../shared/rules/expect-delays.md)",),
        rules=Rules(tourist_leaves_end_queue=False),
        deviations=(
            "max_turns (default 300) is an engine limit, not a rule: actions are optional, so play could cycle "
            "forever; after that many turns the match ends and is scored like a deck-exhaustion end (reading 20)",
        ),
    ),
    Edition(
        rules_version="2",
        released="2026-11-23, 78ca8d7 (issue 17, item 5)",
        changes=(
            "Reading 7 revised: a Tourist that is moved but blocked by riders waiting up to the end of its line "
            "returns to the Platform, as one moved off the last stop does (Run the Line: 'They ride until the end "
            "of their Line before returning to the Platform when moved off the last Stop'; Commuters 'wait at the "
            "last Stop'). Edition 1 left it stuck for as long as the Commuter ahead waited.",
        ),
        rules=Rules(tourist_leaves_end_queue=True),
    ),
)

CURRENT: Rules = EDITIONS[-1].rules  # type: ignore[assignment]  # the state's default: the current edition's switches
