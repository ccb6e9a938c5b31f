"""Metro X turns: everyone marks the same flipped card at once; choices stay sealed until the turn resolves."""

from __future__ import annotations

from msgspec.structs import replace

from domain.codec import encode
from domain.engine import Command
from domain.games.metro_x import GAME
from domain.games.metro_x.commands import MarkFreeSpace, MarkRoute, MarkTransfer
from domain.games.metro_x.components import DECK
from domain.games.metro_x.events import CardFlipped, DeckReshuffled, MarkingSubmitted, SetUp, TurnResolved
from domain.games.metro_x.options import Options
from domain.games.metro_x.rules import legal, to_move
from domain.games.metro_x.setup import start
from domain.games.metro_x.state import State
from domain.games.metro_x.visibility import hidden_from, redact, scramble, view
from domain.rng import Rng
from tests.games.given import given
from tests.games.metro_x.tables import table


def test_set_up_flips_the_first_card_as_a_recorded_random_event() -> None:
    """Rules, Set-up and Game Play: blank boards on the chosen map; the flipper reveals the top card. The draw is
    written into `metro-x.card-flipped` so a replay never re-rolls."""
    events = start(Options(map="tube-town"), 3, Rng.derive("seed", 0))
    assert events[0] == SetUp(map="tube-town", seats=3)
    assert isinstance(events[1], CardFlipped) and events[1].turn == 1 and events[1].card in DECK
    assert start(Options(map="tube-town"), 3, Rng.derive("seed", 0)) == events
    state = given(GAME, *events).state
    assert state.card == events[1].card and state.discard == (events[1].card,)
    assert to_move(state) == [0, 1, 2]
    flips = [start(Options(), 1, Rng.derive(f"seed-{n}", 0))[1] for n in range(40)]
    assert len({flip.card for flip in flips if isinstance(flip, CardFlipped)}) > 5


def test_every_seat_acts_on_the_same_card_and_to_move_shrinks() -> None:
    """Rules, Game Play: "All players must now simultaneously pick a route"; `to_move` = seats not yet submitted."""
    state = table("metro-city", seats=3, card="N3-1")
    assert to_move(state) == [0, 1, 2]
    events = given(GAME, state).when(1, MarkRoute(route="A", stations=2)).events
    assert [type(e) for e in events] == [MarkingSubmitted]
    state = given(GAME, state, *events).state
    assert to_move(state) == [0, 2]
    assert legal(state, 1) == []
    assert legal(state, 0) == legal(state, 2) != []


def test_a_submitted_choice_cannot_be_changed() -> None:
    """A seat's marking is final once submitted (simultaneous play: no peeking and re-choosing)."""
    state = given(GAME, table("metro-city", seats=2, card="N3-1")).when(0, MarkRoute(route="A", stations=2)).state
    given(GAME, state).when(0, MarkRoute(route="B", stations=3)).then_refused("already-submitted")
    given(GAME, state).when(0, MarkRoute(route="A", stations=2)).then_refused("already-submitted")


def test_the_turn_resolves_when_the_last_seat_submits() -> None:
    """Rules, Game Play: "Once all players have marked their boards" completions are announced and the next card
    is revealed. Markings are written for every seat at once, in seat order."""
    state = table("metro-city", seats=3, card="N3-1")
    move = (
        given(GAME, state)
        .when(2, MarkRoute(route="C", stations=3))
        .when(0, MarkRoute(route="B", stations=3))
        .when(1, MarkRoute(route="A", stations=1))
    )
    state, events = move.state, move.events
    assert [type(e) for e in events] == [MarkingSubmitted] * 3 + [TurnResolved, CardFlipped]
    resolved = events[3]
    assert isinstance(resolved, TurnResolved)
    assert [(m.seat, m.route, m.crossed) for m in resolved.markings] == [
        (0, "B", ("0.0", "1.0", "1.1")), (1, "A", ("0.0",)), (2, "C", ("2.3", "3.3", "5.3")),
    ]
    flipped = events[4]
    assert isinstance(flipped, CardFlipped) and flipped.turn == 2 and flipped.card != "N3-1"
    assert state.turn == 2 and to_move(state) == [0, 1, 2]
    assert all(choice is None for choice in state.pending)


def sealed_after(command: Command) -> tuple[State, MarkingSubmitted]:
    """Seat 0 of a 3-seat table submits `command` for a 3 Number card."""
    state = table("tube-town", seats=3, card="N3-1")
    events = given(GAME, state).when(0, command).events
    assert len(events) == 1 and isinstance(events[0], MarkingSubmitted)
    return given(GAME, state, *events).state, events[0]


def test_pending_choices_are_invisible_to_other_seats_until_the_turn_resolves() -> None:
    """Simultaneous play: the others (and spectators) see only THAT seat 0 submitted. Whichever choice seat 0
    made, their redacted event and their views are byte-for-byte the same; seat 0 sees its own choice."""
    first, first_event = sealed_after(MarkRoute(route="M", stations=3))
    second, second_event = sealed_after(MarkRoute(route="R", stations=1))
    for seat in (1, 2, None):
        assert encode(redact(first_event, seat)) == encode(redact(second_event, seat))
        assert redact(first_event, seat) == MarkingSubmitted(seat=0, turn=1, choice=None)
        assert encode(view(first, seat)) == encode(view(second, seat))
        assert [s.submitted for s in view(first, seat).sheets] == [True, False, False]
    assert redact(first_event, 0) == first_event
    assert view(first, 0).my_choice == first_event.choice != view(second, 0).my_choice
    assert view(first, 1).my_choice is None


def test_hidden_tokens_name_the_sealed_choices() -> None:
    """`hidden_from` lists the keys of the other seats' sealed choices: unique strings found in the unredacted
    submission event and nowhere in what the other seats receive."""
    state, event = sealed_after(MarkRoute(route="M", stations=3))
    assert event.choice is not None
    key = event.choice.key
    assert key.startswith("mx-pending:1:0:")
    assert f'"{key}"'.encode() in encode(event)
    assert hidden_from(state, 1) == hidden_from(state, None) == frozenset({key})
    assert hidden_from(state, 0) == frozenset()
    for seat in (1, 2, None):
        assert key.encode() not in encode(redact(event, seat))
        assert key.encode() not in encode(view(state, seat))


def test_choices_are_public_once_the_turn_resolves() -> None:
    """Rules, Game Play: after everyone has marked, boards are compared openly; nothing stays hidden."""
    move = (
        given(GAME, table("tube-town", seats=2, card="N3-1"))
        .when(0, MarkRoute(route="M", stations=3))
        .when(1, MarkRoute(route="N", stations=2))
    )
    state, events = move.state, move.events
    resolved = next(e for e in events if isinstance(e, TurnResolved))
    assert redact(resolved, 0) == redact(resolved, None) == resolved
    assert hidden_from(state, None) == frozenset()
    assert view(state, 0).sheets[1].crossed == ("0.7", "0.8")


def test_scramble_replaces_other_seats_pending_choices() -> None:
    """`scramble` for seat 1 swaps seat 0's sealed choice for a different legal one, which seat 1 cannot tell."""
    state, _ = sealed_after(MarkRoute(route="M", stations=3))
    mixed = scramble(state, 1, Rng.derive("scramble", 1))
    assert mixed.pending[0] is not None and state.pending[0] is not None
    assert mixed.pending[0] != state.pending[0]
    assert mixed.pending[0].key != state.pending[0].key
    assert encode(view(mixed, 1)) == encode(view(state, 1))
    assert replace(mixed, pending=state.pending) == state
    assert scramble(state, 0, Rng.derive("scramble", 1)) == state


def test_seats_not_at_the_table_are_refused() -> None:
    """Only seats at the table act."""
    state = table("metro-city", seats=2, card="N3-1")
    given(GAME, state).when(5, MarkRoute(route="A", stations=0)).then_refused("not-your-turn")
    assert legal(state, 5) == []


def test_the_next_card_comes_from_the_undiscarded_cards() -> None:
    """Rules, Game Play: each turn reveals the next card of the deck; discards stay face-up until a Re-Shuffle.
    With 14 cards discarded, the one left (always the Re-Shuffle card) comes next: the deck never runs dry."""
    state = table("metro-city", card="N3-1")
    state = replace(state, discard=tuple(card for card in DECK if card != "RS6"))
    events = given(GAME, state).when(0, MarkRoute(route="A", stations=3)).events
    assert events[-1] == CardFlipped(turn=2, card="RS6")


def test_re_shuffle_after_the_turn() -> None:
    """Worked example 5 (Rules, Number, note): after the Re-Shuffle turn's completions are announced, all 15
    cards (discards and the Re-Shuffle card) are shuffled into a new deck."""
    state = replace(table("metro-city", card="RS6"), discard=(*(c for c in DECK if c != "RS6"), "RS6"))
    move = given(GAME, state).when(0, MarkRoute(route="B", stations=6))
    after, events = move.state, move.events
    assert [type(e) for e in events] == [MarkingSubmitted, TurnResolved, DeckReshuffled, CardFlipped]
    assert events[2] == DeckReshuffled(cards=15)
    flipped = events[3]
    assert isinstance(flipped, CardFlipped) and flipped.card in DECK
    assert after.discard == (flipped.card,)


def test_other_cards_do_not_reshuffle() -> None:
    """Rules, Game Play: ordinary cards are discarded face-up next to the deck."""
    state = table("metro-city", card="TX-1")
    move = given(GAME, state).when(0, MarkTransfer(route="A"))
    after, events = move.state, move.events
    assert not any(isinstance(e, DeckReshuffled) for e in events)
    assert after.discard[0] == "TX-1" and len(after.discard) == 2
    free = table("metro-city", card="FS-1")
    events = given(GAME, free).when(0, MarkFreeSpace(station="6.6")).events
    assert not any(isinstance(e, DeckReshuffled) for e in events)


class Wave(Command, frozen=True, tag="metro-x-test.wave"):
    """Not a Metro X command."""


def test_commands_of_other_games_are_refused() -> None:
    """Only the four Metro X markings are understood (the match layer refuses foreign tags first)."""
    given(GAME, table("metro-city", card="N3-1")).when(0, Wave()).then_refused("unknown-command")


def test_every_sheet_is_public() -> None:
    """Rules, Game Play: boards are compared openly once marked; each seat and spectators see every sheet whole
    (windows, crossed stations, transfer numbers, score boxes), plus the card, discards and deck size."""
    state = (
        given(GAME, table("metro-city", seats=2, card="TX-1"))
        .when(0, MarkTransfer(route="F"))
        .when(1, MarkTransfer(route="A", write_number=False)).state
    )
    for seat in (0, 1, None):
        shown = view(state, seat)
        assert shown.sheets[0].windows["F"] == ("X",) and shown.sheets[0].transfers == {"3.7": 6}
        assert shown.sheets[1].windows["A"] == ("X",) and shown.sheets[1].transfers == {}
        assert shown.sheets[0].score.transfers == 6
        assert shown.discard == state.discard and shown.deck_left == 13 and shown.windows_left == 22
