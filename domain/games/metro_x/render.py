"""A compact text picture of the Metro X table: the card, then each sheet route by route."""

from __future__ import annotations

from domain.games.metro_x.components import CARDS, DECK
from domain.games.metro_x.scoring import score_sheets
from domain.games.metro_x.state import CROSSED, State

# Station marks: x crossed off, T a transfer number (listed after the sheet), . empty.


def render(state: State) -> str:
    """The table as plain text (sealed choices shown only as "sealed")."""
    board, card = state.board, CARDS[state.card]
    label = f"{card.kind} {card.value}" if card.value else card.kind
    lines = [
        f"Metro X - {board.title}, turn {state.turn}, card {card.id} ({label}), "
        f"deck {len(DECK) - len(state.discard)} left, discard: {' '.join(state.discard) or '-'}"
    ]
    for seat, (sheet, score) in enumerate(zip(state.sheets, score_sheets(state), strict=True)):
        status = "sealed" if state.pending[seat] is not None else ("scored" if state.over else "to move")
        lines.append(
            f"seat {seat} [{status}] score {score.total} = completed {score.completed} + transfers "
            f"{score.transfers} - penalty {score.penalty} (empty {score.empty})"
        )
        for r, route in enumerate(board.routes):
            windows = "".join(sheet.windows[r]) + "_" * (route.windows - len(sheet.windows[r]))
            marks = "".join(
                "." if not sheet.stations[i] else ("x" if sheet.stations[i] == CROSSED else "T")
                for i in board.route_stops[r]
            )
            done = f" {sheet.completed[r]} {route.gold if sheet.completed[r] == 'gold' else route.white}"
            lines.append(f"  {route.id} [{windows}] {marks}{done if sheet.completed[r] else ''}")
        transfers = [
            f"{board.stations[i]}={mark}" for i, mark in enumerate(sheet.stations) if mark and mark != CROSSED
        ]
        if transfers:
            lines.append(f"  transfers: {' '.join(transfers)}")
    if state.solo_rating:
        lines.append(f"solo rating: {state.solo_rating}")
    return "\n".join(lines) + "\n"
