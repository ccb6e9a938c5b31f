"""A turn of 2-4 cards, drawing back to four, Urgent cards, the empty draw pile, winning and losing together
(seed: Gameplay, Ending Your Turn, Urgent, Losing the Game, Winning the Game; readings 7, 8, 12; examples 7, 9)."""

from __future__ import annotations

from domain.games.mass_transit import GAME
from domain.games.mass_transit.commands import DiscardCard, EndTurn, PlaceCard
from domain.games.mass_transit.components import DECK
from domain.games.mass_transit.events import CommuterMoved, TeamLost, TurnEnded
from domain.games.mass_transit.rules import legal
from domain.games.mass_transit.state import Commuter, State
from tests.games.given import given
from tests.games.mass_transit.tables import BUS_STOP, TRAIN_PLAIN, card, cards, table

BUSES = cards(6, **BUS_STOP)
PLAINS = cards(3, **TRAIN_PLAIN)
WALKS = cards(6, move="walk", urgent=False)
URGENT_BUS = card(move="bus", urgent=True)
URGENT_NULL = card(move="null", urgent=True, road="traffic", canal="traffic", rail="traffic")
HOME_3, HOME_4 = card(move="bus", suburbs=3), card(move="bus", suburbs=4)
HOME = {1: PLAINS}  # a route with three cards: long enough for a distance-3 Suburbs card


def test_at_least_two_cards_before_ending_the_turn() -> None:
    """Seed, Gameplay: "Each turn, you must play at least two cards from your hand"."""
    state = table(hands=[BUSES[:4], []], deck=BUSES[4:])
    given(GAME, state).when(EndTurn()).then_refused("too-few-cards-played")
    state = given(GAME, state).when(PlaceCard(card=BUSES[0], route=0)).state
    given(GAME, state).when(EndTurn()).then_refused("too-few-cards-played")
    state = given(GAME, state).when(PlaceCard(card=BUSES[1], route=0)).state
    assert EndTurn() in legal(state, 0)


def test_ending_the_turn_draws_back_up_to_four_and_passes_clockwise() -> None:
    """Seed, Ending Your Turn: "To end your turn, draw your hand back up to four cards"; "Play then passes
    clockwise"."""
    deck = [*WALKS[:3], *BUSES[4:]]
    state = table(hands=[BUSES[:4], WALKS[3:6]], deck=deck, played=0)
    state = given(GAME, state).when(PlaceCard(card=BUSES[0], route=0)).when(PlaceCard(card=BUSES[1], route=1)).state
    events = given(GAME, state).when(EndTurn()).events
    assert events == [TurnEnded(seat=0, drawn=tuple(deck[:2]), drawn_count=2, next_seat=1)]
    state = given(GAME, state, *events).state
    assert state.hands[0] == (*BUSES[2:4], *deck[:2]) and state.deck == tuple(deck[2:])
    assert (state.active, state.turn, state.played) == (1, 2, 0)


def test_up_to_all_four_cards_may_be_played() -> None:
    """Seed, Gameplay: "you may play up to all four"; then there is nothing left to play but the end of the turn."""
    state = table(hands=[BUSES[:4]], deck=[*WALKS, *BUSES[4:]])
    four = given(GAME, state).when(PlaceCard(card=BUSES[0], route=0)).when(PlaceCard(card=BUSES[1], route=0))
    four = four.when(PlaceCard(card=BUSES[2], route=0)).when(PlaceCard(card=BUSES[3], route=0))
    assert legal(four.state, 0) == [EndTurn()]
    assert four.when(EndTurn()).events[-1] == TurnEnded(seat=0, drawn=(*WALKS[:4],), drawn_count=4, next_seat=0)


def test_worked_example_7_urgent_cards_held_at_the_start_of_the_turn_must_be_played() -> None:
    """Worked example 7; seed, Urgent: "If you start your turn with cards in your hand that have the Urgent icon, you
    MUST play them that turn ... they can either be played to extend a route or discarded to move a Commuter"."""
    state = table(hands=[[URGENT_BUS, *BUSES[:3]]], deck=BUSES[3:])
    state = given(GAME, state).when(PlaceCard(card=BUSES[0], route=0)).when(PlaceCard(card=BUSES[1], route=0)).state
    given(GAME, state).when(EndTurn()).then_refused("urgent-cards-left")
    state = given(GAME, state).when(PlaceCard(card=URGENT_BUS, route=2)).state
    assert EndTurn() in legal(state, 0)


def test_urgent_cards_need_not_be_played_first() -> None:
    """Seed, Urgent: "Urgent cards do not have to be the first cards you play on your turn"."""
    state = table(hands=[[BUSES[0], URGENT_BUS, BUSES[1]]], deck=BUSES[2:])
    assert PlaceCard(card=BUSES[0], route=0) in legal(state, 0)
    state = given(GAME, state).when(PlaceCard(card=BUSES[0], route=0)).when(PlaceCard(card=URGENT_BUS, route=0)).state
    assert EndTurn() in legal(state, 0)


def closed_routes() -> dict[int, list[str]]:
    """All six routes ended by their Suburbs cards (3 or 4 ordinary cards before each)."""
    homes = sorted((c for c in DECK if c.is_suburbs), key=lambda c: c.suburbs)
    fill = [c.id for c in DECK if not c.is_suburbs and not c.urgent and c.move != "walk"]
    routes: dict[int, list[str]] = {}
    for route, home in enumerate(homes):
        routes[route], fill = [*fill[: home.suburbs], home.id], fill[home.suburbs :]
    return routes


def test_reading_7_an_urgent_card_with_no_legal_play_may_stay_in_hand() -> None:
    """Reading 7: "If an Urgent card has no legal play, it simply stays (no penalty)": with every route closed, an
    Urgent Null card can be neither placed nor discarded."""
    state = table(hands=[[URGENT_NULL]], deck=WALKS[:3], routes=closed_routes(), played=2)
    assert legal(state, 0) == [EndTurn()]
    ended = TurnEnded(seat=0, drawn=tuple(WALKS[:3]), drawn_count=3, next_seat=0)
    assert given(GAME, state).when(EndTurn()).events[0] == ended


def test_worked_example_9_no_reshuffle_once_the_draw_pile_runs_out() -> None:
    """Worked example 9; seed: "If the draw pile runs out, players can no longer draw cards ... Never reshuffle the
    discard pile"; reading 8: play continues from the hands."""
    discards = WALKS[4:6]
    state = table(hands=[BUSES[:4]], deck=[BUSES[4]], discards=discards)
    state = given(GAME, state).when(PlaceCard(card=BUSES[0], route=0)).when(PlaceCard(card=BUSES[1], route=0)).state
    events = given(GAME, state).when(EndTurn()).events
    assert events == [TurnEnded(seat=0, drawn=(BUSES[4],), drawn_count=1, next_seat=0)]
    state = given(GAME, state, *events).state
    assert state.deck == () and state.discards == tuple(discards) and len(state.hands[0]) == 3
    state = given(GAME, state).when(PlaceCard(card=BUSES[2], route=0)).when(PlaceCard(card=BUSES[3], route=0)).state
    events = given(GAME, state).when(EndTurn()).events
    assert events[0] == TurnEnded(seat=0, drawn=(), drawn_count=0, next_seat=0)
    assert events[1:] == [TeamLost(seat=0, hand_size=1)]  # one card left: two cannot be played


def test_worked_example_7_the_team_loses_when_the_next_player_cannot_play_two_cards() -> None:
    """Worked example 7; seed, Losing the Game: "If any player is unable to play at least two cards during their turn,
    the game is over and the team loses"; reading 8: also when the empty draw pile leaves fewer than two."""
    state = table(hands=[BUSES[:2], [BUSES[2]]], played=2)
    events = given(GAME, state).when(EndTurn()).events
    assert events == [TurnEnded(seat=0, next_seat=1), TeamLost(seat=1, hand_size=1)]
    lost = given(GAME, state, *events).state
    assert lost.over and not lost.won and GAME.to_move(lost) == [] and legal(lost, 1) == []
    outcome = GAME.outcome(lost)
    assert outcome is not None and outcome.cooperative and outcome.team_won is False
    assert outcome.reason == "team-lost: seat 1 could not play two cards; 0 of 6 Commuters home in 2 turns"


def test_two_suburbs_cards_with_only_one_place_to_go_cannot_both_be_played() -> None:
    """Seed, Losing the Game: two cards in hand are not enough when they cannot both be played — here a distance-3
    and a distance-4 Suburbs card, and the only long route has three cards."""
    state = table(hands=[[BUSES[0], BUSES[1]], [HOME_3, HOME_4]], routes=HOME, played=2)
    assert given(GAME, state).when(EndTurn()).events[1:] == [TeamLost(seat=1, hand_size=2)]
    longer = table(hands=[[BUSES[0], BUSES[1]], [HOME_3, HOME_4]], routes={**HOME, 2: BUSES[2:6]}, played=2)
    assert given(GAME, longer).when(EndTurn()).events == [TurnEnded(seat=0, next_seat=1)]


def test_a_player_whose_first_play_leaves_no_second_play_loses() -> None:
    """Seed, Losing the Game, as applied mid-turn (package README): placing the Walk card first would let the
    distance-4 Suburbs card follow on the same route, but discarding it leaves a card that cannot be played."""
    state = table(hands=[[WALKS[0], HOME_4]], routes={0: PLAINS})
    assert PlaceCard(card=WALKS[0], route=0) in legal(state, 0)
    events = given(GAME, state).when(DiscardCard(card=WALKS[0], commuter=0)).events
    assert isinstance(events[0], CommuterMoved) and events[1:] == [TeamLost(seat=0, hand_size=1)]
    good = given(GAME, state).when(PlaceCard(card=WALKS[0], route=0)).state
    assert legal(good, 0) == [PlaceCard(card=HOME_4, route=0)]


def five_home(hand: list[str]) -> State:
    """Five Commuters home; Commuter 5 one Walk from its Suburbs card."""
    home = {r: Commuter(pos=4, home=True) for r in range(5)}
    route = [*PLAINS, BUSES[0], HOME_3]
    return table(hands=[hand, BUSES[4:6]], routes={5: route}, commuters={**home, 5: Commuter(pos=3)})


def test_worked_example_7_the_sixth_commuter_home_wins_at_once_even_with_urgent_cards_left() -> None:
    """Worked example 7 and reading 12; seed, Winning the Game: "The moment the sixth Commuter pawn reaches its home
    on a Suburbs card, your team immediately wins! ... you still win the game if you have Urgent cards left"."""
    state = five_home([WALKS[0], URGENT_BUS, URGENT_NULL])
    events = given(GAME, state).when(DiscardCard(card=WALKS[0], commuter=5)).events
    assert events == [CommuterMoved(seat=0, card=WALKS[0], commuter=5, by="walk", from_pos=3, to_pos=4, home=True)]
    won = given(GAME, state, *events).state
    assert won.won and won.played == 1 and GAME.to_move(won) == [] and legal(won, 0) == []
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.team_won is True and outcome.cooperative
    assert outcome.reason == "team-won: all 6 Commuters home in 1 turns"
    assert [(r.seat, r.rank, r.score, r.winner) for r in outcome.results] == [(0, 1, 6.0, True), (1, 1, 6.0, True)]


def test_nothing_more_is_played_once_the_team_has_won() -> None:
    """Seed, Winning the Game: the game ends immediately (`game-over` for any later command)."""
    won = given(GAME, five_home([WALKS[0], URGENT_BUS, URGENT_NULL])).when(DiscardCard(card=WALKS[0], commuter=5))
    won.when(0, PlaceCard(card=URGENT_BUS, route=0)).then_refused("game-over")


def test_every_seat_shares_the_team_result_and_score() -> None:
    """Seed, Objective: "Players collectively win the game": one shared result; each seat's score is the number of
    Commuters home (the turns used are written in the outcome's reason)."""
    state = table(hands=[[WALKS[0]], [], [BUSES[0]]], commuters={0: Commuter(pos=2, home=True)})
    assert GAME.scores(state) == [1.0, 1.0, 1.0]
    assert GAME.outcome(state) is None
