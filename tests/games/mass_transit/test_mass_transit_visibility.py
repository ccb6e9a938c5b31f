"""Private hands, the face-down draw pile, redacted events and the text picture (seed, Setup: "You may look at the
cards in your own hand but do not show your cards to others")."""

from __future__ import annotations

import msgspec

from domain import match
from domain.codec import encode
from domain.games.mass_transit import GAME
from domain.games.mass_transit.components import DECK_IDS
from domain.games.mass_transit.events import CardPlaced, Dealt, Mulligan, TurnEnded
from domain.games.mass_transit.render import render
from domain.games.mass_transit.setup import deal
from domain.games.mass_transit.state import evolve
from domain.games.mass_transit.visibility import hidden_from, redact, scramble, view
from domain.rng import Rng
from tests.games.mass_transit.tables import BUS_STOP, cards, table

BUSES = cards(7, **BUS_STOP)
WALKS = cards(6, move="walk", urgent=False)


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    """Hands are private: a seat's view holds its own cards, other hands and the draw pile only as sizes."""
    state = table(hands=[BUSES[:4], WALKS[:3]], deck=[*BUSES[4:6], *WALKS[3:]], routes={0: [BUSES[6]]})
    mine = view(state, 0)
    assert mine.hand == tuple(BUSES[:4]) and mine.hand_sizes == (4, 3) and mine.deck_size == 5
    assert mine.routes[0] == (BUSES[6],)
    spectator = encode(view(state, None))
    assert all(f'"{c}"'.encode() not in spectator for c in [*BUSES[:6], *WALKS])
    assert hidden_from(state, 0) == frozenset([*WALKS, *BUSES[4:6]])
    assert hidden_from(state, None) == frozenset([*BUSES[:6], *WALKS])


def test_the_set_up_event_shows_a_seat_only_its_own_hand() -> None:
    """The deal is redacted: others' hands, the draw pile and the cards set aside by a mulligan become counts."""
    plain = deal(DECK_IDS, 2, Rng.derive("redact", 0))
    dealt = msgspec.structs.replace(plain, mulligans=(Mulligan(seat=1, set_aside=plain.deck[:4], count=4),))
    seen = redact(dealt, 0)
    assert isinstance(seen, Dealt)
    assert seen.hands == (dealt.hands[0], ()) and seen.deck == () and seen.deck_size == 44
    assert seen.mulligans == (Mulligan(seat=1, count=4),) and seen.hand_sizes == (4, 4)
    assert redact(dealt, None).hands == ((), ())


def test_cards_drawn_at_the_end_of_a_turn_are_seen_only_by_the_drawer() -> None:
    """Seed: the hand is drawn "face down"; others learn how many cards were drawn."""
    event = TurnEnded(seat=1, drawn=tuple(WALKS[:2]), drawn_count=2, next_seat=0)
    assert redact(event, 1) == event
    assert redact(event, 0) == TurnEnded(seat=1, drawn=(), drawn_count=2, next_seat=0)
    assert redact(event, None) == TurnEnded(seat=1, drawn=(), drawn_count=2, next_seat=0)
    placed = CardPlaced(seat=1, card=WALKS[0], route=0, position=0)
    assert redact(placed, 0) == placed  # a played card is public


def test_scramble_re_deals_only_what_the_seat_cannot_see() -> None:
    """`scramble` shuffles the draw pile and the other hands, keeping sizes, the seat's own hand and the map."""
    state = table(hands=[BUSES[:4], WALKS[:4]], deck=[*BUSES[4:], *WALKS[4:]], routes={0: [WALKS[4]]})
    changed = [scramble(state, 0, Rng.derive("scramble", n)) for n in range(5)]
    assert any(s != state for s in changed)
    for s in changed:
        assert s.hands[0] == state.hands[0] and len(s.hands[1]) == 4 and len(s.deck) == len(state.deck)
        assert s.routes == state.routes and view(s, 0) == view(state, 0)
        assert sorted((*s.hands[1], *s.deck)) == sorted((*state.hands[1], *state.deck))


def test_render_draws_every_route_and_hand() -> None:
    """The text picture names each seat's hand, each route with its three lines, and the Commuters' places."""
    events = match.open_match(GAME, ["a", "b"], {}, "render")
    state = match.fold(GAME, events).game_state
    text = render(state)
    assert text.startswith("turn 1, seat 0 to play (0 played); 0/6 home; deck 44")
    assert text.count("route ") == 6 and text.count("  road ") == 6 and "seat 1 hand: " in text
    assert "commuter Big City" in text
    assert evolve(None, events[1]) == state
