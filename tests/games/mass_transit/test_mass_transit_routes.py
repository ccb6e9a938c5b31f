"""Building the six routes card by card (seed: Gameplay 1, Suburbs; readings 6, 10, 16)."""

from __future__ import annotations

from domain.games.mass_transit import GAME
from domain.games.mass_transit.commands import DiscardCard, EndTurn, PlaceCard
from domain.games.mass_transit.events import CardPlaced
from domain.games.mass_transit.rules import legal
from tests.games.given import given
from tests.games.mass_transit.tables import BUS_STOP, FERRY_PLAIN, FERRY_STOP, SPARE, TRAIN_PLAIN, card, cards, table

BUS, FERRY = cards(1, **BUS_STOP)[0], cards(1, **FERRY_STOP)[0]
FILL = cards(3, **TRAIN_PLAIN) + cards(2, **FERRY_PLAIN)
BUS_HOME_3 = card(move="bus", suburbs=3)
FERRY_HOME_4 = card(move="ferry", suburbs=4)


def test_a_card_starts_a_route_on_a_free_edge_of_the_big_city() -> None:
    """Seed, Gameplay 1: "When you first play a card to start a route, place it to extend the road, canal, and rail
    lines on one edge of the Big City board" (reading 10: rows are fixed, so no orientation choice)."""
    state = table(hands=[[BUS, FERRY, *SPARE]])
    events = given(GAME, state).when(PlaceCard(card=BUS, route=3)).events
    assert events == [CardPlaced(seat=0, card=BUS, route=3, position=0)]
    state = given(GAME, state).when(PlaceCard(card=BUS, route=3)).state
    assert state.routes[3] == (BUS,) and state.hands[0] == (FERRY, *SPARE) and state.played == 1


def test_a_card_continues_a_route_at_its_open_end_only() -> None:
    """Reading 16: "a card is added only at the open end of an existing route ... no branching, no inserting"."""
    state = table(hands=[[FERRY, *SPARE]], routes={0: [BUS]})
    assert (
        given(GAME, state)
        .when(PlaceCard(card=FERRY, route=0)).events
    ) == [CardPlaced(seat=0, card=FERRY, route=0, position=1)]
    assert given(GAME, state).when(PlaceCard(card=FERRY, route=0)).state.routes[0] == (BUS, FERRY)


def test_the_banner_has_no_bearing_on_placing() -> None:
    """Seed: "The colored banner and icon at the top of a card have no bearing on its use when being played to extend
    a route": a Null card, and any card, may be laid on any open route."""
    null = card(move="null", urgent=False)
    state = table(hands=[[null]], routes={1: [BUS]})
    placements = {(c.card, c.route) for c in legal(state, 0) if isinstance(c, PlaceCard)}
    assert placements == {(null, r) for r in range(6)}


def test_worked_example_6_suburbs_need_their_distance_of_cards_before_them() -> None:
    """rules/mass-transit.md worked example 6; seed, Suburbs: "Each Suburbs card shows a number (3 or 4) ... the
    minimum number of cards that must be placed between the Big City and that Suburbs card"."""
    state = table(hands=[[BUS_HOME_3, FERRY_HOME_4, *SPARE]], routes={0: FILL[:2], 1: FILL[2:5]})
    given(GAME, state).when(PlaceCard(card=BUS_HOME_3, route=0)).then_refused("suburbs-too-close")
    given(GAME, state).when(PlaceCard(card=FERRY_HOME_4, route=1)).then_refused("suburbs-too-close")
    given(GAME, state).when(PlaceCard(card=FERRY_HOME_4, route=2)).then_refused("suburbs-too-close")
    assert given(GAME, state).when(PlaceCard(card=BUS_HOME_3, route=1)).events == [
        CardPlaced(seat=0, card=BUS_HOME_3, route=1, position=3)
    ]
    listed = {(c.card, c.route) for c in legal(state, 0) if isinstance(c, PlaceCard) and c.card not in SPARE}
    assert listed == {(BUS_HOME_3, 1)}


def test_nothing_is_placed_after_a_suburbs_card() -> None:
    """Reading 6: "nothing may be placed after a Suburbs card" (it is the end of the route)."""
    state = table(hands=[[BUS]], routes={2: [*FILL[:3], BUS_HOME_3]})
    given(GAME, state).when(PlaceCard(card=BUS, route=2)).then_refused("route-closed")
    assert all(c.route != 2 for c in legal(state, 0) if isinstance(c, PlaceCard))


def test_there_are_six_routes() -> None:
    """Seed: "Six transit routes lead out of the Big City"; routes are numbered 0-5."""
    state = table(hands=[[BUS]])
    given(GAME, state).when(PlaceCard(card=BUS, route=6)).then_refused("no-such-route")
    given(GAME, state).when(PlaceCard(card=BUS, route=-1)).then_refused("no-such-route")


def test_only_cards_in_your_hand_can_be_played() -> None:
    """Seed, Gameplay: "play ... cards from your hand"."""
    state = table(hands=[[BUS], [FERRY]])
    given(GAME, state).when(PlaceCard(card=FERRY, route=0)).then_refused("card-not-in-hand")
    given(GAME, state).when(DiscardCard(card=FERRY, commuter=0)).then_refused("card-not-in-hand")


def test_only_the_seat_whose_turn_it_is_may_act() -> None:
    """Seed: "Taking turns ... Play then passes clockwise"; other seats have no legal commands."""
    state = table(hands=[[BUS], [FERRY]], active=0)
    given(GAME, state).when(1, PlaceCard(card=FERRY, route=0)).then_refused("not-your-turn")
    given(GAME, state).when(1, EndTurn()).then_refused("not-your-turn")
    assert legal(state, 1) == []
    assert legal(state, 0) != []
