"""A plain-text picture of the table: hands, the six routes line by line, and where each Commuter stands."""

from __future__ import annotations

from domain.games.mass_transit.components import CARDS, LINES
from domain.games.mass_transit.state import BIG_CITY, State
from domain.games.mass_transit.visibility import status

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
