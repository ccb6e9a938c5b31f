"""Build: Stations, Connections, Hubs, the Second Terminus and the placement rules (Rules, How to Build / Terminus
/ Rail & Station Placement Rules / Making a Connection / Build Upgrades; readings 13-16, 26)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.games.terminus.events import (
    ActionDone,
    BuildFinished,
    BuildStarted,
    HubBuilt,
    LinkBuilt,
    Traded,
    TurnEnded,
)
from domain.games.terminus.state_players import termini
from tests.games.given import given, of_type
from tests.games.terminus.tables import development, line, plot, table, to_act


def builder(seat: int = 0, **changes):
    """Seat 0's Prime Hub on P11; 2 Stations left of the Capacity Marker, 3 Blueprints, 6 Rails (Pink's example)."""
    values = {"res": (1, 3, 0, 2), "capacity": 2, "rails_storage": 6, "coins": 0} | changes
    state = replace(to_act(table(3), seat, "build", **values), order=(0, 1, 2))
    return state


def start(state, seat: int = 0, via: str = ""):
    move = given(GAME, state).when(seat, C.StartBuild(via=via))
    state, events = move.state, move.events
    return state, events


def test_building_stations_from_the_terminus() -> None:
    """Worked example 7: Pink pays 1 Permit and 2 Construction, then 2 Rails and 1 Blueprint per new Station from
    the Terminus; each new Station becomes the Terminus; Red's 2 Stations cost 2 Blueprints."""
    state, events = start(builder())
    assert events == [Traded(seat=0, action="build", give=(1, 0, 0, 2)), BuildStarted(seat=0)]
    assert state.step == "build"
    given(GAME, state).when(0, C.FinishBuild()).then_refused("nothing-built")
    move = given(GAME, state).when(0, C.BuildLink(start="P11", end="P21"))
    state, events = move.state, move.events
    assert events == [LinkBuilt(seat=0, start="P11", end="P21", rail="P11-P21", rails=2, station=True, blueprint=1)]
    assert termini(state.players[0]) == (plot("P21"),)
    given(GAME, state).when(0, C.BuildLink(start="P11", end="P10")).then_refused("not-a-terminus")
    state = given(GAME, state).when(0, C.BuildLink(start="P21", end="P31")).state
    p = state.players[0]
    assert (p.res, p.rails_storage, p.rails_placed, p.discs_used) == ((0, 1, 0, 0), 2, 4, 2)
    given(GAME, state).when(0, C.BuildLink(start="P31", end="P41")).then_refused("no-capacity")
    move = given(GAME, state).when(0, C.FinishBuild())
    state, events = move.state, move.events
    assert events[:3] == [BuildFinished(seat=0), ActionDone(seat=0), TurnEnded(seat=0)]
    assert state.stop_owner[plot("P21")] == 0 and state.stop_level[plot("P31")] == 1


def pink_and_purple(passed: bool = True):
    """Pink (seat 1): line P21-P20-P30-P31 (so P21 and P31 are neighbours by a free rail space); Purple (seat 0)
    builds from P11."""
    state = line(builder(), 1, "P21", ["P20", "P30", "P31"])
    state = replace(state, players=tuple(replace(p, passed=passed) if i == 1 else p
                                         for i, p in enumerate(state.players)))
    return start(state)[0]


def test_connections_pay_power_once_and_a_coin_per_connection() -> None:
    """Worked example 8: Purple connects to two of Pink's Stops in one Build: 1 Power in total to Purple, 2 coins
    to Pink (who has passed, and is still paid); no Blueprint, no disc for a Connection."""
    state = pink_and_purple()
    coins = state.players[1].coins
    move = given(GAME, state).when(0, C.BuildLink(start="P11", end="P21"))
    state, events = move.state, move.events
    assert events == [LinkBuilt(seat=0, start="P11", end="P21", rail="P11-P21", rails=2, station=False, owner=1)]
    state = given(GAME, state).when(0, C.BuildLink(start="P21", end="P31")).state
    assert termini(state.players[0]) == (plot("P31"),) and state.players[0].discs_used == 0
    power = sum(state.markets[2])
    move = given(GAME, state).when(0, C.FinishBuild())
    state, events = move.state, move.events
    assert of_type(events, BuildFinished) == [BuildFinished(seat=0, power=1, paid=((1, 2),))]
    assert state.players[1].coins == coins + 2 and state.players[0].res[2] == 1 and sum(state.markets[2]) == power - 1


def test_no_second_connection_to_the_same_stop() -> None:
    """Making a Connection: you cannot make a Connection to the same Stop more than once."""
    state = line(builder(), 1, "P21", ["P20", "P30", "P31"])
    state = line(state, 0, "P12", ["P11"])
    state = replace(state, players=tuple(replace(p, connected=(plot("P21"),)) if i == 0 else p
                                         for i, p in enumerate(state.players)))
    state, _ = start(state)
    given(GAME, state).when(0, C.BuildLink(start="P11", end="P21")).then_refused("repeat-connection")


def test_connections_do_not_count_as_your_stops() -> None:
    """Making a Connection: the connected Stop is your Terminus but not one of your Stops."""
    state = given(GAME, pink_and_purple()).when(0, C.BuildLink(start="P11", end="P21")).state
    assert state.stop_owner[plot("P21")] == 1
    assert plot("P21") in state.players[0].connected


def test_placement_rules() -> None:
    """Worked example 20: the line is continuous (one rail space per link, no skipping plots, no branching);
    Rails may not go through Developments or other Rails, nor meet your own line."""
    state, _ = start(builder())
    given(GAME, state).when(0, C.BuildLink(start="P11", end="P31")).then_refused("no-rail-space")
    given(GAME, state).when(0, C.BuildLink(start="P11", end="Q1")).then_refused("unknown-plot")
    blocked = development(state, "DT05", "B11")
    given(GAME, blocked).when(0, C.BuildLink(start="P11", end="P22")).then_refused("blocked-by-development")
    taken = line(state, 2, "P13", ["P12", "P11"])
    given(GAME, taken).when(0, C.BuildLink(start="P11", end="P12")).then_refused("rail-space-taken")
    legal = line(state, 2, "P33", ["P32", "P31", "P21"])
    assert of_type(given(GAME, legal).when(0, C.BuildLink(start="P11", end="P21")).events, LinkBuilt)[0].owner == 2
    looped = line(state, 0, "P11", ["P21", "P22", "P12"])
    given(GAME, looped).when(0, C.BuildLink(start="P12", end="P11")).then_refused("own-line")


def _rail(a: str, b: str) -> int:
    from tests.games.terminus.tables import G

    return G.rail_between[(plot(a), plot(b))]


def test_double_rail_spaces_take_two_players_once_each() -> None:
    """Note on parallel lines: a double rail space takes 2 players side by side, never both sides for one."""
    state, _ = start(line(builder(), 0, "P12", []))
    other = line(state, 1, "P22", ["P32"])
    other = replace(other, rail_owners=tuple((1,) if i == _rail("P12", "P22") else o
                                            for i, o in enumerate(other.rail_owners)))
    move = given(GAME, other).when(0, C.BuildLink(start="P12", end="P22"))
    after, events = move.state, move.events
    assert of_type(events, LinkBuilt)[0].station is False
    assert after.rail_owners[_rail("P12", "P22")] == (1, 0)
    full = replace(other, rail_owners=tuple((1, 2) if i == _rail("P12", "P22") else o
                                           for i, o in enumerate(other.rail_owners)))
    given(GAME, full).when(0, C.BuildLink(start="P12", end="P22")).then_refused("rail-space-taken")
    mine = replace(other, rail_owners=tuple((0,) if i == _rail("P12", "P22") else o
                                           for i, o in enumerate(other.rail_owners)))
    given(GAME, mine).when(0, C.BuildLink(start="P12", end="P22")).then_refused("one-side-only")


def test_build_resource_refusals() -> None:
    """Build costs: 1 Permit and 2 Construction to start; 1 Blueprint per Station; Rails from storage."""
    given(GAME, builder(res=(0, 3, 0, 2))).when(0, C.StartBuild()).then_refused("not-enough-permits")
    given(GAME, builder(res=(1, 3, 0, 1))).when(0, C.StartBuild()).then_refused("not-enough-construction")
    given(GAME, builder(capacity=0)).when(0, C.StartBuild()).then_refused("nothing-to-build")
    state, _ = start(builder(res=(1, 1, 0, 2)))
    state = given(GAME, state).when(0, C.BuildLink(start="P11", end="P21")).state
    given(GAME, state).when(0, C.BuildLink(start="P21", end="P31")).then_refused("not-enough-blueprints")
    state, _ = start(builder(rails_storage=3))
    state = given(GAME, state).when(0, C.BuildLink(start="P11", end="P21")).state
    given(GAME, state).when(0, C.BuildLink(start="P21", end="P22")).then_refused("not-enough-rails")
    given(GAME, builder()).when(0, C.BuildLink(start="P11", end="P21")).then_refused("wrong-step")


def test_hubs() -> None:
    """Worked example 21: Orange builds a Hub on an existing Station with no Rails (reading 26); then a new Station
    and a Hub on top of it, which stays the Terminus; 1 Blueprint each; Hubs are not built upon."""
    state = line(builder(res=(1, 3, 0, 2), capacity=4, builds=("hubs",)), 0, "P11", ["P21"])
    state, _ = start(state)
    move = given(GAME, state).when(0, C.BuildHub(plot="P21"))
    state, events = move.state, move.events
    assert events == [HubBuilt(seat=0, plot="P21", blueprint=1)]
    assert state.stop_level[plot("P21")] == 2
    given(GAME, state).when(0, C.BuildHub(plot="P21")).then_refused("not-your-station")
    given(GAME, state).when(0, C.BuildHub(plot="P11")).then_refused("not-your-station")
    given(GAME, state).when(0, C.BuildHub(plot="P51")).then_refused("not-your-station")
    state = given(GAME, state).when(0, C.BuildLink(start="P21", end="P31")).state
    state = given(GAME, state).when(0, C.BuildHub(plot="P31")).state
    assert termini(state.players[0]) == (plot("P31"),) and state.stop_level[plot("P31")] == 2
    assert state.players[0].discs_used == 4


def test_hub_refusals() -> None:
    """Hubs need the Hub Build Upgrade and a Station disc left of the Capacity Marker."""
    state, _ = start(line(builder(), 0, "P11", ["P21"]))
    given(GAME, state).when(0, C.BuildHub(plot="P21")).then_refused("hubs-locked")
    state, _ = start(line(builder(capacity=3, builds=("hubs",)), 0, "P11", ["P21", "P31"]))
    state = given(GAME, state).when(0, C.BuildLink(start="P31", end="P41")).state
    given(GAME, state).when(0, C.BuildHub(plot="P21")).then_refused("no-capacity")


def test_second_terminus() -> None:
    """Worked example 21 (Second Terminus): the Prime Hub becomes a second Terminus; one Build may extend both
    ends, each new Station becoming the Terminus of its end."""
    state = line(builder(res=(1, 3, 0, 2), capacity=4, builds=("second_terminus",), rails_storage=8), 0, "P11", ["P21"])
    assert termini(state.players[0]) == (plot("P21"), plot("P11"))
    state, _ = start(state)
    state = given(GAME, state).when(0, C.BuildLink(start="P11", end="P10")).state
    assert termini(state.players[0]) == (plot("P21"), plot("P10"))
    state = given(GAME, state).when(0, C.BuildLink(start="P21", end="P31")).state
    state = given(GAME, state).when(0, C.BuildLink(start="P10", end="P00")).state
    assert termini(state.players[0]) == (plot("P31"), plot("P00"))
    assert state.players[0].branch_b == (plot("P10"), plot("P00"))


def test_second_terminus_from_an_unbuilt_line() -> None:
    """With no Station built yet, both ends are the Prime Hub: two links may leave it in different directions."""
    state, _ = start(builder(builds=("second_terminus",), capacity=2))
    state = given(GAME, state).when(0, C.BuildLink(start="P11", end="P21")).state
    assert termini(state.players[0]) == (plot("P21"), plot("P11"))
    state = given(GAME, state).when(0, C.BuildLink(start="P11", end="P01")).state
    assert termini(state.players[0]) == (plot("P21"), plot("P01"))


def test_build_developments_and_the_free_first_stop() -> None:
    """Developments #06 (1 Construction), #16 (no Permit), #23 (no Construction) change the Build's cost;
    A6 (DEFAULT) makes the first Stop of each Build free of Blueprints."""
    for tile, give in (("DT06", (1, 0, 0, 1)), ("DT16", (0, 0, 0, 2)), ("DT23", (1, 0, 0, 0))):
        state = development(builder(), tile, "B00", lobbyists=(0,))
        _, events = start(state, via=tile)
        assert of_type(events, Traded)[0].give == give
    state, _ = start(builder(upgrades=("A6",)))
    move = given(GAME, state).when(0, C.BuildLink(start="P11", end="P21"))
    state, events = move.state, move.events
    assert of_type(events, LinkBuilt)[0].blueprint == 0
    move = given(GAME, state).when(0, C.BuildLink(start="P21", end="P31"))
    state, events = move.state, move.events
    assert of_type(events, LinkBuilt)[0].blueprint == 1


def test_connection_bonus_upgrade() -> None:
    """A5 (DEFAULT): +1 coin for each Connection you make."""
    state = pink_and_purple()
    state = replace(state, players=tuple(replace(p, upgrades=("A5",)) if i == 0 else p
                                         for i, p in enumerate(state.players)))
    state = given(GAME, state).when(0, C.BuildLink(start="P11", end="P21")).state
    events = given(GAME, state).when(0, C.FinishBuild()).events
    assert of_type(events, BuildFinished)[0].coins == 1


def test_legal_build_steps_are_exactly_the_placements() -> None:
    """During a Build, the legal list holds each placeable link and Hub, and Finish once something is built."""
    state, _ = start(builder())
    legal = GAME.legal(state, 0)
    assert C.FinishBuild() not in legal
    assert set(legal) == {C.BuildLink(start="P11", end=e) for e in ("P01", "P10", "P12", "P21", "P22")}
