"""The judgement of each command: checked against the rulebook, it becomes events in the decision, or a refusal."""

from __future__ import annotations

from typing import Any

from domain.engine import Command, Decision, Refusal
from domain.games.touched_on.commands import (
    Appeal,
    ClaimExp,
    Draw,
    EndTurn,
    FeetOnSeat,
    GiveCard,
    Inspect,
    Pass,
    PeakHour,
    PlayEvaders,
    TramTracker,
)
from domain.games.touched_on.components import DATA, authorised_id, is_authorised
from domain.games.touched_on.events import (
    Appealed,
    CardDrawn,
    CardGiven,
    CardTaken,
    DrawPileRenewed,
    EvadersPlayed,
    ExpAwarded,
    ExpUnlocked,
    InspectionResolved,
    InspectionStarted,
    Passed,
    PeakHourPlayed,
    TramTrackerPlayed,
    TurnStarted,
)
from domain.games.touched_on.rules_flow import finish_turn
from domain.games.touched_on.rules_table import (
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
from domain.games.touched_on.state import Carriage, State
from domain.rng import Rng

WINDOW_ANSWERS = {"appeal": (Appeal, Pass), "claim": (ClaimExp, Pass)}


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


def play_evaders(decision: Decision[State], seat: int, command: PlayEvaders, rng: Rng) -> None:
    """Rules, Evaders: 1-9 Evaders of one line, on the current line or the one next to it."""
    state = decision.state
    if state.played_evaders:
        raise Refusal("evaders-already-played", "Evaders are played once a turn, all on one line")
    if command.line not in state.lines:
        raise Refusal("no-such-line", f"line {command.line!r} is not in play")
    if command.count < 0 or (command.count == 0 and not command.priority_seat):
        raise Refusal("empty-play", "play at least one Evader (or a Priority Seat)")
    extra = (need_power(state, seat, "priority-seat"),) if command.priority_seat else ()
    mine = evaders_of(state, seat, command.line)
    if len(mine) < command.count:
        raise Refusal("not-in-hand", f"you hold {len(mine)} Evaders of {command.line}, not {command.count}")
    if command.line not in allowed_lines(state, seat):
        if held_by_others(state, seat):
            raise Refusal("peak-hour", "Peak Hour: you may only play Evaders on the current line")
        raise Refusal("line-not-reachable", f"{command.line} is neither the current line nor next to it")
    before = line_count(state, command.line)
    new_carriage = not (state.carriage_open and command.line == state.current_line)
    cards = tuple(mine[: command.count]) + extra
    decision.emit(EvadersPlayed(seat=seat, line=command.line, cards=cards, new_carriage=new_carriage))
    has_exp = bool(state.exp_under[state.lines.index(command.line)])
    if has_exp and before < DATA.unlock_at <= before + len(cards):
        decision.emit(ExpUnlocked(seat=seat, line=command.line))  # Rules, Unlock Exp: the 9th Evader


def start_inspection(decision: Decision[State], seat: int, card: str, kind: Any, carriage: Carriage) -> None:
    """The inspector lands; the owner may answer (Appeal or pass) unless their hand is empty."""
    responders = (carriage.owner,) if decision.state.hands[carriage.owner] else ()
    decision.emit(InspectionStarted(
        seat=seat, card=card, kind=kind, line=carriage.line, owner=carriage.owner, responders=responders
    ))
    if not responders:
        decision.emit(InspectionResolved(taker=carriage.owner))


def inspect(decision: Decision[State], seat: int, command: Inspect, rng: Rng) -> None:
    """Rules, Inspectors: Authorised on its own line, Undercover on any; never after Evaders; one a turn."""
    state = decision.state
    if state.played_evaders:
        raise Refusal("inspector-after-evaders", "Inspectors cannot be played after Evaders")
    if state.played_inspector:
        raise Refusal("inspector-already-played", "only one Inspector may be played in a turn")
    carriage = need_target(state, seat)
    if carriage.line == state.free_tram_zone:  # reading 23 (option): Power Notes, Feet On Seat
        raise Refusal("free-tram-zone", f"{carriage.line} is the Free Tram Zone: only Feet On Seat inspects there")
    if command.inspector == "authorised":
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
    start_inspection(decision, seat, card, command.inspector, carriage)


def feet_on_seat(decision: Decision[State], seat: int, command: FeetOnSeat, rng: Rng) -> None:
    """Power Notes, Feet On Seat: an inspection of the most recent carriage, also in the Free Tram Zone."""
    card = need_power(decision.state, seat, "feet-on-seat")
    start_inspection(decision, seat, card, "feet-on-seat", need_target(decision.state, seat))


def peak_hour(decision: Decision[State], seat: int, command: PeakHour, rng: Rng) -> None:
    """Power Notes, Peak Hour: placed in front of you until your next turn."""
    decision.emit(PeakHourPlayed(seat=seat, card=need_power(decision.state, seat, "peak-hour")))


def tram_tracker(decision: Decision[State], seat: int, command: TramTracker, rng: Rng) -> None:
    """Power Notes, Tram Tracker: take one card unseen from an opponent's fan, then give one back."""
    card = need_power(decision.state, seat, "tram-tracker")
    if command.target == seat or not 0 <= command.target < decision.state.seats:
        raise Refusal("bad-target", "choose an opponent at this table")
    fan = decision.state.hands[command.target]
    if not fan:
        raise Refusal("empty-hand", f"seat {command.target} holds no cards")
    decision.emit(TramTrackerPlayed(seat=seat, card=card, target=command.target))
    decision.emit(CardTaken(seat=seat, target=command.target, card=rng.choice(fan)))


def give_card(decision: Decision[State], seat: int, command: GiveCard, rng: Rng) -> None:
    """The card given back after Tram Tracker."""
    if decision.state.give_to < 0:
        raise Refusal("nothing-to-give", "no Tram Tracker is waiting for a card")
    if command.card not in decision.state.hands[seat]:
        raise Refusal("not-in-hand", f"you do not hold {command.card!r}")
    decision.emit(CardGiven(seat=seat, target=decision.state.give_to, card=command.card))


def draw(decision: Decision[State], seat: int, command: Draw, rng: Rng) -> None:
    """Rules, Draw Pile: only with no playable card, once a turn; an empty pile is renewed from the discards."""
    state = decision.state
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
        decision.emit(DrawPileRenewed(order=order, size=len(order)))
    decision.emit(CardDrawn(seat=seat, card=decision.state.draw_pile[0]))


def end_turn(decision: Decision[State], seat: int, command: EndTurn, rng: Rng) -> None:
    """Rules, Taking A Turn: at least one card is played, unless nothing can be played (then draw first)."""
    state = decision.state
    if not state.cards_played:
        if play_commands(state, seat):
            raise Refusal("must-play", "you must play at least 1 card when you can")
        if not state.drew and can_draw(state):
            raise Refusal("must-draw", "with no playable card you must draw one")
    finish_turn(decision, rng)


def claim_exp(decision: Decision[State], seat: int, command: ClaimExp, rng: Rng) -> None:
    """Rules, Unlock Exp: the player of the 9th Evader takes the hidden Exp in their turn."""
    line = claimable_line(decision.state, seat)
    if not line:
        raise Refusal("nothing-to-claim", "no unlocked Exp is yours to take")
    card = decision.state.exp_under[decision.state.lines.index(line)]
    decision.emit(ExpAwarded(seat=seat, cards=(card,), reason="unlock"))


def answer(decision: Decision[State], seat: int, command: Command, rng: Rng) -> None:
    """A response in the open window: Appeal or pass an inspection; claim or pass a forgotten Exp."""
    window = decision.state.window
    assert window is not None
    if not isinstance(command, WINDOW_ANSWERS[window.kind]):
        raise Refusal("answer-expected", f"answer the {window.kind} window first (or pass)")
    if isinstance(command, Appeal):
        card = power_card(decision.state, seat, "appeal")
        if card is None:
            raise Refusal("not-in-hand", "you hold no Appeal card")
        decision.emit(Appealed(seat=seat, card=card), InspectionResolved(taker=window.inspector, appealed=True))
        return
    if isinstance(command, ClaimExp):
        claim_exp(decision, seat, command, rng)
    else:
        decision.emit(Passed(seat=seat))
    if decision.state.window is not None and decision.state.window.seats:
        return
    if window.kind == "appeal":
        decision.emit(InspectionResolved(taker=decision.state.carriages[-1].owner))
    elif not is_over(decision.state):
        decision.emit(TurnStarted(seat=seat))  # the claim window sits between turns: the claimer's turn begins


def not_an_answer(decision: Decision[State], seat: int, command: Command, rng: Rng) -> None:
    """Appeal and pass only answer a response window."""
    raise Refusal("nothing-to-answer", "there is no inspection or forgotten Exp to answer now")
