"""Who sees what (rulebook Setup 2-3): hands are private, the Train deck is face down, and the advisory
deck lies face up so only its top card can be read. Everything else on the table is public.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain.engine import Event
from domain.games.expect_delays.components import COMPONENTS, LINE_ORDER, LINES, SETUP
from domain.games.expect_delays.events import AdvisoryDeckShuffled, CardsDrawn, TrainDeckShuffled
from domain.games.expect_delays.state import State
from domain.rng import Rng, in_order


class LineView(msgspec.Struct, frozen=True, kw_only=True):
    """One Subway Line: its owner and what stands on each stop, from the 0 stop on."""

    id: str
    owner: int
    colour: str
    stops: tuple[str | None, ...]


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """What the table shows of one seat."""

    seat: int
    name: str
    points: int
    fare_swipes: int
    commuters_in_pool: int
    riders_on_lines: int
    hand_size: int


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """The table as `viewer` sees it (None: a spectator). `hand` is the viewer's own hand only."""

    viewer: int | None
    data: str
    turn: int
    max_turns: int
    active_seat: int
    actions_left: int
    end_reason: str | None
    seats: tuple[SeatView, ...]
    hand: tuple[str, ...] | None
    lines: tuple[LineView, ...]
    platform_fare_swipes: int
    platform_tourists: int
    train_deck_size: int
    discard_pile: tuple[str, ...]
    out_of_service: tuple[str, ...]
    active_advisory: str | None
    next_advisory: str | None
    advisory_deck_size: int
    advisory_discard: tuple[str, ...]


def view(state: State, seat: int | None) -> TableView:
    """What `seat` may see: its own hand, other hands' sizes, deck sizes, and the public table."""
    return TableView(
        viewer=seat,
        data=COMPONENTS.status,
        turn=state.turn,
        max_turns=state.max_turns,
        active_seat=state.active_seat,
        actions_left=state.actions_left,
        end_reason=state.end_reason,
        seats=tuple(
            SeatView(
                seat=s,
                name=SETUP.seat_names[s],
                points=state.points[s],
                fare_swipes=state.fare_swipes[s],
                commuters_in_pool=state.commuters_in_pool(s),
                riders_on_lines=state.riders_on_lines(s),
                hand_size=len(state.hands[s]),
            )
            for s in range(len(state.hands))
        ),
        hand=None if seat is None else state.hands[seat],
        lines=tuple(
            LineView(id=line, owner=LINES[line].owner, colour=LINES[line].colour, stops=stops)
            for line, stops in zip(LINE_ORDER, state.tracks, strict=True)
        ),
        platform_fare_swipes=state.platform_fare_swipes,
        platform_tourists=state.platform_tourists,
        train_deck_size=len(state.train_deck),
        discard_pile=state.discard_pile,
        out_of_service=state.out_of_service,
        active_advisory=state.active_advisory,
        next_advisory=state.next_advisory,
        advisory_deck_size=len(state.advisory_deck),
        advisory_discard=state.advisory_discard,
    )


def redact(event: Event, seat: int | None) -> Event:
    """The event as `seat` sees it: deck orders are hidden from all (the advisory deck's top card is
    face up), and drawn cards are shown only to the seat that drew them; sizes and counts stay."""
    replace = msgspec.structs.replace
    if isinstance(event, TrainDeckShuffled):
        return replace(event, order=())
    if isinstance(event, AdvisoryDeckShuffled):
        return replace(event, order=event.order[:1])
    if isinstance(event, CardsDrawn) and event.seat != seat:
        return replace(event, cards=())
    return event


def hidden_from(state: State, seat: int | None) -> frozenset[str]:
    """Card ids `seat` must not learn now (rulebook Setup 2-3): other hands, the Train deck, the advisory deck below
    its top card."""
    hidden = set(state.train_deck) | set(state.advisory_deck[1:])
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden.update(hand)
    return frozenset(hidden)


def scramble(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal what `seat` cannot see: other hands and the Train deck, and the advisory deck below its top."""
    return _redeal(state, seat, rng.shuffled)


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A complete table `seat` cannot tell from this one, drawn at random from what it sees (a search bot's sample):
    the unseen Train cards (deck and other hands, pooled) and the advisories below the top are first laid out in a
    fixed order, so the hidden arrangement it was given cannot leak into the sample, then re-dealt by `rng`."""
    return scramble(_redeal(state, seat, in_order), seat, rng)


def _redeal(state: State, seat: int | None, order: Callable[[Sequence[str]], tuple[str, ...]]) -> State:
    others = [s for s in range(len(state.hands)) if s != seat]
    unseen = order(state.train_deck + tuple(card for s in others for card in state.hands[s]))
    deck, rest = unseen[: len(state.train_deck)], unseen[len(state.train_deck) :]
    hands = list(state.hands)
    for s in others:
        hands[s], rest = rest[: len(state.hands[s])], rest[len(state.hands[s]) :]
    advisories = state.advisory_deck[:1] + order(state.advisory_deck[1:])
    return msgspec.structs.replace(state, train_deck=deck, hands=tuple(hands), advisory_deck=advisories)
