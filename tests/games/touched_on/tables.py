"""Small Touched On tables for rule tests: a journey dealt from chosen hands, then changed as a test needs."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.components import evader_ids, exp_cards, lines_for
from domain.games.touched_on.state import Carriage, State
from tests.games.given import given

replace = msgspec.structs.replace


def evaders(line: str, *numbers: int) -> tuple[str, ...]:
    """Evader ids of `line` by number: evaders("L2", 1, 2) -> ("EV-L2-1", "EV-L2-2")."""
    ids = evader_ids(line)
    return tuple(ids[n - 1] for n in numbers)


def carriage(line: str, owner: int, *cards: str) -> Carriage:
    """A carriage on `line` whose Evaders `owner` added last."""
    return Carriage(line=line, cards=tuple(cards), owner=owner)


def table(
    hands: Sequence[Sequence[str]],
    *,
    draw: Sequence[str] = (),
    exp_pile: Sequence[str] | None = None,
    dealer: int | None = None,
    turn: int | None = None,
    **changes: object,
) -> State:
    """A table built from set-up events: a journey dealt with these `hands` and `draw` pile, the turn started
    for `turn` (default: left of the dealer; the dealer defaults to the last seat), then `changes` applied.
    The Exp pile defaults to XP-01..XP-12 in order, so L1 hides XP-01, L2 XP-02, and so on."""
    seats = len(hands)
    dealer = seats - 1 if dealer is None else dealer
    pile = tuple(exp_cards(seats)) if exp_pile is None else tuple(exp_pile)
    state = given(
        GAME,
        ev.GameSetUp(
            seats=seats, lines=lines_for(seats), dealer=dealer, exp_pile=pile, exp_count=len(pile),
            max_turns_per_journey=200, max_journeys=40,
        ),
        ev.JourneyDealt(
            journey=1, dealer=dealer, hands=tuple(tuple(h) for h in hands), hand_sizes=tuple(len(h) for h in hands),
            draw_pile=tuple(draw), draw_size=len(draw),
        ),
        ev.TurnStarted(seat=(dealer + 1) % seats if turn is None else turn),
    ).state
    return replace(state, **changes) if changes else state


APPEAL, SEAT, FEET, PEAK, TRACKER = "PW-01", "PW-02", "PW-04", "PW-05", "PW-06"  # DEFAULT Power kinds by id
APPEAL_2, SEAT_2 = "PW-07", "PW-03"
