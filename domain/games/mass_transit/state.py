"""The table of a Mass Transit match, and `evolve`: a few dull lines per event."""

from __future__ import annotations

import msgspec

from domain.engine import Event
from domain.games.mass_transit.components import CARDS, ROUTES
from domain.games.mass_transit.events import CardPlaced, CommuterMoved, Dealt, TeamLost, TurnEnded

BIG_CITY = -1


class Commuter(msgspec.Struct, frozen=True, kw_only=True):
    """One Commuter, bound to the route of the same number (readings 3, 13).

    `pos` is the index of its card on that route (-1: still in the Big City); `held` is how it may leave
    ("" freely, "walk": lying flat after walking onto a Traffic Stop card, or the vehicle it is stuck in).
    """

    pos: int = BIG_CITY
    held: str = ""
    home: bool = False


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Hands (private), draw pile top first (face down), discards and routes (public), Commuters, the turn."""

    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    discards: tuple[str, ...] = ()
    routes: tuple[tuple[str, ...], ...] = ((),) * ROUTES
    commuters: tuple[Commuter, ...] = (Commuter(),) * ROUTES
    active: int = 0
    turn: int = 1
    played: int = 0
    lost_by: int | None = None

    @property
    def seats(self) -> int:
        """How many seats play."""
        return len(self.hands)

    @property
    def home(self) -> int:
        """Commuters home in the Suburbs."""
        return sum(c.home for c in self.commuters)

    @property
    def won(self) -> bool:
        """Seed, Winning the Game: all six Commuters are home."""
        return self.home == ROUTES

    @property
    def over(self) -> bool:
        """The team has won or lost."""
        return self.won or self.lost_by is not None

    def route_closed(self, route: int) -> bool:
        """A route that already ends in a Suburbs card takes no more cards (reading 6)."""
        cards = self.routes[route]
        return bool(cards) and CARDS[cards[-1]].is_suburbs


def _replace_at(items: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*items[:index], value, *items[index + 1 :])


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(c for c in cards if c != card)


def evolve(state: State | None, event: Event) -> State:
    """The next state. No checks and no randomness: `decide` judged everything already."""
    if isinstance(event, Dealt):
        return State(hands=event.hands, deck=event.deck, active=event.first_seat)
    assert state is not None, "a Mass Transit match starts with mass-transit.dealt"
    rs = msgspec.structs.replace
    if isinstance(event, CardPlaced):
        hands = _replace_at(state.hands, event.seat, _without(state.hands[event.seat], event.card))
        routes = _replace_at(state.routes, event.route, (*state.routes[event.route], event.card))
        return rs(state, hands=hands, routes=routes, played=state.played + 1)
    if isinstance(event, CommuterMoved):
        hands = _replace_at(state.hands, event.seat, _without(state.hands[event.seat], event.card))
        moved = Commuter(pos=event.to_pos, held=event.held, home=event.home)
        commuters = _replace_at(state.commuters, event.commuter, moved)
        discards = (*state.discards, event.card)
        return rs(state, hands=hands, commuters=commuters, discards=discards, played=state.played + 1)
    if isinstance(event, TurnEnded):
        hands = _replace_at(state.hands, event.seat, (*state.hands[event.seat], *event.drawn))
        deck = tuple(c for c in state.deck if c not in event.drawn)
        return rs(state, hands=hands, deck=deck, active=event.next_seat, turn=state.turn + 1, played=0)
    if isinstance(event, TeamLost):
        return rs(state, lost_by=event.seat)
    raise ValueError(f"not a Mass Transit event: {event!r}")
