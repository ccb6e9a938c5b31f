"""Hidden zones: each hand belongs to its seat, the draw pile to nobody; the map and discards are public."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain.engine import Event
from domain.games.mass_transit.components import CARDS
from domain.games.mass_transit.events import Dealt, Mulligan, TurnEnded
from domain.games.mass_transit.state import State
from domain.rng import Rng, in_order


class CommuterView(msgspec.Struct, frozen=True, kw_only=True):
    """A Commuter as everyone sees it: its route, the card it stands on (-1 Big City), how it may leave."""

    route: int
    pos: int
    held: str
    home: bool


class MassTransitView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat (or a spectator, `seat` None) may see of the table."""

    seat: int | None
    hand: tuple[str, ...]
    urgent_in_hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discards: tuple[str, ...]
    routes: tuple[tuple[str, ...], ...]
    commuters: tuple[CommuterView, ...]
    active: int
    turn: int
    played: int
    home: int
    status: str


def status(state: State) -> str:
    """`playing`, `won` or `lost`."""
    return "won" if state.won else "lost" if state.lost_by is not None else "playing"


def view(state: State, seat: int | None) -> MassTransitView:
    """Seed, Setup: "You may look at the cards in your own hand but do not show your cards to others"."""
    hand = state.hands[seat] if seat is not None else ()
    return MassTransitView(
        seat=seat,
        hand=hand,
        urgent_in_hand=tuple(c for c in hand if CARDS[c].urgent),
        hand_sizes=tuple(len(h) for h in state.hands),
        deck_size=len(state.deck),
        discards=state.discards,
        routes=state.routes,
        commuters=tuple(
            CommuterView(route=i, pos=c.pos, held=c.held, home=c.home) for i, c in enumerate(state.commuters)
        ),
        active=state.active,
        turn=state.turn,
        played=state.played,
        home=state.home,
        status=status(state),
    )


def hidden_from(state: State, seat: int | None) -> frozenset[str]:
    """The draw pile and every other seat's hand."""
    others = (c for s, hand in enumerate(state.hands) if s != seat for c in hand)
    return frozenset((*state.deck, *others))


def redact(event: Event, seat: int | None) -> Event:
    """Events as `seat` may see them: other hands and the draw pile become counts."""
    rs = msgspec.structs.replace
    if isinstance(event, Dealt):
        hands = tuple(hand if s == seat else () for s, hand in enumerate(event.hands))
        # Set-aside mulligan cards went back into the (face-down) draw pile: only their number stays.
        mulligans = tuple(Mulligan(seat=m.seat, count=m.count) for m in event.mulligans)
        return rs(event, hands=hands, deck=(), mulligans=mulligans)
    if isinstance(event, TurnEnded) and event.seat != seat:
        return rs(event, drawn=())
    return event


def scramble(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal what `seat` cannot see: the draw pile and the other hands, keeping every size."""
    return _redeal(state, seat, rng.shuffled)


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A complete table `seat` cannot tell from this one, drawn at random from what it sees (a search bot's sample):
    the unseen cards are laid out in a fixed order first, so the hidden arrangement it was given cannot leak."""
    return scramble(_redeal(state, seat, in_order), seat, rng)


def _redeal(state: State, seat: int | None, order: Callable[[Sequence[str]], tuple[str, ...]]) -> State:
    others = [s for s in range(state.seats) if s != seat]
    pool = list(order((*state.deck, *(c for s in others for c in state.hands[s]))))
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(pool[:size]), pool[size:]
    return msgspec.structs.replace(state, hands=tuple(hands), deck=tuple(pool))
