"""What New Action and Transfer advisories do (rulebook, "Use Service Advisory"; data.toml `advisories`).

Event advisories change rules in place and live in `in_effect.py`.
"""

from __future__ import annotations

from domain.engine import Decision, Event, Refusal
from domain.games.expect_delays import rules_checks
from domain.games.expect_delays.commands import Disembark, UseServiceAdvisory
from domain.games.expect_delays.components import CARD_ORDER, opponent
from domain.games.expect_delays.events import (
    ActionTaken,
    CardRepaired,
    CardsDiscarded,
    CommuterBoarded,
    ExtraActionGained,
    FareSwipesReturned,
    TouristReturned,
)
from domain.games.expect_delays.rules_effects import draw_train_cards, gain_fare_swipes
from domain.games.expect_delays.rules_in_effect import transfer_fired
from domain.games.expect_delays.rules_movement import move_riders
from domain.games.expect_delays.state import State

# Which parameters of `use-service-advisory` each New Action effect takes: (line, stop, cards).
NEW_ACTION_PARAMETERS: dict[str, tuple[bool, bool, bool]] = {
    "move-all-riders-on-own-line": (True, False, False),
    "gain-fare-swipes": (False, False, False),
    "repair": (False, False, True),
    "discard-then-draw-train": (False, False, True),
    "board-without-fare": (True, False, False),
    "move-one-tourist-on-own-line-to-platform": (True, True, False),
}


def use_new_action(decision: Decision[State], seat: int, command: UseServiceAdvisory) -> None:
    """Perform the active New Action advisory with the command's choices (reading 15: it costs an action)."""
    state = decision.state
    advisory = state.advisory
    if advisory is None:
        raise Refusal("no-advisory-active", "no Service Advisory is in effect")
    if advisory.kind != "new-action":
        raise Refusal("advisory-not-an-action", f"{advisory.name} is a {advisory.kind} advisory, not a New Action")
    wants_line, wants_stop, wants_cards = NEW_ACTION_PARAMETERS[advisory.effect]
    for value, name, wanted in ((command.line, "line", wants_line), (command.stop, "stop", wants_stop),
                                (command.cards, "cards", wants_cards)):
        (rules_checks.given if wanted else rules_checks.not_given)(value, name, f"{advisory.name} ({advisory.effect})")
    effects = _new_action_effects(decision, seat, command, advisory.effect, advisory.amount)
    decision.emit(ActionTaken(seat=seat, action="use-service-advisory"), *effects)


def _new_action_effects(decision: Decision[State], seat: int, command: UseServiceAdvisory, effect: str,
                        amount: int) -> list[Event]:
    """Validate the choices of one New Action effect and return its events."""
    state = decision.state
    line, stop, cards = command.line or "", command.stop or 0, command.cards
    if effect == "move-all-riders-on-own-line":
        rules_checks.own_line(seat, line)
        return [move_riders(line, state.track(line), amount, leave_end_queue=state.rules.tourist_leaves_end_queue)]
    if effect == "gain-fare-swipes":
        return gain_fare_swipes(state, seat, amount)
    if effect == "repair":
        rules_checks.card_count(cards, amount, "Out of Service cards")
        rules_checks.canonical(cards, CARD_ORDER, "cards")
        for card in cards:
            rules_checks.out_of_service(state, card)
        return [CardRepaired(card=card) for card in cards]
    if effect == "discard-then-draw-train":
        rules_checks.card_count(cards, amount, "cards to discard")
        rules_checks.canonical(cards, CARD_ORDER, "cards")
        for card in cards:
            rules_checks.in_hand(state, seat, card)
        return [CardsDiscarded(seat=seat, cards=cards), *draw_train_cards(state, seat, len(cards))]
    if effect == "board-without-fare":
        rules_checks.own_line(seat, line)
        rules_checks.commuter_in_pool(state, seat)
        rules_checks.boarding_stop_open(state, line)
        return [CommuterBoarded(seat=seat, line=line, fare_paid=0)]
    rules_checks.own_line(seat, line)  # move-one-tourist-on-own-line-to-platform
    rules_checks.rider_at(state, line, stop, "tourist", "no-tourist-there")
    return [TouristReturned(line=line, stop=stop)]


def transfer(decision: Decision[State], seat: int, command: Disembark) -> None:
    """The active Transfer advisory fires on a Disembark from a ◇ stop (reading 5).

    Choices (`repair`, `board`) are optional: None declines that part of the card. Maintenance
    Crew repairs one card, so `repair` names one.
    """
    state = decision.state
    advisory = transfer_fired(state, command.stop)
    effect = advisory.effect if advisory else ""
    if effect != "repair":
        rules_checks.not_given(command.repair, "repair", "no Transfer advisory that repairs fires here")
    if effect != "board-without-fare":
        rules_checks.not_given(command.board, "board", "no Transfer advisory that boards fires here")
    if advisory is None:
        return
    amount = advisory.amount
    if effect == "opponent-returns-half-swipes":
        # The rulebook's own example effect: the opponent returns half their swipes, rounded down.
        returned = state.fare_swipes[opponent(seat)] // 2
        decision.emit(*([FareSwipesReturned(seat=opponent(seat), count=returned)] if returned else []))
    elif effect == "gain-fare-swipes":
        decision.emit(*gain_fare_swipes(state, seat, amount))
    elif effect == "repair" and command.repair is not None:
        rules_checks.out_of_service(state, command.repair)
        decision.emit(CardRepaired(card=command.repair))
    elif effect == "board-without-fare" and command.board is not None:
        rules_checks.own_line(seat, command.board)
        rules_checks.commuter_in_pool(state, seat)
        rules_checks.boarding_stop_open(state, command.board)
        decision.emit(CommuterBoarded(seat=seat, line=command.board, fare_paid=0))
    elif effect == "draw-train-cards":
        decision.emit(*draw_train_cards(state, seat, amount))
    elif effect == "gain-extra-action":
        decision.emit(ExtraActionGained(seat=seat, count=amount))
