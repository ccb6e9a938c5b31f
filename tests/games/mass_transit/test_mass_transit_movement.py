"""Discarding to move Commuters: Walk, Bus, Ferry, Train, Stations, dead-ends, Traffic Stops, Suburbs
(seed: Gameplay 2, Stations, Traffic Stops, Suburbs; readings 1-5, 13-15; worked examples 1-4 and 8)."""

from __future__ import annotations

from domain.games.mass_transit import GAME
from domain.games.mass_transit.commands import DiscardCard
from domain.games.mass_transit.events import CommuterMoved
from domain.games.mass_transit.state import BIG_CITY, Commuter, State
from tests.games.given import given
from tests.games.mass_transit.tables import (
    BUS_STOP,
    FERRY_STOP,
    NULL_PLAIN_ROAD,
    SPARE,
    TRAIN_PLAIN,
    TRAIN_STOP,
    WALK_PLAIN,
    card,
    cards,
    table,
)

BUSES = cards(5, **BUS_STOP)
FERRIES = cards(3, **FERRY_STOP)
TRAINS = cards(4, **TRAIN_STOP)
TRAIN_PLAINS = cards(3, **TRAIN_PLAIN)
WALKS = cards(3, move="walk", urgent=False)
WALK = card(**WALK_PLAIN)
NULL = card(**NULL_PLAIN_ROAD)
ROAD_TRAFFIC = card(move="walk", urgent=True, road="traffic")  # road Traffic Stop, canal and rail plain
RAIL_TRAFFIC_BUS = card(move="bus", urgent=True, rail="traffic")  # bus station, rail Traffic Stop
ROAD_AND_RAIL_STATIONS = card(move="walk", road="station", canal="plain", rail="station")
BUS_HOME_3 = card(move="bus", suburbs=3)


def moved(state: State, command: DiscardCard) -> CommuterMoved:
    """The movement a discard causes."""
    event = given(GAME, state).when(command).events[0]
    assert isinstance(event, CommuterMoved)
    return event


def test_worked_example_1_a_walk_moves_a_commuter_out_of_the_big_city() -> None:
    """rules/mass-transit.md worked example 1; seed, Walk: "To allow this Commuter to move from the Big City to the
    next card, a player discards a Walk card. The Commuter has reached a Train Station!"."""
    state = table(hands=[[WALK, *SPARE]], routes={4: [TRAINS[0]]})
    event = moved(state, DiscardCard(card=WALK, commuter=4))
    assert event == CommuterMoved(seat=0, card=WALK, commuter=4, by="walk", from_pos=BIG_CITY, to_pos=0)
    after = given(GAME, state).when(DiscardCard(card=WALK, commuter=4)).state
    assert after.commuters[4] == Commuter(pos=0) and after.discards == (WALK,) and after.hands[0] == tuple(SPARE)


def test_commuters_must_walk_out_of_the_big_city() -> None:
    """Seed, Walk: "Commuters must begin their trek home by using a walk to get out of the Big City"."""
    state = table(hands=[[BUSES[0], *SPARE]], routes={0: [BUSES[1], BUSES[2]]})
    given(GAME, state).when(DiscardCard(card=BUSES[0], commuter=0)).then_refused("must-walk-out-of-city")


def test_a_walk_needs_a_next_card() -> None:
    """Seed, Walk: moves a Commuter "to the next card": none on an empty route or past the open end."""
    state = table(hands=[[WALK, *SPARE]], routes={1: [BUSES[0]]}, commuters={1: Commuter(pos=0)})
    given(GAME, state).when(DiscardCard(card=WALK, commuter=0)).then_refused("no-next-card")
    given(GAME, state).when(DiscardCard(card=WALK, commuter=1)).then_refused("no-next-card")


def test_reading_1_a_walk_may_start_from_a_card_without_a_station() -> None:
    """Reading 1: "a Walk moves the commuter exactly one card along its route from wherever it is"."""
    route = [TRAIN_PLAINS[0], TRAIN_PLAINS[1]]
    state = table(hands=[[WALK, *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    assert moved(state, DiscardCard(card=WALK, commuter=0)).to_pos == 1


def test_worked_example_2_a_vehicle_rides_to_the_next_matching_station_and_stops() -> None:
    """rules/mass-transit.md worked example 2; seed, Stations: "a Commuter must depart a Bus Station and stop at the
    next card on that bus line that features a Bus Station"."""
    route = [BUSES[0], FERRIES[0], TRAINS[0], BUSES[1], BUSES[2]]
    state = table(hands=[[BUSES[3], *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    event = moved(state, DiscardCard(card=BUSES[3], commuter=0))
    assert (event.by, event.from_pos, event.to_pos, event.held) == ("bus", 0, 3, "")


def test_worked_example_2_a_traffic_stop_in_between_stops_the_ride() -> None:
    """Worked example 2; seed, Stations: "(which may be impeded by a Traffic Stop)"; Traffic Stops: "A Commuter must
    stop when it reaches a Traffic Stop on its line"."""
    route = [BUSES[0], ROAD_TRAFFIC, BUSES[1]]
    state = table(hands=[[BUSES[3], *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    event = moved(state, DiscardCard(card=BUSES[3], commuter=0))
    assert (event.to_pos, event.held) == (1, "bus")


def test_worked_example_2_a_mismatched_vehicle_is_refused() -> None:
    """Worked example 2; seed: "its icon must correspond with the two Stations along the route (e.g. Bus to Bus)"."""
    route = [BUSES[0], FERRIES[0], BUSES[1]]
    state = table(hands=[[FERRIES[1], TRAINS[1], *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    given(GAME, state).when(DiscardCard(card=FERRIES[1], commuter=0)).then_refused("no-matching-station")
    given(GAME, state).when(DiscardCard(card=TRAINS[1], commuter=0)).then_refused("no-matching-station")


def test_a_ride_needs_a_matching_station_or_traffic_stop_ahead() -> None:
    """Reading 4: "No valid target → discard illegal" (the route is not built far enough yet)."""
    route = [BUSES[0], FERRIES[0], TRAINS[0]]
    state = table(hands=[[BUSES[1], *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    given(GAME, state).when(DiscardCard(card=BUSES[1], commuter=0)).then_refused("no-station-ahead")


def test_worked_example_3_a_dead_end_train_line_must_be_walked_off() -> None:
    """Worked example 3; seed, Dead-End Transit Lines: "This Commuter's Train line dead-ended, so a player discards
    a Walk card to move them to the Bus Station on the next card"."""
    route = [TRAINS[0], NULL, BUSES[0], BUSES[1]]
    hand = [TRAINS[1], TRAINS[2], WALK, BUSES[2]]
    state = table(hands=[[*hand, *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    assert moved(state, DiscardCard(card=TRAINS[1], commuter=0)).to_pos == 1  # stops at the dead-end station
    state = given(GAME, state).when(DiscardCard(card=TRAINS[1], commuter=0)).state
    given(GAME, state).when(DiscardCard(card=TRAINS[2], commuter=0)).then_refused("dead-end")
    given(GAME, state).when(DiscardCard(card=BUSES[2], commuter=0)).then_refused("no-matching-station")
    assert moved(state, DiscardCard(card=WALK, commuter=0)).to_pos == 2
    state = given(GAME, state).when(DiscardCard(card=WALK, commuter=0)).state
    assert moved(state, DiscardCard(card=BUSES[2], commuter=0)).to_pos == 3


def test_worked_example_4_a_commuter_that_rode_into_traffic_leaves_only_by_that_vehicle() -> None:
    """Worked example 4; seed, Traffic Stops: "it can be moved again only by discarding a card with the corresponding
    vehicle icon ... (Commuters cannot get out of a vehicle and walk if they are stuck in traffic!)"."""
    route = [BUSES[0], ROAD_TRAFFIC, BUSES[1]]
    stuck = Commuter(pos=1, held="bus")
    state = table(hands=[[WALK, FERRIES[0], BUSES[2], *SPARE]], routes={0: route}, commuters={0: stuck})
    given(GAME, state).when(DiscardCard(card=WALK, commuter=0)).then_refused("stuck-in-traffic")
    given(GAME, state).when(DiscardCard(card=FERRIES[0], commuter=0)).then_refused("stuck-in-traffic")
    event = moved(state, DiscardCard(card=BUSES[2], commuter=0))
    assert (event.from_pos, event.to_pos, event.held) == (1, 2, "")


def test_worked_example_4_a_commuter_that_walked_onto_a_traffic_stop_leaves_only_by_walk() -> None:
    """Worked example 4; seed: "If a Commuter walked to a card featuring a Traffic Stop, it can only move on if you
    discard a card with a Walk icon" (readings 2 and 14: a Traffic Stop on any line of the card)."""
    route = [BUSES[0], RAIL_TRAFFIC_BUS, BUSES[1]]
    state = table(hands=[[WALKS[0], WALKS[1], BUSES[2], *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    event = moved(state, DiscardCard(card=WALKS[0], commuter=0))
    assert (event.to_pos, event.held) == (1, "walk")  # laid flat, although it stands at a Bus Station
    state = given(GAME, state).when(DiscardCard(card=WALKS[0], commuter=0)).state
    given(GAME, state).when(DiscardCard(card=BUSES[2], commuter=0)).then_refused("must-walk-on")
    assert moved(state, DiscardCard(card=WALKS[1], commuter=0)).to_pos == 2


def test_reading_14_a_rider_is_held_only_by_a_traffic_stop_on_its_own_line() -> None:
    """Reading 14: "a vehicle rider is held only by a Traffic Stop on the line it rode"."""
    route = [BUSES[0], RAIL_TRAFFIC_BUS, BUSES[1]]
    state = table(hands=[[BUSES[2], WALK, *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    event = moved(state, DiscardCard(card=BUSES[2], commuter=0))
    assert (event.to_pos, event.held) == (1, "")
    state = given(GAME, state).when(DiscardCard(card=BUSES[2], commuter=0)).state
    assert moved(state, DiscardCard(card=WALK, commuter=0)).to_pos == 2


def test_worked_example_8_a_commuter_may_depart_from_any_station_on_its_card() -> None:
    """Worked example 8; seed, Stations: "If more than one type of Station appears on the same card, a Commuter pawn
    may depart from any of them" and "Commuters do not have to walk between Stations on the same card"."""
    route = [TRAINS[0], ROAD_AND_RAIL_STATIONS, BUSES[0]]
    state = table(hands=[[TRAINS[1], BUSES[1], *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    state = given(GAME, state).when(DiscardCard(card=TRAINS[1], commuter=0)).state
    assert state.commuters[0] == Commuter(pos=1)
    event = moved(state, DiscardCard(card=BUSES[1], commuter=0))
    assert (event.by, event.to_pos) == ("bus", 2)


def test_a_commuter_reaches_home_by_walk_or_by_the_matching_vehicle() -> None:
    """Seed, Suburbs; reading 5: "arriving on the route's Suburbs card by walk or by the matching vehicle ... completes
    that commuter"; the Suburbs card can house only one Commuter (readings 3 and 13: its own)."""
    route = [BUSES[0], *TRAIN_PLAINS, BUS_HOME_3]
    state = table(hands=[[BUSES[1], WALK, *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    ride = moved(state, DiscardCard(card=BUSES[1], commuter=0))
    assert (ride.to_pos, ride.home) == (4, True)
    walker = table(hands=[[WALK, *SPARE]], routes={0: route}, commuters={0: Commuter(pos=3)})
    assert moved(walker, DiscardCard(card=WALK, commuter=0)).home


def test_a_suburbs_card_of_another_mode_is_not_a_stop_for_a_vehicle() -> None:
    """Data: a Suburbs card shows only its own mode's line, so a Ferry never stops at a Bus Suburbs card."""
    route = [FERRIES[0], *TRAIN_PLAINS, BUS_HOME_3]
    state = table(hands=[[FERRIES[1], *SPARE]], routes={0: route}, commuters={0: Commuter(pos=0)})
    given(GAME, state).when(DiscardCard(card=FERRIES[1], commuter=0)).then_refused("no-station-ahead")


def test_a_commuter_at_home_moves_no_more() -> None:
    """Seed, Suburbs: the Commuter has reached its home."""
    route = [BUSES[0], *TRAIN_PLAINS, BUS_HOME_3]
    state = table(hands=[[WALK, *SPARE]], routes={0: route}, commuters={0: Commuter(pos=4, home=True)})
    given(GAME, state).when(DiscardCard(card=WALK, commuter=0)).then_refused("commuter-home")


def test_null_and_suburbs_cards_are_refused_as_discards() -> None:
    """Seed, Null: "A card with this icon cannot be discarded to transport a Commuter"; reading 15 for Suburbs."""
    null = card(move="null", urgent=True, road="traffic", canal="traffic", rail="traffic")
    state = table(hands=[[null, BUS_HOME_3, *SPARE]], routes={0: [BUSES[0]]})
    given(GAME, state).when(DiscardCard(card=null, commuter=0)).then_refused("card-not-discardable")
    given(GAME, state).when(DiscardCard(card=BUS_HOME_3, commuter=0)).then_refused("card-not-discardable")


def test_there_are_six_commuters() -> None:
    """Seed, Components: "6 Commuter pawns", numbered like their routes 0-5."""
    state = table(hands=[[WALK, *SPARE]], routes={0: [BUSES[0]]})
    given(GAME, state).when(DiscardCard(card=WALK, commuter=6)).then_refused("no-such-commuter")
