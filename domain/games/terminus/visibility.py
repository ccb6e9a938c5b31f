"""Hidden information: each seat's dealt and secret Agendas, drawn Agendas before one is kept, the Agenda deck's
order and contents, and the Bonus choices before every seat has chosen. Everything else is public."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.engine import Event
from domain.games.terminus import events as ev
from domain.games.terminus.state import State
from domain.rng import Rng


def _known(state: State, seat: int | None) -> set[str]:
    known = set(state.public_agendas)
    for p in state.players:
        known.update(p.agendas)
    if seat is not None:
        me = state.players[seat]
        known.update(me.seen)
        known.add(me.secret)
    return known


def hidden_from(state: State, seat: int | None) -> frozenset[str]:
    """Agenda ids the seat (None: a spectator) must not learn now."""
    known = _known(state, seat)
    hidden = {a for a in state.deck if a not in known}
    for i, p in enumerate(state.players):
        if i != seat:
            hidden.update(a for a in p.hand if a not in known)
            if p.secret and state.phase != "over":
                hidden.add(p.secret)
    hidden.discard("")
    return frozenset(hidden)


def scramble(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal every Agenda the seat cannot see among the places it cannot see into."""
    hidden = hidden_from(state, seat)
    if len(hidden) < 2:
        return state
    deck = list(state.deck)
    players = list(state.players)
    cards = [a for a in deck if a in hidden]
    for i, p in enumerate(players):
        if i != seat:
            cards += [a for a in p.hand if a in hidden]
            cards += [p.secret] if p.secret in hidden else []
    pool = list(rng.shuffled(cards))
    deck = [pool.pop() if a in hidden else a for a in deck]
    for i, p in enumerate(players):
        if i != seat:
            hand = tuple(pool.pop() if a in hidden else a for a in p.hand)
            secret = pool.pop() if p.secret in hidden else p.secret
            players[i] = replace(p, hand=hand, secret=secret)
    return replace(state, deck=tuple(deck), players=tuple(players))


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as the seat (None: a spectator) sees it."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["deck"] = len(state.deck)
    for i, p in enumerate(data["players"]):
        del p["seen"]
        if i == seat:
            continue
        original = state.players[i]
        p["hand"] = len(original.hand)
        if state.phase != "over":
            p["secret"] = bool(original.secret)
        if state.phase == "bonus":
            p["bonus"] = original.bonus >= 0
    return data


def redact(event: Event, seat: int | None) -> Event:
    """The event as the seat (None: a spectator) may see it."""
    if isinstance(event, ev.AgendasDealt):
        hands = tuple(h if i == seat else () for i, h in enumerate(event.hands))
        return replace(event, deck=(), hands=hands)
    if isinstance(event, ev.AgendaDeckShuffled):
        return replace(event, deck=())
    if isinstance(event, ev.SecretAgendaKept) and event.seat != seat:
        return replace(event, agenda="")
    if isinstance(event, ev.AgendasDrawn) and event.seat != seat:
        return replace(event, cards=())
    if isinstance(event, ev.AgendaChosen) and event.seat != seat:
        return replace(event, returned=())
    if isinstance(event, ev.BonusChosen) and event.seat != seat:
        return replace(event, option=-1)
    return event
