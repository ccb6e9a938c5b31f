"""Who sees what. Hidden zones: each hand (its owner only), the draw pile and every Exp not yet collected
(nobody). Everything on the table is public: carriages, discards, Peak Hours in play, collected Exp."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain.engine import Event
from domain.games.touched_on.components import exp_value
from domain.games.touched_on.events import CardDrawn, CardGiven, CardTaken, DrawPileRenewed, GameSetUp, JourneyDealt
from domain.games.touched_on.rules_table import exp_left, is_over, line_count
from domain.games.touched_on.state import Carriage, State, Window
from domain.rng import Rng, in_order

replace = msgspec.structs.replace


class LineView(msgspec.Struct, frozen=True, kw_only=True):
    """A Line card: how many counting cards lie on it and whether an Exp is still hidden under it."""

    line: str
    count: int
    exp_hidden: bool


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A seat as everyone sees it."""

    seat: int
    hand_size: int
    exp: tuple[str, ...]
    exp_total: int
    place: int  # 0: still in the journey
    ding: bool  # hand empty, waiting for the next player's last chance


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat (or a spectator, `hand` None) may see of the table."""

    journey: int
    dealer: int
    turn_seat: int
    current_line: str
    free_tram_zone: str  # "" unless the option made one line the Free Tram Zone (reading 23)
    lines: tuple[LineView, ...]
    carriages: tuple[Carriage, ...]
    discard: tuple[str, ...]
    draw_size: int
    exp_pile_size: int
    exp_left: int
    seats: tuple[SeatView, ...]
    hand: tuple[str, ...] | None
    peak_hours: tuple[tuple[int, str], ...]
    window: Window | None
    give_to: int
    unlock_line: str
    played_power: bool
    played_inspector: bool
    played_evaders: bool
    cards_played: int
    drew: bool
    over: bool


def view(state: State, seat: int | None) -> View:
    """The table as `seat` sees it: its own hand, the others' hand sizes, the public cards."""
    emptied = {s for s, _ in state.emptied}
    seats = tuple(
        SeatView(
            seat=s, hand_size=len(state.hands[s]), exp=state.collected[s],
            exp_total=sum(exp_value(c) for c in state.collected[s]),
            place=state.places.index(s) + 1 if s in state.places else 0, ding=s in emptied,
        )
        for s in range(state.seats)
    )
    lines = tuple(
        LineView(line=line, count=line_count(state, line), exp_hidden=bool(state.exp_under[i]))
        for i, line in enumerate(state.lines)
    )
    return View(
        journey=state.journey, dealer=state.dealer, turn_seat=state.turn_seat, current_line=state.current_line,
        free_tram_zone=state.free_tram_zone, lines=lines, carriages=state.carriages, discard=state.discard,
        draw_size=len(state.draw_pile), exp_pile_size=len(state.exp_pile), exp_left=exp_left(state), seats=seats,
        hand=None if seat is None else state.hands[seat], peak_hours=state.peak_hours, window=state.window,
        give_to=state.give_to, unlock_line=state.unlock_line, played_power=state.played_power,
        played_inspector=state.played_inspector, played_evaders=state.played_evaders,
        cards_played=state.cards_played, drew=state.drew, over=is_over(state),
    )


def redact(event: Event, seat: int | None) -> Event:
    """`event` as `seat` may see it: hidden card ids blanked (sizes stay)."""
    if isinstance(event, GameSetUp):
        return replace(event, exp_pile=())
    if isinstance(event, JourneyDealt):
        hands = tuple(hand if s == seat else () for s, hand in enumerate(event.hands))
        return replace(event, hands=hands, draw_pile=())
    if isinstance(event, DrawPileRenewed):
        return replace(event, order=())
    if isinstance(event, CardDrawn | CardTaken) and seat != event.seat:
        return replace(event, card="")
    if isinstance(event, CardGiven) and seat != event.target:
        return replace(event, card="")
    return event


def hidden_from(state: State, seat: int | None) -> frozenset[str]:
    """Card ids `seat` must not know now: the others' hands, the draw pile, every uncollected Exp."""
    hands = (card for s, hand in enumerate(state.hands) if s != seat for card in hand)
    return frozenset((*hands, *state.draw_pile, *state.exp_pile, *(c for c in state.exp_under if c)))


def scramble(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal what `seat` cannot see: the others' hands with the draw pile, and the uncollected Exp."""
    return _redeal(state, seat, rng.shuffled)


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A complete table `seat` cannot tell from this one, drawn at random from what it sees (a search bot's sample):
    the unseen cards are laid out in a fixed order first, so the hidden arrangement it was given cannot leak."""
    return scramble(_redeal(state, seat, in_order), seat, rng)


def _redeal(state: State, seat: int | None, order: Callable[[Sequence[str]], tuple[str, ...]]) -> State:
    others = [s for s in range(state.seats) if s != seat]
    pool = order([card for s in others for card in state.hands[s]] + list(state.draw_pile))
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(sorted(pool[: len(hands[s])])), pool[len(hands[s]) :]
    exp = order([*state.exp_pile, *(c for c in state.exp_under if c)])
    under = []
    for card in state.exp_under:
        under.append(exp[0] if card else "")
        exp = exp[1:] if card else exp
    return replace(state, hands=tuple(hands), draw_pile=pool, exp_pile=exp, exp_under=tuple(under))
