"""A compact text picture of the Metro X table: the card, then each sheet route by route; and every event told in
words (`describe`, which tells an event exactly as given: redact it first, domain/narration.py)."""

from __future__ import annotations

from domain.engine import Narrator
from domain.games.metro_x import events
from domain.games.metro_x.components import CARDS, DECK
from domain.games.metro_x.scoring import score_sheets
from domain.games.metro_x.state import CROSSED, State
from domain.narration import Names, listed, plural, who

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


def _card(card: str) -> str:
    """A Metro X card by what it lets a seat do."""
    data = CARDS.get(card)
    if data is None:
        return card
    return {"number": f"a {data.value}", "skip": f"a skip {data.value}", "transfer": "a Transfer",
            "free": "a free station"}.get(data.kind, card) + (" marked reshuffle" if data.reshuffle else "")


def choice_words(choice: events.Choice) -> str:
    """A sealed choice in words: `2 stations on route C`, `a free station at 3.4`, `to pass`."""
    if choice.action == "pass":
        return "to pass"
    if choice.action == "transfer":
        return f"a transfer at {choice.station}" if choice.station else "a transfer with no station to write it on"
    if choice.action == "free":  # Rules, Free Space: any one empty station, on no route in particular
        return f"a free station at {choice.station}" if choice.station else "a free station"
    return f"{plural(choice.stations, 'station')} on route {choice.route}" + (
        " and to write the number" if choice.write_number else "")


def _marking(mark: events.Marking, names: Names) -> str:
    if mark.action == "pass":
        return f"{who(names, mark.seat)} passed"
    if mark.action == "transfer":
        if not mark.transfer_station:
            return f"{who(names, mark.seat)} had no station for the transfer"
        return f"{who(names, mark.seat)} wrote {mark.transfer_value} at {mark.transfer_station}"
    crossed = f"crossed {listed(mark.crossed)}" if mark.crossed else "crossed nothing"
    route = f" on route {mark.route}" if mark.route else ""  # a free station is on no route
    return f"{who(names, mark.seat)} {crossed}{route}" + (f" (window {mark.window})" if mark.window else "")


def _resolved(event: events.TurnResolved, names: Names) -> str:
    marks = "; ".join(_marking(m, names) for m in event.markings) or "nobody marked"
    done = "".join(f" {who(names, c.seat)} completed route {c.route} ({c.bonus} bonus, {plural(c.points, 'point')})."
                   for c in event.completions)
    return f"Turn {event.turn} ({_card(event.card)}): {marks}.{done}"


def _scored(event: events.GameScored, names: Names) -> str:
    lines = "; ".join(f"{who(names, s.seat)} {s.total} ({s.completed} completed, {s.transfers} transfers, "
                      f"{s.empty} empty, -{s.penalty})" for s in event.scores)
    return f"Final scores: {lines}." + (f" Solo rating: {event.solo_rating}." if event.solo_rating else "")


describe = Narrator({
    events.SetUp: lambda e, n: f"Each of {plural(e.seats, 'seat')} took a {e.map} map sheet.",
    events.CardFlipped: lambda e, n: f"Turn {e.turn}: the card flipped is {_card(e.card)}.",
    events.DeckReshuffled: lambda e, n: f"The deck was reshuffled ({plural(e.cards, 'card')}).",
    events.MarkingSubmitted: lambda e, n: f"{who(n, e.seat)} chose " + (
        f"{choice_words(e.choice)}." if e.choice is not None else "a marking (sealed until the turn resolves)."),
    events.TurnResolved: _resolved,
    events.GameScored: _scored,
})
