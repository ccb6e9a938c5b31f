"""Checks shared by `decide` and its helpers: each raises a `Refusal` with a stable code, or returns."""

from __future__ import annotations

from collections.abc import Sequence

from domain.engine import Refusal
from domain.games.expect_delays.components import LINE_ORDER, LINES, TRACK, opponent
from domain.games.expect_delays.state import State


def known_line(line: str) -> None:
    """`line` is one of the four Subway Lines."""
    if line not in LINES:
        raise Refusal("no-such-line", f"there is no line {line!r}; lines are {', '.join(LINE_ORDER)}")


def own_line(seat: int, line: str) -> None:
    """`line` is one of the seat's own lines (rulebook, Board: never the other player's lines)."""
    known_line(line)
    if LINES[line].owner != seat:
        raise Refusal("not-your-line", f"line {line} belongs to the other player")


def opponent_line(seat: int, line: str) -> None:
    """`line` is one of the other seat's lines (rulebook, Disembark: Tourists board the opponent's lines)."""
    known_line(line)
    if LINES[line].owner != opponent(seat):
        raise Refusal("not-an-opponent-line", f"a Tourist boards one of your opponent's lines, not {line}")


def boarding_stop_open(state: State, line: str) -> None:
    """The 0 stop of `line` is free (rulebook, Board: only 1 Rider can be on any Stop at a time)."""
    if state.track(line)[0] is not None:
        raise Refusal("stop-occupied", f"the 0 stop of line {line} is occupied")


def commuter_in_pool(state: State, seat: int) -> None:
    """The seat has a Commuter off the board (rulebook, Board: not with all 3 already on the board)."""
    if state.commuters_in_pool(seat) <= 0:
        raise Refusal("no-commuter-in-pool", "all your Commuters are already on the Subway Board")


def rider_at(state: State, line: str, stop: int, rider: str, code: str) -> None:
    """A `rider` ("commuter" or "tourist") stands on `stop` of `line`."""
    if not 0 <= stop <= TRACK.last_stop or state.track(line)[stop] != rider:
        raise Refusal(code, f"there is no {rider} on stop {stop} of line {line}")


def in_hand(state: State, seat: int, card: str) -> None:
    """`card` is in the seat's hand."""
    if card not in state.hands[seat]:
        raise Refusal("card-not-in-hand", f"{card!r} is not in your hand")


def out_of_service(state: State, card: str) -> None:
    """`card` is on the Out of Service pile."""
    if card not in state.out_of_service:
        raise Refusal("not-out-of-service", f"{card!r} is not on the Out of Service pile")


def canonical(choices: Sequence[str], order: Sequence[str], what: str) -> None:
    """A set-like choice is spelt once: no repeats, in table order (card ids, or line order)."""
    rank = {item: index for index, item in enumerate(order)}
    if len(set(choices)) != len(choices) or list(choices) != sorted(choices, key=lambda c: rank.get(c, -1)):
        raise Refusal("non-canonical-choice", f"list the {what} once each, in table order")


def card_count(choices: Sequence[str], most: int, what: str) -> None:
    """Between 1 and `most` choices were given."""
    if not choices:
        raise Refusal("missing-choice", f"choose at least one {what}")
    if len(choices) > most:
        raise Refusal("too-many-cards", f"choose at most {most} {what}")


def not_given(value: object, name: str, why: str) -> None:
    """A parameter that this command does not take now was left empty."""
    if value not in (None, ()):
        raise Refusal("choice-not-applicable", f"`{name}` does not apply: {why}")


def given(value: object, name: str, why: str) -> None:
    """A parameter this command needs now was given."""
    if value in (None, ()):
        raise Refusal("missing-choice", f"`{name}` is needed: {why}")
