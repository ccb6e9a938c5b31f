"""A plain-text picture of the table, for golden files and replays; and every event told in words (`describe`, which
tells an event exactly as given: redact it first, domain/narration.py)."""

from __future__ import annotations

from domain.engine import Narrator
from domain.games.touched_on import events
from domain.games.touched_on.components import (
    DATA,
    evader_line,
    exp_value,
    is_authorised,
    is_evader,
    is_undercover,
    power_kind,
)
from domain.games.touched_on.rules_table import line_count
from domain.games.touched_on.state import State
from domain.narration import Names, cards, listed, plural, who

LINE_LABEL = {line.id: line.label for line in DATA.lines}


def render(state: State) -> str:
    """Journey, lines with their carriages, piles, and each seat's hand and Exp."""
    current = state.current_line or "-"
    out = [f"journey {state.journey}, dealer {state.dealer}, turn {state.turn_seat}, current line {current}"]
    for i, line in enumerate(state.lines):
        exp = "Exp hidden" if state.exp_under[i] else "no Exp"
        exp += ", Free Tram Zone" if line == state.free_tram_zone else ""
        trains = " | ".join(f"s{c.owner}:{' '.join(c.cards)}" for c in state.carriages if c.line == line)
        out.append(f"  {line} [{line_count(state, line)}, {exp}] {trains}".rstrip())
    last = f"{state.carriages[-1].line} (s{state.carriages[-1].owner})" if state.carriages else "-"
    out.append(f"  most recent carriage {last}; draw {len(state.draw_pile)}, discard {len(state.discard)}, "
               f"Exp pile {len(state.exp_pile)}")
    if state.peak_hours:
        out.append(f"  peak hour: {', '.join(f's{o}' for o, _ in state.peak_hours)}")
    if state.window is not None:
        out.append(f"  window {state.window.kind}: awaiting {list(state.window.seats)}")
    for seat, hand in enumerate(state.hands):
        place = f" place {state.places.index(seat) + 1}" if seat in state.places else ""
        exp = " ".join(state.collected[seat]) or "-"
        out.append(f"  seat {seat}{place}: {' '.join(hand) or '(empty)'} | Exp {exp}")
    return "\n".join(out) + "\n"


def _line(line: str) -> str:
    return LINE_LABEL.get(line, line)


def _unbracketed(line: str) -> str:
    """A line's label for inside a card's brackets, without brackets of its own: "Line 2 tram"."""
    return _line(line).replace(" (", " ").replace(")", "")


def _card(card: str) -> str:
    """A card by id and kind: an Evader of a line, an Inspector, a Power card, an Exp card and its value."""
    if is_evader(card):
        kind = f"Evader, {_unbracketed(evader_line(card))}"
    elif is_authorised(card):
        kind = "Authorised Inspector"
    elif is_undercover(card):
        kind = "Undercover Inspector"
    elif power_kind(card) is not None:
        kind = str(power_kind(card)).replace("-", " ").title()
    elif card.startswith("XP-"):
        kind = f"Exp {exp_value(card)}"
    else:
        return card
    return f"{card} ({kind})"


def _dealt(event: events.JourneyDealt, names: Names) -> str:
    sizes = event.hand_sizes or tuple(len(hand) for hand in event.hands)
    shown = "".join(f" {who(names, s)} holds {listed(_card(c) for c in hand)}." for s, hand in enumerate(event.hands)
                    if hand)
    return (f"Journey {event.journey}: {who(names, event.dealer)} dealt {listed(plural(n, 'card') for n in sizes)}"
            f" ({plural(event.draw_size or len(event.draw_pile), 'card')} to draw).{shown}")


def _one(card: str) -> str:
    return _card(card) if card else "a card"


REASONS = {"unlock": "for unlocking a line", "first": "for finishing first", "second": "for finishing second"}
ENDS = {"two-out": "two players are out", "stuck": "nobody can play", "turn-limit": "the turn limit"}

describe = Narrator({
    events.GameSetUp: lambda e, n: f"The table was set up for {plural(e.seats, 'seat')} on "
                                   f"{listed(map(_line, e.lines))}"
                                   + (f", Free Tram Zone on {_line(e.free_tram_zone)}" if e.free_tram_zone else "")
                                   + f"; {who(n, e.dealer)} deals.",
    events.JourneyDealt: _dealt,
    events.TurnStarted: lambda e, n: f"{who(n, e.seat)}'s turn.",
    events.EvadersPlayed: lambda e, n: f"{who(n, e.seat)} played {cards(e.cards, len(e.cards), _card)} on "
                                       f"{_line(e.line)}" + (" in a new carriage." if e.new_carriage else "."),
    events.ExpUnlocked: lambda e, n: f"{who(n, e.seat)} unlocked the Exp of {_line(e.line)}.",
    events.InspectionStarted: lambda e, n: f"{who(n, e.seat)} sent {_card(e.card)} to inspect {who(n, e.owner)}'s "
                                           f"carriage on {_line(e.line)}.",
    events.Appealed: lambda e, n: f"{who(n, e.seat)} appealed with {_card(e.card)}.",
    events.Passed: lambda e, n: f"{who(n, e.seat)} passed.",
    events.InspectionResolved: lambda e, n: f"The inspection was resolved: {who(n, e.taker)} takes the carriage"
                                            + (" (after an appeal)." if e.appealed else "."),
    events.PeakHourPlayed: lambda e, n: f"{who(n, e.seat)} played {_card(e.card)}.",
    events.TramTrackerPlayed: lambda e, n: f"{who(n, e.seat)} played {_card(e.card)} on {who(n, e.target)}.",
    events.CardTaken: lambda e, n: f"{who(n, e.seat)} took {_one(e.card)} from {who(n, e.target)}.",
    events.CardGiven: lambda e, n: f"{who(n, e.seat)} gave {_one(e.card)} to {who(n, e.target)}.",
    events.DrawPileRenewed: lambda e, n: f"The discards were shuffled into a new draw pile "
                                         f"({plural(e.size or len(e.order), 'card')}).",
    events.CardDrawn: lambda e, n: f"{who(n, e.seat)} drew {_one(e.card)}.",
    events.TurnEnded: lambda e, n: f"{who(n, e.seat)} ended the turn.",
    events.ClaimOffered: lambda e, n: f"{who(n, e.seat)} may claim {_line(e.line)}.",
    events.ExpAwarded: lambda e, n: f"{who(n, e.seat)} won {cards(e.cards, len(e.cards), _card, 'Exp card')} "
                                    f"{REASONS.get(e.reason, e.reason)}.",
    events.PlayerFinished: lambda e, n: f"{who(n, e.seat)} finished in place {e.place}.",
    events.JourneyEnded: lambda e, n: f"Journey {e.journey} ended ({ENDS.get(e.reason, e.reason)})"
                                      + ("; the game is over." if e.final else "."),
})
