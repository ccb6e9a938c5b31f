"""`decide`: all the judgement. Each command is checked against the rulebook and becomes events, or a refusal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.engine import Command, Decision, Event, Refusal
from domain.games.touched_on import commands as cmd
from domain.games.touched_on import events as ev
from domain.games.touched_on.cards import DATA, authorised_id, is_authorised
from domain.games.touched_on.flow import finish_turn
from domain.games.touched_on.rules import (
    allowed_lines,
    can_draw,
    claimable_line,
    evaders_of,
    held_by_others,
    is_over,
    line_count,
    play_commands,
    power_card,
    undercover_card,
)
from domain.games.touched_on.state import Carriage, State, evolve
from domain.rng import Rng

WINDOW_ANSWERS = {"appeal": (cmd.Appeal, cmd.Pass), "claim": (cmd.ClaimExp, cmd.Pass)}


def need_power(state: State, seat: int, kind: str) -> str:
    """The Power card of `kind` that `seat` would play, if a Power may still be played this turn."""
    if state.played_power:
        raise Refusal("power-already-played", "only one Power card may be played in a turn")
    card = power_card(state, seat, kind)
    if card is None:
        raise Refusal("not-in-hand", f"you hold no {kind} card")
    return card


def need_target(state: State, seat: int) -> Carriage:
    """Rules, Inspectors: only the most recent carriage, whose Evaders another player still in the journey
    added last (readings 7 and 17)."""
    if not state.carriages:
        raise Refusal("no-carriage", "there is no carriage to inspect")
    carriage = state.carriages[-1]
    if carriage.owner == seat:
        raise Refusal("own-carriage", "you may not inspect a carriage you added Evaders to last")
    if carriage.owner in state.places:
        raise Refusal("owner-finished", "the carriage's player is already out of this journey")
    return carriage


def play_evaders(flow: Decision[State], seat: int, c: cmd.PlayEvaders, rng: Rng) -> None:
    """Rules, Evaders: 1-9 Evaders of one line, on the current line or the one next to it."""
    state = flow.state
    if state.played_evaders:
        raise Refusal("evaders-already-played", "Evaders are played once a turn, all on one line")
    if c.line not in state.lines:
        raise Refusal("no-such-line", f"line {c.line!r} is not in play")
    if c.count < 0 or (c.count == 0 and not c.priority_seat):
        raise Refusal("empty-play", "play at least one Evader (or a Priority Seat)")
    extra = (need_power(state, seat, "priority-seat"),) if c.priority_seat else ()
    mine = evaders_of(state, seat, c.line)
    if len(mine) < c.count:
        raise Refusal("not-in-hand", f"you hold {len(mine)} Evaders of {c.line}, not {c.count}")
    if c.line not in allowed_lines(state, seat):
        if held_by_others(state, seat):
            raise Refusal("peak-hour", "Peak Hour: you may only play Evaders on the current line")
        raise Refusal("line-not-reachable", f"{c.line} is neither the current line nor next to it")
    before = line_count(state, c.line)
    new_carriage = not (state.carriage_open and c.line == state.current_line)
    cards = tuple(mine[: c.count]) + extra
    flow.emit(ev.EvadersPlayed(seat=seat, line=c.line, cards=cards, new_carriage=new_carriage))
    has_exp = bool(state.exp_under[state.lines.index(c.line)])
    if has_exp and before < DATA.unlock_at <= before + len(cards):
        flow.emit(ev.ExpUnlocked(seat=seat, line=c.line))  # Rules, Unlock Exp: the 9th Evader


def start_inspection(flow: Decision[State], seat: int, card: str, kind: Any, carriage: Carriage) -> None:
    """The inspector lands; the owner may answer (Appeal or pass) unless their hand is empty."""
    responders = (carriage.owner,) if flow.state.hands[carriage.owner] else ()
    flow.emit(ev.InspectionStarted(
        seat=seat, card=card, kind=kind, line=carriage.line, owner=carriage.owner, responders=responders
    ))
    if not responders:
        flow.emit(ev.InspectionResolved(taker=carriage.owner))


def inspect(flow: Decision[State], seat: int, c: cmd.Inspect, rng: Rng) -> None:
    """Rules, Inspectors: Authorised on its own line, Undercover on any; never after Evaders; one a turn."""
    state = flow.state
    if state.played_evaders:
        raise Refusal("inspector-after-evaders", "Inspectors cannot be played after Evaders")
    if state.played_inspector:
        raise Refusal("inspector-already-played", "only one Inspector may be played in a turn")
    carriage = need_target(state, seat)
    if carriage.line == state.free_tram_zone:  # reading 23 (option): Power Notes, Feet On Seat
        raise Refusal("free-tram-zone", f"{carriage.line} is the Free Tram Zone: only Feet On Seat inspects there")
    if c.inspector == "authorised":
        card: str | None = authorised_id(carriage.line)
        if card not in state.hands[seat]:
            if any(is_authorised(x) for x in state.hands[seat]):
                raise Refusal("wrong-line", f"your Authorised Inspector may not inspect {carriage.line}")
            raise Refusal("not-in-hand", "you hold no Authorised Inspector")
    else:
        card = undercover_card(state, seat)
        if card is None:
            raise Refusal("not-in-hand", "you hold no Undercover Inspector")
    assert card is not None
    start_inspection(flow, seat, card, c.inspector, carriage)


def feet_on_seat(flow: Decision[State], seat: int, c: cmd.FeetOnSeat, rng: Rng) -> None:
    """Power Notes, Feet On Seat: an inspection of the most recent carriage, also in the Free Tram Zone."""
    card = need_power(flow.state, seat, "feet-on-seat")
    start_inspection(flow, seat, card, "feet-on-seat", need_target(flow.state, seat))


def peak_hour(flow: Decision[State], seat: int, c: cmd.PeakHour, rng: Rng) -> None:
    """Power Notes, Peak Hour: placed in front of you until your next turn."""
    flow.emit(ev.PeakHourPlayed(seat=seat, card=need_power(flow.state, seat, "peak-hour")))


def tram_tracker(flow: Decision[State], seat: int, c: cmd.TramTracker, rng: Rng) -> None:
    """Power Notes, Tram Tracker: take one card unseen from an opponent's fan, then give one back."""
    card = need_power(flow.state, seat, "tram-tracker")
    if c.target == seat or not 0 <= c.target < flow.state.seats:
        raise Refusal("bad-target", "choose an opponent at this table")
    fan = flow.state.hands[c.target]
    if not fan:
        raise Refusal("empty-hand", f"seat {c.target} holds no cards")
    flow.emit(ev.TramTrackerPlayed(seat=seat, card=card, target=c.target))
    flow.emit(ev.CardTaken(seat=seat, target=c.target, card=rng.choice(fan)))


def give_card(flow: Decision[State], seat: int, c: cmd.GiveCard, rng: Rng) -> None:
    """The card given back after Tram Tracker."""
    if flow.state.give_to < 0:
        raise Refusal("nothing-to-give", "no Tram Tracker is waiting for a card")
    if c.card not in flow.state.hands[seat]:
        raise Refusal("not-in-hand", f"you do not hold {c.card!r}")
    flow.emit(ev.CardGiven(seat=seat, target=flow.state.give_to, card=c.card))


def draw(flow: Decision[State], seat: int, c: cmd.Draw, rng: Rng) -> None:
    """Rules, Draw Pile: only with no playable card, once a turn; an empty pile is renewed from the discards."""
    state = flow.state
    if state.cards_played:
        raise Refusal("already-played", "you have played a card this turn: draw only instead of playing")
    if state.drew:
        raise Refusal("already-drew", "you can only draw 1 card in a single turn")
    if play_commands(state, seat):
        raise Refusal("must-play", "Touched On is forced play: you must play a card you can")
    if not can_draw(state):
        raise Refusal("nothing-to-draw", "the draw pile and the discard pile are both empty")
    if not state.draw_pile:
        order = rng.shuffled(state.discard)
        flow.emit(ev.DrawPileRenewed(order=order, size=len(order)))
    flow.emit(ev.CardDrawn(seat=seat, card=flow.state.draw_pile[0]))


def end_turn(flow: Decision[State], seat: int, c: cmd.EndTurn, rng: Rng) -> None:
    """Rules, Taking A Turn: at least one card is played, unless nothing can be played (then draw first)."""
    state = flow.state
    if not state.cards_played:
        if play_commands(state, seat):
            raise Refusal("must-play", "you must play at least 1 card when you can")
        if not state.drew and can_draw(state):
            raise Refusal("must-draw", "with no playable card you must draw one")
    finish_turn(flow, rng)


def claim_exp(flow: Decision[State], seat: int, c: cmd.ClaimExp, rng: Rng) -> None:
    """Rules, Unlock Exp: the player of the 9th Evader takes the hidden Exp in their turn."""
    line = claimable_line(flow.state, seat)
    if not line:
        raise Refusal("nothing-to-claim", "no unlocked Exp is yours to take")
    card = flow.state.exp_under[flow.state.lines.index(line)]
    flow.emit(ev.ExpAwarded(seat=seat, cards=(card,), reason="unlock"))


def answer(flow: Decision[State], seat: int, c: Command, rng: Rng) -> None:
    """A response in the open window: Appeal or pass an inspection; claim or pass a forgotten Exp."""
    window = flow.state.window
    assert window is not None
    if not isinstance(c, WINDOW_ANSWERS[window.kind]):
        raise Refusal("answer-expected", f"answer the {window.kind} window first (or pass)")
    if isinstance(c, cmd.Appeal):
        card = power_card(flow.state, seat, "appeal")
        if card is None:
            raise Refusal("not-in-hand", "you hold no Appeal card")
        flow.emit(ev.Appealed(seat=seat, card=card), ev.InspectionResolved(taker=window.inspector, appealed=True))
        return
    if isinstance(c, cmd.ClaimExp):
        claim_exp(flow, seat, c, rng)
    else:
        flow.emit(ev.Passed(seat=seat))
    if flow.state.window is not None and flow.state.window.seats:
        return
    if window.kind == "appeal":
        flow.emit(ev.InspectionResolved(taker=flow.state.carriages[-1].owner))
    elif not is_over(flow.state):
        flow.emit(ev.TurnStarted(seat=seat))  # the claim window sits between turns: the claimer's turn begins


def not_an_answer(flow: Decision[State], seat: int, c: Command, rng: Rng) -> None:
    """Appeal and pass only answer a response window."""
    raise Refusal("nothing-to-answer", "there is no inspection or forgotten Exp to answer now")


TURN_HANDLERS: dict[type[Command], Callable[[Decision[State], int, Any, Rng], None]] = {
    cmd.PlayEvaders: play_evaders, cmd.Inspect: inspect, cmd.FeetOnSeat: feet_on_seat, cmd.PeakHour: peak_hour,
    cmd.TramTracker: tram_tracker, cmd.GiveCard: give_card, cmd.Draw: draw, cmd.EndTurn: end_turn,
    cmd.ClaimExp: claim_exp, cmd.Appeal: not_an_answer, cmd.Pass: not_an_answer,
}


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """The events `command` by `seat` leads to, or a `Refusal` with a stable code."""
    if is_over(state):
        raise Refusal("game-over", "the game is over")
    if not 0 <= seat < state.seats:
        raise Refusal("not-your-turn", f"seat {seat} is not at this table")
    flow = Decision(state, evolve)
    window = state.window
    if window is not None:
        if window.seats[:1] != (seat,):
            if window.kind == "appeal" and seat == state.turn_seat:  # mid-turn: the turn resumes after the answer
                raise Refusal("awaiting-response", f"waiting for seat {window.seats[0]} to answer")
            raise Refusal("not-your-turn", f"only seat {window.seats[0]} may answer now")
        answer(flow, seat, command, rng)
        return flow.events
    if seat != state.turn_seat:
        raise Refusal("not-your-turn", f"it is seat {state.turn_seat}'s turn")
    if state.give_to >= 0 and not isinstance(command, cmd.GiveCard):
        raise Refusal("give-card-first", f"give seat {state.give_to} a card first (Tram Tracker)")
    TURN_HANDLERS[type(command)](flow, seat, command, rng)
    return flow.events
