"""A plain-text picture of the table (golden files, replay CLI; it shows everything, hands included), and every
event told in words (`describe`, which tells an event exactly as given: redact it first, domain/narration.py)."""

from __future__ import annotations

from domain.engine import Narrator
from domain.games.expect_delays import events
from domain.games.expect_delays.components import ADVISORIES, LINE_ORDER, LINES, SETUP, TRACK, TRAIN_CARDS
from domain.games.expect_delays.state import State
from domain.narration import Names, cards, listed, plural, who

RIDER_MARKS = {None: ".", "commuter": "C", "tourist": "t"}


def _advisory(card: str | None) -> str:
    if card is None:
        return "none"
    advisory = ADVISORIES[card]
    amount = f" {advisory.amount}" if advisory.amount else ""
    return f"{card} {advisory.name} ({advisory.kind}: {advisory.effect}{amount})"


def render(state: State) -> str:
    """The table: status line, advisories, each line's stops, each seat, then the shared piles."""
    name = SETUP.seat_names[state.active_seat]
    status = f"over: {state.end_reason}" if state.end_reason else f"{name} to act, {state.actions_left} action(s) left"
    points = " ".join(f"{p}{'◇' if i in TRACK.transfer_stops else ' '}" for i, p in enumerate(TRACK.stop_points))
    lines = [
        f"Expect Delays, turn {state.turn}/{state.max_turns}: {status}",
        f"advisory: active {_advisory(state.active_advisory)}; next {_advisory(state.next_advisory)}",
        f"stop points      {points}",
    ]
    for line, stops in zip(LINE_ORDER, state.tracks, strict=True):
        owner = SETUP.seat_names[LINES[line].owner]
        lines.append(f"{line} {owner:<9}    " + " ".join(f"{RIDER_MARKS[rider]} " for rider in stops))
    for seat, hand in enumerate(state.hands):
        lines.append(
            f"seat {seat} {SETUP.seat_names[seat]}: {state.points[seat]} pts, {state.fare_swipes[seat]} swipes, "
            f"{state.commuters_in_pool(seat)} in pool, hand [{' '.join(hand)}]"
        )
    lines.append(
        f"platform: {state.platform_fare_swipes} swipes, {state.platform_tourists} tourists; "
        f"deck {len(state.train_deck)}; discard [{' '.join(state.discard_pile)}]; "
        f"out of service [{' '.join(state.out_of_service)}]"
    )
    return "\n".join(lines) + "\n"


def _card(card: str) -> str:
    """A Train card by id and the line symbols printed on it."""
    symbols = TRAIN_CARDS[card].symbols if card in TRAIN_CARDS else ()
    return f"{card} ({'/'.join(symbols)})" if symbols else card


def _line(line: str) -> str:
    return f"the {line} line ({LINES[line].colour})" if line in LINES else f"the {line} line"


def _stop(stop: int | None) -> str:
    return "the Platform" if stop is None else f"stop {stop}"


def _ridden(event: events.RidersMoved, names: Names) -> str:
    moves = "; ".join(f"{_stop(m.from_stop)} to {_stop(m.to_stop)}" for m in event.moves)
    return f"The riders of {_line(event.line)} moved up to {plural(event.stops, 'stop')}" + (
        f": {moves}." if moves else " (nobody rode).")


ACTIONS = {"board": "boarded a Commuter", "disembark": "chose to disembark", "repair": "chose to repair",
           "run-the-line": "ran a line", "take-out-of-service": "took a card out of service",
           "use-service-advisory": "used the Service Advisory"}
ENDS = {"ten-points": "a seat reached the winning points", "subway-broken-down": "the subway broke down",
        "turn-limit": "the turn limit was reached"}

describe = Narrator({
    events.GameSetUp: lambda e, n: f"The table was set up for {e.seats} seats (at most {e.max_turns} turns); "
                                   f"{who(n, 0)} is {SETUP.seat_names[0]}, {who(n, 1)} {SETUP.seat_names[1]}.",
    events.TrainDeckShuffled: lambda e, n: f"The Train deck was shuffled ({plural(e.size or len(e.order), 'card')})"
                                           + (f": {listed(e.order)}." if e.order else "."),
    events.AdvisoryDeckShuffled: lambda e, n: f"The advisory deck was shuffled ({plural(e.size, 'card')})"
                                              + (f"; {e.order[0]} lies face up." if e.order else "."),
    events.CardsDrawn: lambda e, n: f"{who(n, e.seat)} drew {cards(e.cards, e.count or len(e.cards), _card)}.",
    events.ActionTaken: lambda e, n: f"{who(n, e.seat)} {ACTIONS.get(e.action, e.action)}.",
    events.CommuterBoarded: lambda e, n: f"{who(n, e.seat)}'s Commuter boarded {_line(e.line)}, paying "
                                         f"{plural(e.fare_paid, 'Fare Swipe')}.",
    events.CommuterDisembarked: lambda e, n: f"{who(n, e.seat)}'s Commuter got off {_line(e.line)} at stop {e.stop}"
                                             f", scoring {plural(e.points, 'point')}.",
    events.TouristBoarded: lambda e, n: f"A Tourist boarded {_line(e.line)}.",
    events.TouristReturned: lambda e, n: f"A Tourist left {_line(e.line)} at stop {e.stop} for the Platform.",
    events.RidersMoved: _ridden,
    events.CardsDiscarded: lambda e, n: f"{who(n, e.seat)} discarded {cards(e.cards, len(e.cards), _card)}.",
    events.CardTakenOutOfService: lambda e, n: f"{who(n, e.seat)} took {_card(e.card)} out of service for "
                                               f"{plural(e.fare_swipes, 'Fare Swipe')}.",
    events.CardRepaired: lambda e, n: f"{_card(e.card)} was repaired (to the Discard pile).",
    events.FareSwipesGained: lambda e, n: f"{who(n, e.seat)} gained {plural(e.count, 'Fare Swipe')}.",
    events.FareSwipesReturned: lambda e, n: f"{who(n, e.seat)} returned {plural(e.count, 'Fare Swipe')}.",
    events.ExtraActionGained: lambda e, n: f"{who(n, e.seat)} gained {plural(e.count, 'extra action')}.",
    events.ActionPhaseEnded: lambda e, n: f"{who(n, e.seat)}'s Action Phase ended" + (" early." if e.early else "."),
    events.AdvisoryRevealed: lambda e, n: f"Service Advisory {_advisory(e.advisory)} took effect"
                                          + (f"; next face up: {e.next}." if e.next else "."),
    events.TurnPassed: lambda e, n: f"Turn {e.turn}: {who(n, e.seat)} to act.",
    events.GameOver: lambda e, n: f"The game is over: {ENDS.get(e.reason, e.reason)}.",
})
