"""`decide`, `legal` and `to_move`: who may act now, in a turn or in a response window, and what they may send.

Each command's judgement lives in `rules_plays.py`, what follows a turn in `rules_flow.py`, and the queries both ask of
the table in `rules_table.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.engine import Command, Decision, Event, Refusal
from domain.games.touched_on import commands, rules_plays
from domain.games.touched_on.rules_table import can_draw, claimable_line, is_over, play_commands, power_card
from domain.games.touched_on.state import State, evolve
from domain.rng import Rng

TURN_HANDLERS: dict[type[Command], Callable[[Decision[State], int, Any, Rng], None]] = {
    commands.PlayEvaders: rules_plays.play_evaders,
    commands.Inspect: rules_plays.inspect,
    commands.FeetOnSeat: rules_plays.feet_on_seat,
    commands.PeakHour: rules_plays.peak_hour,
    commands.TramTracker: rules_plays.tram_tracker,
    commands.GiveCard: rules_plays.give_card,
    commands.Draw: rules_plays.draw,
    commands.EndTurn: rules_plays.end_turn,
    commands.ClaimExp: rules_plays.claim_exp,
    commands.Appeal: rules_plays.not_an_answer,
    commands.Pass: rules_plays.not_an_answer,
}


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """The events `command` by `seat` leads to, or a `Refusal` with a stable code."""
    if is_over(state):
        raise Refusal("game-over", "the game is over")
    if not 0 <= seat < state.seats:
        raise Refusal("not-your-turn", f"seat {seat} is not at this table")
    decision = Decision(state, evolve)
    window = state.window
    if window is not None:
        if window.seats[:1] != (seat,):
            if window.kind == "appeal" and seat == state.turn_seat:  # mid-turn: the turn resumes after the answer
                raise Refusal("awaiting-response", f"waiting for seat {window.seats[0]} to answer")
            raise Refusal("not-your-turn", f"only seat {window.seats[0]} may answer now")
        rules_plays.answer(decision, seat, command, rng)
        return decision.events
    if seat != state.turn_seat:
        raise Refusal("not-your-turn", f"it is seat {state.turn_seat}'s turn")
    if state.give_to >= 0 and not isinstance(command, commands.GiveCard):
        raise Refusal("give-card-first", f"give seat {state.give_to} a card first (Tram Tracker)")
    TURN_HANDLERS[type(command)](decision, seat, command, rng)
    return decision.events


def window_commands(state: State, seat: int) -> list[Command]:
    """Answers of the seat whose response is awaited (none for the others)."""
    window = state.window
    assert window is not None
    if window.seats[:1] != (seat,):
        return []
    if window.kind == "appeal":
        appeal: list[Command] = [commands.Appeal()] if power_card(state, seat, "appeal") is not None else []
        return [*appeal, commands.Pass()]
    claim: list[Command] = [commands.ClaimExp()] if claimable_line(state, seat) else []
    return [*claim, commands.Pass()]


def turn_commands(state: State, seat: int) -> list[Command]:
    """Commands of the seat whose turn it is, outside any window."""
    if state.give_to >= 0:
        return [commands.GiveCard(card=card) for card in dict.fromkeys(state.hands[seat])]
    plays = play_commands(state, seat)
    out: list[Command] = list(plays)
    if claimable_line(state, seat):
        out.append(commands.ClaimExp())
    if state.cards_played or (not plays and (state.drew or not can_draw(state))):
        out.append(commands.EndTurn())
    elif not plays:
        out.append(commands.Draw())
    return out


def legal(state: State, seat: int) -> list[Command]:
    """Every command `seat` may send now, fully enumerated; [] for a seat that may not act."""
    if is_over(state) or not 0 <= seat < state.seats:
        return []
    if state.window is not None:
        return window_commands(state, seat)
    return turn_commands(state, seat) if seat == state.turn_seat else []


def to_move(state: State) -> list[int]:
    """The one seat that may act now: the first awaited responder, else the turn's player."""
    if is_over(state):
        return []
    if state.window is not None:
        return list(state.window.seats[:1])
    return [state.turn_seat]
