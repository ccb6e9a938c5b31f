"""The state of a Touched On match and `evolve`, the dull fold of its events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec

from domain.engine import Event
from domain.games.touched_on import events as ev
from domain.games.touched_on.cards import is_evader

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


def game_set_up(_: State | None, e: ev.GameSetUp) -> State:
    return State(
        seats=e.seats, lines=e.lines, dealer=e.dealer, exp_pile=e.exp_pile, exp_under=tuple("" for _ in e.lines),
        collected=tuple(() for _ in range(e.seats)), max_turns_per_journey=e.max_turns_per_journey,
        max_journeys=e.max_journeys, free_tram_zone=e.free_tram_zone,
    )


def journey_dealt(s: State, e: ev.JourneyDealt) -> State:
    # Reading 19: a Line card with no hidden Exp gets one from the top of the Exp pile.
    pile, under = list(s.exp_pile), list(s.exp_under)
    for i, card in enumerate(under):
        if not card and pile:
            under[i] = pile.pop(0)
    fresh = State(
        seats=s.seats, lines=s.lines, max_turns_per_journey=s.max_turns_per_journey, max_journeys=s.max_journeys,
        free_tram_zone=s.free_tram_zone, dealer=e.dealer, journey=e.journey, draw_pile=e.draw_pile,
        exp_pile=tuple(pile), exp_under=tuple(under), collected=s.collected, turn_no=s.turn_no,
    )
    return replace(fresh, hands=tuple(tuple(sorted(h)) for h in e.hands))


def turn_started(s: State, e: ev.TurnStarted) -> State:
    mine = tuple(card for owner, card in s.peak_hours if owner == e.seat)
    return replace(
        s, turn_seat=e.seat, turn_no=s.turn_no + 1, journey_turns=s.journey_turns + 1, played_power=False,
        played_inspector=False, played_evaders=False, cards_played=0, drew=False,
        unlock_line="", window=None,
        give_to=-1, peak_hours=tuple(p for p in s.peak_hours if p[0] != e.seat), discard=s.discard + mine,
    )


def evaders_played(s: State, e: ev.EvadersPlayed) -> State:
    if e.new_carriage:
        carriages = (*s.carriages, Carriage(line=e.line, cards=e.cards, owner=e.seat))
    else:
        last = s.carriages[-1]
        carriages = (*s.carriages[:-1], Carriage(line=e.line, cards=last.cards + e.cards, owner=e.seat))
    s = with_hand(s, e.seat, remove=e.cards)
    return replace(
        s, carriages=carriages, current_line=e.line, carriage_open=True, played_evaders=True,
        played_power=s.played_power or not all(is_evader(c) for c in e.cards),
        cards_played=s.cards_played + len(e.cards),
    )


def inspection_started(s: State, e: ev.InspectionStarted) -> State:
    s = with_hand(s, e.seat, remove=(e.card,))
    window = Window(kind="appeal", seats=e.responders, inspector=e.seat, card=e.card, line=e.line)
    if e.kind == "feet-on-seat":
        return replace(s, window=window, played_power=True, cards_played=s.cards_played + 1)
    return replace(s, window=window, played_inspector=True, cards_played=s.cards_played + 1)


def appealed(s: State, e: ev.Appealed) -> State:
    s = with_hand(s, e.seat, remove=(e.card,))
    return replace(s, discard=s.discard + (e.card,))


def passed(s: State, e: ev.Passed) -> State:
    assert s.window is not None
    return replace(s, window=replace(s.window, seats=tuple(x for x in s.window.seats if x != e.seat)))


def inspection_resolved(s: State, e: ev.InspectionResolved) -> State:
    window = s.window
    assert window is not None
    carriage = s.carriages[-1]
    evaders = tuple(c for c in carriage.cards if is_evader(c))
    others = tuple(c for c in carriage.cards if not is_evader(c))
    s = with_hand(s, e.taker, add=evaders)
    return replace(
        s, carriages=s.carriages[:-1], carriage_open=False, window=None, discard=s.discard + others + (window.card,)
    )


def peak_hour_played(s: State, e: ev.PeakHourPlayed) -> State:
    s = with_hand(s, e.seat, remove=(e.card,))
    return replace(
        s, peak_hours=(*s.peak_hours, (e.seat, e.card)), played_power=True, cards_played=s.cards_played + 1
    )


def tram_tracker_played(s: State, e: ev.TramTrackerPlayed) -> State:
    s = with_hand(s, e.seat, remove=(e.card,))
    return replace(s, discard=s.discard + (e.card,), played_power=True, cards_played=s.cards_played + 1)


def card_taken(s: State, e: ev.CardTaken) -> State:
    s = with_hand(with_hand(s, e.target, remove=(e.card,)), e.seat, add=(e.card,))
    return replace(s, give_to=e.target)


def card_given(s: State, e: ev.CardGiven) -> State:
    s = with_hand(with_hand(s, e.seat, remove=(e.card,)), e.target, add=(e.card,))
    return replace(s, give_to=-1)


def draw_pile_renewed(s: State, e: ev.DrawPileRenewed) -> State:
    return replace(s, draw_pile=e.order, discard=())


def card_drawn(s: State, e: ev.CardDrawn) -> State:
    s = with_hand(s, e.seat, add=(e.card,))
    return replace(s, draw_pile=s.draw_pile[1:], drew=True)


def turn_ended(s: State, e: ev.TurnEnded) -> State:
    idle = 0 if s.cards_played or s.drew else s.idle_turns + 1
    return replace(s, idle_turns=idle, give_to=-1)


def exp_unlocked(s: State, e: ev.ExpUnlocked) -> State:
    return replace(s, unlock_line=e.line)


def claim_offered(s: State, e: ev.ClaimOffered) -> State:
    return replace(s, window=Window(kind="claim", seats=(e.seat,), line=e.line), unlock_line="")


def exp_awarded(s: State, e: ev.ExpAwarded) -> State:
    gone = set(e.cards)
    collected = tuple(c + e.cards if seat == e.seat else c for seat, c in enumerate(s.collected))
    return replace(
        s, collected=collected, exp_pile=tuple(c for c in s.exp_pile if c not in gone),
        exp_under=tuple("" if c in gone else c for c in s.exp_under),
        unlock_line="" if e.reason == "unlock" else s.unlock_line,
        window=None if s.window is not None and s.window.kind == "claim" else s.window,
    )


def player_finished(s: State, e: ev.PlayerFinished) -> State:
    mine = tuple(card for owner, card in s.peak_hours if owner == e.seat)
    return replace(
        s, places=(*s.places, e.seat), emptied=tuple(x for x in s.emptied if x[0] != e.seat),
        peak_hours=tuple(p for p in s.peak_hours if p[0] != e.seat), discard=s.discard + mine,
    )


def journey_ended(s: State, e: ev.JourneyEnded) -> State:
    return replace(s, final=e.final, window=None, give_to=-1, unlock_line="")


HANDLERS: dict[type[Event], Callable[[Any, Any], State]] = {
    ev.GameSetUp: game_set_up, ev.JourneyDealt: journey_dealt, ev.TurnStarted: turn_started,
    ev.EvadersPlayed: evaders_played, ev.ExpUnlocked: exp_unlocked, ev.InspectionStarted: inspection_started,
    ev.Appealed: appealed, ev.Passed: passed, ev.InspectionResolved: inspection_resolved,
    ev.PeakHourPlayed: peak_hour_played, ev.TramTrackerPlayed: tram_tracker_played, ev.CardTaken: card_taken,
    ev.CardGiven: card_given, ev.DrawPileRenewed: draw_pile_renewed, ev.CardDrawn: card_drawn,
    ev.TurnEnded: turn_ended, ev.ClaimOffered: claim_offered, ev.ExpAwarded: exp_awarded,
    ev.PlayerFinished: player_finished, ev.JourneyEnded: journey_ended,
}


def evolve(state: State | None, event: Event) -> State:
    """The state after `event` (no judgement, no randomness)."""
    handler = HANDLERS[type(event)]
    if state is None and not isinstance(event, ev.GameSetUp):
        raise ValueError("a Touched On stream begins with touched-on.game-set-up")
    return handler(state, event)
