"""Metro X rules: what each seat may write for the flipped card (`legal`, `decide`), and how a turn resolves.

Every seat acts on the same card at once. A submission is sealed (`pending`) until the last seat
submits; then every marking is written, completions are announced, and the next card is flipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import msgspec

from domain.engine import Command, Decision, Event, Refusal
from domain.games.metro_x.commands import MarkFreeSpace, MarkRoute, MarkTransfer, Pass
from domain.games.metro_x.components import BOARDS, CARDS, DECK, Board, CardData, solo_rating
from domain.games.metro_x.events import (
    CardFlipped,
    Choice,
    Completion,
    DeckReshuffled,
    GameScored,
    Marking,
    MarkingSubmitted,
    TurnResolved,
)
from domain.games.metro_x.scoring import seat_score
from domain.games.metro_x.state import Sheet, State, evolve, resolve_sheets, write_marking
from domain.rng import Rng


def reach(board: Board, sheet: Sheet, route: int, card: CardData) -> tuple[int, ...]:
    """The stations `card` fills on `route` at most, from the first empty station from the Start Point.

    Rules, Number: stop at a previously filled station or the End Point. Skip: jump filled stations.
    Transfer: the first empty station only (readings 4 and 8).
    """
    stops, marks = board.route_stops[route], sheet.stations
    first = next((k for k, s in enumerate(stops) if not marks[s]), None)
    if first is None:
        return ()
    if card.kind == "transfer":
        return (stops[first],)
    if card.kind == "skip":
        return tuple(s for s in stops[first:] if not marks[s])[: card.value]
    run: list[int] = []
    for s in stops[first:]:
        if marks[s] or len(run) == card.value:
            break
        run.append(s)
    return tuple(run)


def has_empty_window(board: Board, sheet: Sheet, route: int) -> bool:
    """Reading 5: only a route with an empty Train Car Window can take a card."""
    return len(sheet.windows[route]) < board.routes[route].windows


def options_for(state: State, seat: int) -> list[Command]:
    """Every distinct marking `seat` could write for the face-up card, whether or not it already submitted."""
    return list(_options(state.map, state.card, state.sheets[seat]))


@lru_cache(maxsize=4096)
def _options(map_slug: str, card_id: str, sheet: Sheet) -> tuple[Command, ...]:
    # Memoised: a sheet only changes when a turn resolves, while every seat's list is asked for many times.
    board, card = BOARDS[map_slug], CARDS[card_id]
    if card.kind == "free":
        free = [MarkFreeSpace(station=board.stations[i]) for i, m in enumerate(sheet.stations) if not m]
        return (*free, Pass())
    out: list[Command] = []
    for r, route in enumerate(board.routes):
        if not has_empty_window(board, sheet, r):
            continue
        reachable = reach(board, sheet, r, card)
        if card.kind == "transfer":
            if reachable:
                out.append(MarkTransfer(route=route.id))
            out.append(MarkTransfer(route=route.id, write_number=False))
        else:
            out.extend(MarkRoute(route=route.id, stations=n) for n in range(len(reachable) + 1))
    return tuple(out)


def to_move(state: State) -> list[int]:
    """The seats that have not yet submitted a marking this turn."""
    return [] if state.over else [seat for seat, choice in enumerate(state.pending) if choice is None]


def legal(state: State, seat: int) -> list[Command]:
    """Every command `seat` may send now: none once it has submitted this turn."""
    if state.over or not 0 <= seat < state.seats or state.pending[seat] is not None:
        return []
    return options_for(state, seat)


def choice_key(turn: int, seat: int, choice: Choice) -> str:
    """A unique token naming one sealed choice (what `hidden_from` reports to the other seats)."""
    return (
        f"mx-pending:{turn}:{seat}:{choice.action}:{choice.route}:{choice.stations}:"
        f"{int(choice.write_number)}:{choice.station}"
    )


def sealed_choice(state: State, seat: int, command: Command) -> Choice:
    """The choice `command` makes for the face-up card, or a refusal saying why it cannot be written."""
    board, sheet, card = state.board, state.sheets[seat], CARDS[state.card]
    if isinstance(command, MarkFreeSpace | Pass):
        if card.kind != "free":
            raise Refusal("wrong-card", f"{card.id} must fill a Train Car Window (Rules, Clarifications)")
        if isinstance(command, Pass):
            return choice_of(command)
        index = board.station_index.get(command.station)
        if index is None:
            raise Refusal("no-such-station", f"{board.title} has no station {command.station!r}")
        if sheet.stations[index]:
            raise Refusal("station-taken", f"station {command.station} is already filled")
        return choice_of(command)
    if not isinstance(command, MarkRoute | MarkTransfer):
        raise Refusal("unknown-command", f"{type(command).__name__} is not a Metro X command")
    if card.kind == "free":
        raise Refusal("wrong-card", "Free Space fills no window: cross one empty station anywhere, or pass")
    if (card.kind == "transfer") != isinstance(command, MarkTransfer):
        raise Refusal("wrong-card", f"{card.id} is a {card.kind} card: send the matching marking")
    route = board.route_index.get(command.route)
    if route is None:
        raise Refusal("no-such-route", f"{board.title} has no route {command.route!r}")
    if not has_empty_window(board, sheet, route):
        raise Refusal("no-empty-window", f"route {command.route} has no empty Train Car Window")
    reachable = reach(board, sheet, route, card)
    if isinstance(command, MarkTransfer):
        if command.write_number and not reachable:
            raise Refusal("no-empty-station", f"route {command.route} has no empty station for a transfer number")
        return choice_of(command)
    if command.stations < 0:
        raise Refusal("bad-station-count", "the number of stations to cross cannot be negative")
    if command.stations > len(reachable):
        raise Refusal(
            "too-many-stations",
            f"{card.id} crosses at most {len(reachable)} station(s) on route {command.route} now",
        )
    return choice_of(command)


def choice_of(command: Command) -> Choice:
    """The (unkeyed) choice a Metro X command stands for, without checking it."""
    if isinstance(command, MarkRoute):
        return Choice(action="route", route=command.route, stations=command.stations)
    if isinstance(command, MarkTransfer):
        return Choice(action="transfer", route=command.route, write_number=command.write_number)
    if isinstance(command, MarkFreeSpace):
        return Choice(action="free", station=command.station)
    return Choice(action="pass")


def keyed(turn: int, seat: int, choice: Choice) -> Choice:
    """`choice` carrying its unique key."""
    return msgspec.structs.replace(choice, key=choice_key(turn, seat, choice))


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """Seal a seat's marking; the last submission of a turn resolves it and flips the next card."""
    if state.over:
        raise Refusal("game-over", "all Train Car Windows are filled: the game is over")
    if not 0 <= seat < state.seats:
        raise Refusal("not-your-turn", f"seat {seat} is not at this table")
    if state.pending[seat] is not None:
        raise Refusal("already-submitted", "this seat has already submitted its marking; it cannot be changed")
    choice = keyed(state.turn, seat, sealed_choice(state, seat, command))
    decision = Decision(state, evolve)
    decision.emit(MarkingSubmitted(seat=seat, turn=state.turn, choice=choice))
    if all(pending is not None for pending in decision.state.pending):
        decision.emit(*resolve(decision.state, rng))
    return decision.events


def marking(state: State, seat: int, choice: Choice) -> Marking:
    """What a sealed choice writes on the seat's sheet."""
    board, sheet, card = state.board, state.sheets[seat], CARDS[state.card]
    if choice.action == "pass":
        return Marking(seat=seat, action="pass")
    if choice.action == "free":
        return Marking(seat=seat, action="free", crossed=(choice.station,))
    reachable = reach(board, sheet, board.route_index[choice.route], card)
    if choice.action == "transfer":
        if not choice.write_number:
            return Marking(seat=seat, action="transfer", route=choice.route, window="X")
        station = reachable[0]
        return Marking(
            seat=seat, action="transfer", route=choice.route, window="X",
            transfer_station=board.stations[station], transfer_value=board.transfer_value(station),
        )
    crossed = tuple(board.stations[s] for s in reachable[: choice.stations])
    return Marking(seat=seat, action="route", route=choice.route, window=str(card.value), crossed=crossed)


def completions(state: State, sheets: Sequence[Sheet]) -> list[Completion]:
    """Rules, Game Play: routes completed this turn. First completers (ties included) circle gold, later ones white.

    A route is complete when every station on it is filled, by any means (reading 6); solo always takes gold.
    """
    board, out = state.board, []
    for r, route in enumerate(board.routes):
        stops = board.route_stops[r]
        seats = [s for s, sheet in enumerate(sheets)
                 if not sheet.completed[r] and all(sheet.stations[i] for i in stops)]
        gold = state.seats == 1 or not state.gold_taken[r]
        for seat in seats:
            out.append(
                Completion(seat=seat, route=route.id, bonus="gold" if gold else "white",
                           points=route.gold if gold else route.white)
            )
    return out


def resolve(state: State, rng: Rng) -> list[Event]:
    """Every seat has submitted: write all markings, announce completions, then score or flip the next card."""
    board, card = state.board, CARDS[state.card]
    markings = tuple(marking(state, seat, choice) for seat, choice in enumerate(state.pending) if choice is not None)
    written = list(state.sheets)
    for mark in markings:
        written[mark.seat] = write_marking(board, written[mark.seat], mark)
    resolved = TurnResolved(turn=state.turn, card=card.id, markings=markings,
                            completions=tuple(completions(state, written)))
    sheets = resolve_sheets(board, state.sheets, resolved)
    # Reading 1: the game ends after the turn that fills the last Train Car Window (the same turn for everyone).
    if all(sum(len(w) for w in sheet.windows) == board.windows for sheet in sheets):
        final = tuple(seat_score(board, sheet, seat) for seat, sheet in enumerate(sheets))
        rating = solo_rating(final[0].total) if state.seats == 1 else ""
        return [resolved, GameScored(scores=final, solo_rating=rating)]
    return [resolved, *flip(state, card, rng)]


def flip(state: State, card: CardData, rng: Rng) -> list[Event]:
    """The next card: after the Re-Shuffle card all 15 cards are shuffled back (reading 3).

    A face-down shuffled deck is drawn as a uniform draw from the cards not discarded since the last
    shuffle: the same odds, and no hidden deck order to keep. The Re-Shuffle card is among them, so the
    deck is always reshuffled before it could run dry.
    """
    events: list[Event] = []
    discard = state.discard
    if card.reshuffle:
        events.append(DeckReshuffled(cards=len(DECK)))
        discard = ()
    remaining = [card_id for card_id in DECK if card_id not in discard]
    events.append(CardFlipped(turn=state.turn + 1, card=rng.choice(remaining)))
    return events
