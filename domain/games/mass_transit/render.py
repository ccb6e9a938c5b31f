"""A plain-text picture of the table: hands, the six routes line by line, and where each Commuter stands; and every
event told in words (`describe`, which tells an event exactly as given: redact it first, domain/narration.py)."""

from __future__ import annotations

from domain.engine import Narrator
from domain.games.mass_transit import events
from domain.games.mass_transit.components import CARDS, LINES
from domain.games.mass_transit.state import BIG_CITY, State
from domain.games.mass_transit.visibility import status
from domain.narration import Names, cards, listed, plural, who

# One symbol per line feature: plain "--", station "S-", Traffic Stop "T-", dead-end station "S|", absent "  ".
SYMBOL = {"plain": "--", "station": "S-", "traffic": "T-", "station_deadend": "S|", "none": "  "}
MOVE = {"walk": "W", "bus": "B", "ferry": "F", "train": "T", "null": "X"}


def card_cell(card_id: str) -> str:
    """A card's header: id, movement letter, `!` if Urgent, `H3`/`H4` for a Suburbs card."""
    c = CARDS[card_id]
    tail = f"H{c.suburbs}" if c.is_suburbs else ("!" if c.urgent else "")
    return f"{card_id}{MOVE[c.move]}{tail}".ljust(8)


def route_lines(state: State, route: int) -> list[str]:
    """Four rows for one route: card headers, then road, canal and rail."""
    cards = state.routes[route]
    rider = state.commuters[route]
    where = "home" if rider.home else "Big City" if rider.pos == BIG_CITY else f"card {rider.pos}"
    held = f", held:{rider.held}" if rider.held else ""
    rows = [f"route {route} (commuter {where}{held}): " + "".join(card_cell(c) for c in cards)]
    for line in LINES:
        cells = []
        for pos, card_id in enumerate(cards):
            mark = "*" if pos == rider.pos else " "
            cells.append(f"{mark}{SYMBOL[CARDS[card_id].feature(line)]}".ljust(8))
        rows.append(f"  {line:<5} " + "".join(cells))
    return rows


def render(state: State) -> str:
    """The whole table as text."""
    lines = [
        f"turn {state.turn}, seat {state.active} to play ({state.played} played); {state.home}/6 home; "
        f"deck {len(state.deck)}, discards {len(state.discards)}; {status(state)}"
    ]
    for seat, hand in enumerate(state.hands):
        lines.append(f"seat {seat} hand: " + " ".join(card_cell(c).strip() for c in hand))
    for route in range(len(state.routes)):
        lines += route_lines(state, route)
    return "\n".join(lines) + "\n"


def _card(card: str) -> str:
    """A card by id and what it shows: its movement icon, Suburbs distance, Urgent."""
    face = CARDS.get(card)
    if face is None:
        return card
    kind = f"Suburbs {face.suburbs}" if face.is_suburbs else ("Null" if face.move == "null" else face.move)
    return f"{card} ({kind}{', urgent' if face.urgent else ''})"


def _dealt(event: events.Dealt, names: Names) -> str:
    sizes = event.hand_sizes or tuple(len(hand) for hand in event.hands)
    shown = "; ".join(f"{who(names, s)} holds {listed(_card(c) for c in hand)}"
                      for s, hand in enumerate(event.hands) if hand)
    mulligans = "".join(f" {who(names, m.seat)} set aside a Suburbs-heavy hand and drew {plural(m.count or 4, 'card')}."
                        for m in event.mulligans)
    return (f"The cards were dealt ({listed(plural(n, 'card') for n in sizes)} in hand, "
            f"{plural(event.deck_size or len(event.deck), 'card')} to draw); {who(names, event.first_seat)} starts."
            + (f" {shown}." if shown else "") + mulligans)


def _moved(event: events.CommuterMoved, names: Names) -> str:
    how = "walked" if event.by == "walk" else f"rode the {event.by}"
    steps = abs(event.to_pos - event.from_pos)
    tail = " and reached home in the Suburbs" if event.home else (f", held by a Traffic Stop ({event.held} only)"
                                                                     if event.held else "")
    return (f"{who(names, event.seat)} discarded {_card(event.card)}: Commuter {event.commuter + 1} {how} "
            f"{plural(steps, 'card')} along its route{tail}.")


describe = Narrator({
    events.Dealt: _dealt,
    events.CardPlaced: lambda e, n: f"{who(n, e.seat)} placed {_card(e.card)} on route {e.route + 1} at card "
                                    f"{e.position + 1}.",
    events.CommuterMoved: _moved,
    events.TurnEnded: lambda e, n: f"{who(n, e.seat)} ended the turn and drew "
                                   f"{cards(e.drawn, e.drawn_count or len(e.drawn), _card)}; "
                                   f"{who(n, e.next_seat)} is next.",
    events.TeamLost: lambda e, n: f"{who(n, e.seat)} cannot play two cards (holding {plural(e.hand_size, 'card')}): "
                                  f"the team loses.",
})
