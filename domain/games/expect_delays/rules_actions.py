"""The six actions of the Action Phase (rulebook, "A. Action Phase"), each as a decision on the table.

Each function validates the command (raising `Refusal`) and emits `ActionTaken` and the action's effects.
Disembark checks its later choices against the table as it stands after scoring; a refusal part-way
still writes nothing.
"""

from __future__ import annotations

from domain.engine import Decision, Refusal
from domain.games.expect_delays import rules_checks
from domain.games.expect_delays.commands import (
    Board,
    Disembark,
    Repair,
    RunTheLine,
    TakeOutOfService,
    UseServiceAdvisory,
)
from domain.games.expect_delays.components import CARD_ORDER, LINE_ORDER, SETUP, TRACK, TRAIN_CARDS
from domain.games.expect_delays.events import (
    ActionTaken,
    CardRepaired,
    CardsDiscarded,
    CardTakenOutOfService,
    CommuterBoarded,
    CommuterDisembarked,
    GameOver,
    TouristBoarded,
)
from domain.games.expect_delays.rules_advisories import transfer, use_new_action
from domain.games.expect_delays.rules_effects import run_the_line
from domain.games.expect_delays.rules_in_effect import board_cost, out_of_service_gain, tourists_per_disembark
from domain.games.expect_delays.state import State


def board(decision: Decision[State], seat: int, command: Board) -> None:
    """Board: pay the fare to the Platform; a Commuter from your pool takes the 0 stop of your line."""
    state = decision.state
    rules_checks.own_line(seat, command.line)
    rules_checks.commuter_in_pool(state, seat)
    rules_checks.boarding_stop_open(state, command.line)
    cost = board_cost(state)
    if state.fare_swipes[seat] < cost:
        have = state.fare_swipes[seat]
        raise Refusal("not-enough-fare-swipes", f"boarding costs {cost} Fare Swipes; you have {have}")
    decision.emit(ActionTaken(seat=seat, action="board"), CommuterBoarded(seat=seat, line=command.line, fare_paid=cost))


def disembark(decision: Decision[State], seat: int, command: Disembark) -> None:
    """Disembark: score the stop's points; then (reading 19) an optional Tourist, then a Transfer effect."""
    rules_checks.own_line(seat, command.line)
    rules_checks.rider_at(decision.state, command.line, command.stop, "commuter", "no-commuter-there")
    points = TRACK.stop_points[command.stop]
    decision.emit(
        ActionTaken(seat=seat, action="disembark"),
        CommuterDisembarked(seat=seat, line=command.line, stop=command.stop, points=points),
    )
    if decision.state.points[seat] >= SETUP.win_points:
        # Reading 13: the 10th point ends the game at once; nothing else of the action happens.
        why = "the game ended with this Disembark"
        rules_checks.not_given(command.tourists, "tourists", why)
        rules_checks.not_given(command.repair, "repair", why)
        rules_checks.not_given(command.board, "board", why)
        decision.emit(GameOver(reason="ten-points"))
        return
    board_tourists(decision, seat, command.tourists)
    transfer(decision, seat, command)


def board_tourists(decision: Decision[State], seat: int, lines: tuple[str, ...]) -> None:
    """Rulebook, Disembark: you may Board a Tourist onto an open 0 stop of your opponent's lines."""
    state = decision.state
    for line in lines:
        rules_checks.known_line(line)
    rules_checks.canonical(lines, LINE_ORDER, "Tourist lines")
    for line in lines:
        rules_checks.opponent_line(seat, line)
    allowed = tourists_per_disembark(state)
    if len(lines) > allowed:
        raise Refusal("too-many-tourists", f"a Disembark boards at most {allowed} Tourist(s)")
    if len(lines) > state.platform_tourists:
        raise Refusal("no-tourists-left", f"the Platform has {state.platform_tourists} Tourist(s) left")
    for line in lines:
        rules_checks.boarding_stop_open(state, line)
    decision.emit(*(TouristBoarded(line=line) for line in lines))


def repair(decision: Decision[State], seat: int, command: Repair) -> None:
    """Repair: any Out of Service card goes back to the Discard pile (reading 12: not only your own)."""
    rules_checks.out_of_service(decision.state, command.card)
    decision.emit(ActionTaken(seat=seat, action="repair"), CardRepaired(card=command.card))


def run_line(decision: Decision[State], seat: int, command: RunTheLine) -> None:
    """Run the Line: discard cards showing your chosen line; riders move one stop per symbol (reading 8)."""
    state = decision.state
    rules_checks.own_line(seat, command.line)
    if not command.cards:
        raise Refusal("missing-choice", "discard at least one card showing the chosen line")
    rules_checks.canonical(command.cards, CARD_ORDER, "cards")
    for card in command.cards:
        rules_checks.in_hand(state, seat, card)
        if command.line not in TRAIN_CARDS[card].symbols:
            raise Refusal("symbol-missing", f"{card} does not show line {command.line}")
    decision.emit(
        ActionTaken(seat=seat, action="run-the-line"),
        CardsDiscarded(seat=seat, cards=command.cards),
        *run_the_line(state, command.line, command.cards),
    )


def take_out_of_service(decision: Decision[State], seat: int, command: TakeOutOfService) -> None:
    """Take Out of Service: the card leaves the game until Repaired; gain its Fare Swipes (reading 11)."""
    state = decision.state
    rules_checks.in_hand(state, seat, command.card)
    decision.emit(
        ActionTaken(seat=seat, action="take-out-of-service"),
        CardTakenOutOfService(seat=seat, card=command.card, fare_swipes=out_of_service_gain(state, command.card)),
    )


def use_service_advisory(decision: Decision[State], seat: int, command: UseServiceAdvisory) -> None:
    """Use Service Advisory: perform the active New Action advisory (reading 15)."""
    use_new_action(decision, seat, command)

