"""Hidden information: each seat's dealt and secret Agendas, drawn Agendas before one is kept, the Agenda deck's
order and contents, and the Bonus choices before every seat has chosen. Everything else is public."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.engine import Event
from domain.games.terminus.events import (
    AgendaChosen,
    AgendaDeckShuffled,
    AgendasDealt,
    AgendasDrawn,
    BonusChosen,
    SecretAgendaKept,
)
from domain.games.terminus.rules_income import choose_candidates
from domain.games.terminus.state import State
from domain.games.terminus.state_players import Player
from domain.games.terminus.state_view import TerminusView
from domain.rng import Rng, in_order

# The view keeps the shape clients have read since rules version 1, where -1 (and -2 for a tile out of the game)
# stood for "none": the state says None.
ABSENT = -1
TILE_UNUSED = -2


def _known(state: State, seat: int | None) -> set[str]:
    known = set(state.public_agendas)
    for player in state.players:
        known.update(player.agendas)
    if seat is not None:
        me = state.players[seat]
        known.update(me.seen)
        if me.secret:
            known.add(me.secret)
    return known


def hidden_from(state: State, seat: int | None) -> frozenset[str]:
    """Rules, Turn Order & Prime Hub Placement 2 ("The objective of this card remains hidden") and Draw Agendas:
    Agenda ids the seat (None: a spectator) must not learn now."""
    known = _known(state, seat)
    hidden = {agenda for agenda in state.deck if agenda not in known}
    for other, player in enumerate(state.players):
        if other != seat:
            hidden.update(agenda for agenda in player.hand if agenda not in known)
            if player.secret and state.phase != "over":
                hidden.add(player.secret)
    return frozenset(hidden)


def scramble(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal every Agenda the seat cannot see (Rules, Turn Order & Prime Hub Placement 2; Lobby Zone) among the
    places it cannot see into."""
    return _redeal(state, seat, rng.shuffled)


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A complete table `seat` cannot tell from this one, drawn at random from what it sees (a search bot's sample).
    The unseen Agendas are laid out in a fixed order first, then re-dealt; what the others have seen is forgotten; and
    while Bonuses are chosen, each other seat that has chosen gets a Bonus drawn among those it could choose."""
    forgotten = _redeal(state, seat, in_order)
    players = list(forgotten.players)
    for other, player in enumerate(players):
        if other != seat:
            players[other] = replace(player, seen=())
    sampled = scramble(replace(forgotten, players=tuple(players)), seat, rng)
    if sampled.phase != "bonus":
        return sampled
    for other, player in enumerate(sampled.players):
        if other != seat and player.bonus is not None:
            options = [command.option for command in choose_candidates(sampled, other)]
            chosen = rng.choice(options) if options else player.bonus
            sampled = replace(sampled, players=_with(sampled.players, other, replace(player, bonus=chosen)))
    return sampled


def _with(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    return (*players[:seat], player, *players[seat + 1:])


def _redeal(state: State, seat: int | None, order: Callable[[Sequence[str]], tuple[str, ...]]) -> State:
    hidden = hidden_from(state, seat)
    if len(hidden) < 2:
        return state
    deck = list(state.deck)
    players = list(state.players)
    cards = [agenda for agenda in deck if agenda in hidden]
    for other, player in enumerate(players):
        if other != seat:
            cards += [agenda for agenda in player.hand if agenda in hidden]
            cards += [player.secret] if player.secret in hidden else []
    pool = list(order(cards))
    deck = [pool.pop() if agenda in hidden else agenda for agenda in deck]
    for other, player in enumerate(players):
        if other != seat:
            hand = tuple(pool.pop() if agenda in hidden else agenda for agenda in player.hand)
            secret = pool.pop() if player.secret in hidden else player.secret
            players[other] = replace(player, hand=hand, secret=secret)
    return replace(state, deck=tuple(deck), players=tuple(players))


def view(state: State, seat: int | None) -> TerminusView:
    """The table as the seat (None: a spectator) sees it: others' hands as counts, others' secret Agendas (until the
    end, Rules, Turn Order & Prime Hub Placement 2) and Bonus choices (while choosing, Bonuses) only as whether they
    exist."""
    data: dict[str, Any] = _published(msgspec.to_builtins(state))
    data["deck"] = len(state.deck)
    for other, shown in enumerate(data["players"]):
        del shown["seen"]
        if other == seat:
            continue
        player = state.players[other]
        shown["hand"] = len(player.hand)
        if state.phase != "over":
            shown["secret"] = bool(player.secret)
        if state.phase == "bonus":
            shown["bonus"] = player.bonus is not None
    return msgspec.convert(data, TerminusView)


def _published(data: dict[str, Any]) -> dict[str, Any]:
    """The view's long-standing spelling of "none" (ABSENT, TILE_UNUSED, "" for no secret), key by key in place."""
    data["step"] = data["step"] or ""
    data["current"] = _or_none(data["current"])
    data["income"] = [[kind, _or_none(seat)] for kind, seat in data["income"]]
    for key in ("stop_owner", "block_tile", "tile_token"):
        data[key] = [_or_none(value) for value in data[key]]
    data["tile_at"] = [_tile_place(place) for place in data["tile_at"]]
    for player in data["players"]:
        player["secret"] = player["secret"] or ""
        for key in ("zone", "prime", "bonus"):
            player[key] = _or_none(player[key])
    return data


def _or_none(value: int | None) -> int:
    return ABSENT if value is None else value


def _tile_place(place: int | str | None) -> int:
    if place == "display":
        return ABSENT
    return TILE_UNUSED if place is None else int(place)


def redact(event: Event, seat: int | None) -> Event:
    """The event as the seat (None: a spectator) may see it (Rules, Turn Order & Prime Hub Placement; Lobby Zone;
    Bonuses): dealt and drawn Agendas to their owner only, the deck order to no one, a Bonus choice as -1."""
    if isinstance(event, AgendasDealt):
        hands = tuple(hand if index == seat else () for index, hand in enumerate(event.hands))
        return replace(event, deck=(), hands=hands)
    if isinstance(event, AgendaDeckShuffled):
        return replace(event, deck=())
    if isinstance(event, SecretAgendaKept) and event.seat != seat:
        return replace(event, agenda="")
    if isinstance(event, AgendasDrawn) and event.seat != seat:
        return replace(event, cards=())
    if isinstance(event, AgendaChosen) and event.seat != seat:
        return replace(event, returned=())
    if isinstance(event, BonusChosen) and event.seat != seat:
        return replace(event, option=-1)
    return event
