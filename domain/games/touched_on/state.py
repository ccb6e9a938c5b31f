"""The state of a Touched On match and `evolve`, the dull fold of its events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec

from domain.engine import Event
from domain.games.touched_on.components import is_evader
from domain.games.touched_on.editions import CURRENT, Rules
from domain.games.touched_on.events import (
    Appealed,
    CardDrawn,
    CardGiven,
    CardTaken,
    ClaimOffered,
    DrawPileRenewed,
    EvadersPlayed,
    ExpAwarded,
    ExpUnlocked,
    GameSetUp,
    InspectionResolved,
    InspectionStarted,
    JourneyDealt,
    JourneyEnded,
    Passed,
    PeakHourPlayed,
    PlayerFinished,
    TramTrackerPlayed,
    TurnEnded,
    TurnStarted,
)

replace = msgspec.structs.replace


class Carriage(msgspec.Struct, frozen=True, kw_only=True):
    """A group of face-up Evaders (and Priority Seats) on one line; `owner` last added Evaders to it."""

    line: str
    cards: tuple[str, ...]
    owner: int


class Window(msgspec.Struct, frozen=True, kw_only=True):
    """A response window: `seats` may answer, first to last, before the turn goes on.

    `appeal`: the owner of the inspected carriage may Appeal or pass (`inspector`, `card` lie on it).
    `claim`: the next player may claim the Exp forgotten on `line`, or pass; then that player's turn starts.
    """

    kind: Literal["appeal", "claim"]
    seats: tuple[int, ...]
    inspector: int = -1
    card: str = ""
    line: str = ""


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything on the table. Hands, draw pile and Exp pile / hidden Exp are the hidden zones."""

    seats: int
    lines: tuple[str, ...]
    max_turns_per_journey: int
    max_journeys: int
    dealer: int
    free_tram_zone: str = ""  # reading 23: "" (default) or the one line closed to Inspector cards
    journey: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    draw_pile: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    exp_pile: tuple[str, ...] = ()
    exp_under: tuple[str, ...] = ()  # per line: the hidden Exp card id, "" if none
    collected: tuple[tuple[str, ...], ...] = ()
    carriages: tuple[Carriage, ...] = ()
    current_line: str = ""
    carriage_open: bool = False  # Evaders on the current line continue the last carriage
    peak_hours: tuple[tuple[int, str], ...] = ()  # (owner, card) in play
    turn_seat: int = -1
    turn_no: int = 0
    journey_turns: int = 0
    played_power: bool = False
    played_inspector: bool = False
    played_evaders: bool = False
    cards_played: int = 0
    drew: bool = False
    idle_turns: int = 0  # turns in a row in which nobody played or drew a card (reading 18)
    unlock_line: str = ""  # the turn seat unlocked this line's Exp this turn and may claim it
    window: Window | None = None
    give_to: int = -1  # Tram Tracker: the turn seat must now give this seat a card
    emptied: tuple[tuple[int, int], ...] = ()  # (seat, turn number) of hands emptied, oldest first (DING)
    places: tuple[int, ...] = ()  # seats out of this journey, 1st place first
    final: bool = False
    rules: Rules = CURRENT  # the match's edition's switches (domain/editions.py puts them in at set-up)


def with_hand(state: State, seat: int, remove: tuple[str, ...] = (), add: tuple[str, ...] = ()) -> State:
    """`seat`'s hand less `remove`, plus `add` (kept sorted); an emptied hand is noted (DING), a refilled one not."""
    gone = set(remove)
    hand = tuple(sorted([c for c in state.hands[seat] if c not in gone] + list(add)))
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
    listed = any(s == seat for s, _ in state.emptied)
    emptied = state.emptied
    if hand and listed:
        emptied = tuple(entry for entry in emptied if entry[0] != seat)
    elif not hand and not listed and seat not in state.places:
        emptied = (*emptied, (seat, state.turn_no))
    return replace(state, hands=hands, emptied=emptied)


def _game_set_up(_: State | None, event: GameSetUp) -> State:
    return State(
        seats=event.seats, lines=event.lines, dealer=event.dealer, exp_pile=event.exp_pile,
        exp_under=tuple("" for _ in event.lines),
        collected=tuple(() for _ in range(event.seats)), max_turns_per_journey=event.max_turns_per_journey,
        max_journeys=event.max_journeys, free_tram_zone=event.free_tram_zone,
    )


def _journey_dealt(state: State, event: JourneyDealt) -> State:
    # Reading 19: a Line card with no hidden Exp gets one from the top of the Exp pile.
    pile, under = list(state.exp_pile), list(state.exp_under)
    for i, card in enumerate(under):
        if not card and pile:
            under[i] = pile.pop(0)
    fresh = State(
        seats=state.seats, lines=state.lines, max_turns_per_journey=state.max_turns_per_journey,
        max_journeys=state.max_journeys,
        free_tram_zone=state.free_tram_zone, rules=state.rules, dealer=event.dealer, journey=event.journey,
        draw_pile=event.draw_pile,
        exp_pile=tuple(pile), exp_under=tuple(under), collected=state.collected, turn_no=state.turn_no,
    )
    return replace(fresh, hands=tuple(tuple(sorted(h)) for h in event.hands))


def _turn_started(state: State, event: TurnStarted) -> State:
    mine = tuple(card for owner, card in state.peak_hours if owner == event.seat)
    return replace(
        state, turn_seat=event.seat, turn_no=state.turn_no + 1, journey_turns=state.journey_turns + 1,
        played_power=False,
        played_inspector=False, played_evaders=False, cards_played=0, drew=False,
        unlock_line="", window=None,
        give_to=-1, peak_hours=tuple(p for p in state.peak_hours if p[0] != event.seat), discard=state.discard + mine,
    )


def _evaders_played(state: State, event: EvadersPlayed) -> State:
    if event.new_carriage:
        carriages = (*state.carriages, Carriage(line=event.line, cards=event.cards, owner=event.seat))
    else:
        last = state.carriages[-1]
        carriages = (*state.carriages[:-1], Carriage(line=event.line, cards=last.cards + event.cards, owner=event.seat))
    state = with_hand(state, event.seat, remove=event.cards)
    return replace(
        state, carriages=carriages, current_line=event.line, carriage_open=True, played_evaders=True,
        played_power=state.played_power or not all(is_evader(c) for c in event.cards),
        cards_played=state.cards_played + len(event.cards),
    )


def _inspection_started(state: State, event: InspectionStarted) -> State:
    state = with_hand(state, event.seat, remove=(event.card,))
    window = Window(kind="appeal", seats=event.responders, inspector=event.seat, card=event.card, line=event.line)
    if event.kind == "feet-on-seat":
        return replace(state, window=window, played_power=True, cards_played=state.cards_played + 1)
    return replace(state, window=window, played_inspector=True, cards_played=state.cards_played + 1)


def _appealed(state: State, event: Appealed) -> State:
    state = with_hand(state, event.seat, remove=(event.card,))
    return replace(state, discard=state.discard + (event.card,))


def _passed(state: State, event: Passed) -> State:
    assert state.window is not None
    return replace(state, window=replace(state.window, seats=tuple(x for x in state.window.seats if x != event.seat)))


def _inspection_resolved(state: State, event: InspectionResolved) -> State:
    window = state.window
    assert window is not None
    carriage = state.carriages[-1]
    evaders = tuple(c for c in carriage.cards if is_evader(c))
    others = tuple(c for c in carriage.cards if not is_evader(c))
    state = with_hand(state, event.taker, add=evaders)
    return replace(
        state, carriages=state.carriages[:-1], carriage_open=False, window=None,
        discard=state.discard + others + (window.card,),
    )


def _peak_hour_played(state: State, event: PeakHourPlayed) -> State:
    state = with_hand(state, event.seat, remove=(event.card,))
    return replace(
        state, peak_hours=(*state.peak_hours, (event.seat, event.card)), played_power=True,
        cards_played=state.cards_played + 1,
    )


def _tram_tracker_played(state: State, event: TramTrackerPlayed) -> State:
    state = with_hand(state, event.seat, remove=(event.card,))
    return replace(state, discard=state.discard + (event.card,), played_power=True, cards_played=state.cards_played + 1)


def _card_taken(state: State, event: CardTaken) -> State:
    state = with_hand(with_hand(state, event.target, remove=(event.card,)), event.seat, add=(event.card,))
    return replace(state, give_to=event.target)


def _card_given(state: State, event: CardGiven) -> State:
    state = with_hand(with_hand(state, event.seat, remove=(event.card,)), event.target, add=(event.card,))
    return replace(state, give_to=-1)


def _draw_pile_renewed(state: State, event: DrawPileRenewed) -> State:
    return replace(state, draw_pile=event.order, discard=())


def _card_drawn(state: State, event: CardDrawn) -> State:
    state = with_hand(state, event.seat, add=(event.card,))
    return replace(state, draw_pile=state.draw_pile[1:], drew=True)


def _turn_ended(state: State, event: TurnEnded) -> State:
    idle = 0 if state.cards_played or state.drew else state.idle_turns + 1
    return replace(state, idle_turns=idle, give_to=-1)


def _exp_unlocked(state: State, event: ExpUnlocked) -> State:
    return replace(state, unlock_line=event.line)


def _claim_offered(state: State, event: ClaimOffered) -> State:
    return replace(state, window=Window(kind="claim", seats=(event.seat,), line=event.line), unlock_line="")


def _exp_awarded(state: State, event: ExpAwarded) -> State:
    gone = set(event.cards)
    collected = tuple(c + event.cards if seat == event.seat else c for seat, c in enumerate(state.collected))
    return replace(
        state, collected=collected, exp_pile=tuple(c for c in state.exp_pile if c not in gone),
        exp_under=tuple("" if c in gone else c for c in state.exp_under),
        unlock_line="" if event.reason == "unlock" else state.unlock_line,
        window=None if state.window is not None and state.window.kind == "claim" else state.window,
    )


def _player_finished(state: State, event: PlayerFinished) -> State:
    mine = tuple(card for owner, card in state.peak_hours if owner == event.seat)
    return replace(
        state, places=(*state.places, event.seat), emptied=tuple(x for x in state.emptied if x[0] != event.seat),
        peak_hours=tuple(p for p in state.peak_hours if p[0] != event.seat), discard=state.discard + mine,
    )


def _journey_ended(state: State, event: JourneyEnded) -> State:
    return replace(state, final=event.final, window=None, give_to=-1, unlock_line="")


HANDLERS: dict[type[Event], Callable[[Any, Any], State]] = {
    GameSetUp: _game_set_up, JourneyDealt: _journey_dealt, TurnStarted: _turn_started,
    EvadersPlayed: _evaders_played, ExpUnlocked: _exp_unlocked, InspectionStarted: _inspection_started,
    Appealed: _appealed, Passed: _passed, InspectionResolved: _inspection_resolved,
    PeakHourPlayed: _peak_hour_played, TramTrackerPlayed: _tram_tracker_played, CardTaken: _card_taken,
    CardGiven: _card_given, DrawPileRenewed: _draw_pile_renewed, CardDrawn: _card_drawn,
    TurnEnded: _turn_ended, ClaimOffered: _claim_offered, ExpAwarded: _exp_awarded,
    PlayerFinished: _player_finished, JourneyEnded: _journey_ended,
}


def evolve(state: State | None, event: Event) -> State:
    """The state after `event` (no judgement, no randomness)."""
    handler = HANDLERS[type(event)]
    if state is None and not isinstance(event, GameSetUp):
        raise ValueError("a Touched On stream begins with touched-on.game-set-up")
    return handler(state, event)
