"""Small Expect Delays tables for rule tests: a state after set-up, changed as a test needs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from domain.games.expect_delays.components import LINE_ORDER, TRAIN_CARDS
from domain.games.expect_delays.events import GameSetUp
from domain.games.expect_delays.state import State, evolve

UPTOWN, DOWNTOWN = 0, 1
MARKS = {".": None, "C": "commuter", "t": "tourist"}


def table(
    *,
    hands: Sequence[Sequence[str]] = ((), ()),
    discard: Sequence[str] = (),
    out_of_service: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    lines: Mapping[str, str] | None = None,
    **changes: object,
) -> State:
    """A table after set-up, changed as asked. `lines` draws tracks as text, e.g. {"U1": "C..t..."}
    (C a Commuter, t a Tourist, . an empty stop); by default the deck holds every other Train card."""
    state = evolve(None, GameSetUp(seats=2, max_turns=300))
    placed = {card for pile in (*hands, discard, out_of_service) for card in pile}
    if deck is None:
        deck = [card for card in TRAIN_CARDS if card not in placed]
    drawn = {line: "." * len(state.tracks[0]) for line in LINE_ORDER} | dict(lines or {})
    tracks = tuple(tuple(MARKS[mark] for mark in drawn[line]) for line in LINE_ORDER)
    return msgspec.structs.replace(
        state,
        hands=tuple(tuple(hand) for hand in hands),
        discard_pile=tuple(discard),
        out_of_service=tuple(out_of_service),
        train_deck=tuple(deck),
        tracks=tracks,
        **changes,
    )


def track(state: State, line: str) -> str:
    """A line's stops as text, the way `table(lines=...)` takes them."""
    marks = {rider: mark for mark, rider in MARKS.items()}
    return "".join(marks[rider] for rider in state.track(line))
