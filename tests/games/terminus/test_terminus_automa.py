"""The 2-player Automa (Rules, 2-Player Game: set-up, Trigger 1, Trigger 2, card flips; readings 22, 24, 25).
Card AU1 (DEFAULT) matches the rulebook walkthrough: Tarragon Hills, Prime Hub P02, arrow east, start in Supply;
side a: 1 space / 1 Station, Main right, Alternate forward; side b: 3, Main forward, Alternate left."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.games.terminus.components import ZONE_INDEX
from domain.games.terminus.events import (
    AutomaBuilt,
    AutomaFlipped,
    AutomaMoved,
    AutomaStep,
    MarkerMoved,
    TurnEnded,
)
from domain.games.terminus.rules_automa import automa_build
from domain.games.terminus.state_players import Automa
from tests.games.given import given, of_type
from tests.games.terminus.tables import line, plot, stop, table, to_act, to_move


def automa_table(side: str = "a"):
    """A 2-player table with the Automa on card AU1 (Prime Hub P02, arrow east, marker in Supply)."""
    state = table(2, automa=True)
    old = state.automa
    assert old is not None
    owners, levels = list(state.stop_owner), list(state.stop_level)
    owners[old.prime], levels[old.prime] = None, 0
    state = replace(state, stop_owner=tuple(owners), stop_level=tuple(levels))
    state = stop(state, 2, "P02", 3)
    automa = Automa(card="AU1", side=side, zone=ZONE_INDEX["supply"], arrow="E", prime=plot("P02"),
                    terminus=plot("P02"))
    return replace(state, automa=automa, order=(0, 1))


def test_entering_the_automa_zone_costs_a_coin_and_moves_it() -> None:
    """Worked example 12, Trigger 1: moving into the Automa's Zone costs 1 coin; the Automa's marker then moves
    counter-clockwise by the card's number (side a: 1, Supply -> Market) before the player acts."""
    state = to_move(automa_table(), 0, coins=5)
    move = given(GAME, state).when(0, C.Move(zone="supply"))
    after, events = move.state, move.events
    assert events == [MarkerMoved(seat=0, zone="supply", cycle=1, fee=1), AutomaMoved(zone="market")]
    assert after.players[0].coins == 4 and after.step == "act"
    poor = to_move(automa_table(), 0, coins=0, res=(0, 0, 0, 2))
    given(GAME, poor).when(0, C.Move(zone="supply")).then_refused("automa-fee")


def test_the_fee_is_counted_before_judging_the_zone() -> None:
    """After the fee, the player must still be able to act there (Rules: you must carry out an action)."""
    state = to_move(automa_table(), 0, coins=2, res=(0, 0, 0, 0))
    state = replace(state, markets=(*state.markets[:3], (0,) * 8))
    given(GAME, state).when(0, C.Move(zone="supply")).then_refused("no-action-in-zone")
    assert C.Move(zone="supply") in GAME.legal(to_move(automa_table(), 0, coins=3, res=(0, 0, 0, 0)), 0)


def test_a_capacity_increase_makes_the_automa_build_after_the_turn() -> None:
    """Worked example 12, Trigger 2 and the walkthrough: after the turn of a player who increased Capacity, the
    Automa builds in its Main direction (right of the arrow: south) to the empty Plot P03, places a Station there
    (its new Terminus, the arrow keeps its direction), then its card flips."""
    state = to_act(automa_table(), 0, "supply", res=(0, 0, 1, 1))
    move = given(GAME, state).when(0, C.IncreaseCapacity(steps=1))
    after, events = move.state, move.events
    tail = events[events.index(TurnEnded(seat=0)):]
    assert tail == [
        TurnEnded(seat=0),
        AutomaBuilt(steps=(AutomaStep(start="P02", end="P03", rail="P02-P03", station=True),)),
        AutomaFlipped(side="b"),
    ]
    a = after.automa
    assert a is not None and (a.terminus, a.arrow, a.side, a.stations, a.rails) == (plot("P03"), "E", "b", 11, 30)
    assert after.stop_owner[plot("P03")] == 2 and after.current == 1


def test_blocked_main_direction_continues_in_the_alternate_direction() -> None:
    """Walkthrough 2: side b (3 placements) goes forward (east) to Orange's Stop (a Connection, Orange +1 coin), is
    blocked further east by Rails, turns to its Alternate (left: north) and connects to Yellow's Stop, then is
    blocked (a Stop it already reached) and ends with 2 placements; the card flips."""
    state = automa_table(side="b")
    state = replace(state, automa=replace(state.automa, terminus=plot("P03"), line=(plot("P03"),)))
    state = stop(state, 2, "P03", 1)
    state = line(state, 0, "P13", ["P23"])  # Orange: Rails on P13-P23 block the east
    state = line(state, 1, "P12", ["P11"])  # Yellow
    coins = state.players[0].coins
    built, flipped = automa_build(state)
    assert built.steps == (
        AutomaStep(start="P03", end="P13", rail="P03-P13", station=False, owner=0),
        AutomaStep(start="P13", end="P12", rail="P12-P13", station=False, owner=1),
    )
    assert flipped == AutomaFlipped(side="a")
    after = state
    for event in (built, flipped):
        after = GAME.evolve(after, event)
    assert after.players[0].coins == coins + 1 and after.automa is not None and after.automa.terminus == plot("P12")


def test_the_automa_stops_at_the_board_edge_and_its_own_stops() -> None:
    """Reading 25: a direction is blocked by the board edge, occupied Rails, its own Stop or a Stop already reached;
    if both directions are blocked its Build ends (and the card still flips)."""
    state = automa_table(side="b")
    state = replace(state, automa=replace(state.automa, arrow="W"))  # forward (west) from P02 is the board edge
    built, flipped = automa_build(state)
    assert [s.end for s in built.steps] == ["P03", "P04"]  # Alternate 'left' of west is south, to the edge
    assert flipped.side == "a"
    boxed = stop(state, 2, "P03", 1)
    built, flipped = automa_build(boxed)
    assert built.steps == () and flipped.side == "a"


def test_automa_never_takes_a_seat_and_never_wins() -> None:
    """The Automa holds no seat: outcomes list the 2 human seats, and one of them wins (see README)."""
    from domain.playout import play

    played = play(GAME, 2, {"automa": True}, "automa-outcome")
    assert played.state is not None and played.state.ended is not None
    assert sorted(r.seat for r in played.state.ended.results) == [0, 1]
    assert any(r.winner for r in played.state.ended.results)


def test_players_may_connect_to_the_automa() -> None:
    """Reading 22: players may connect to the Automa's Stops (its coin goes to the Automa, irrelevant)."""
    state = to_act(automa_table(), 0, "build", res=(1, 0, 0, 2), rails_storage=2)
    state = line(state, 0, "P12", [])
    state = given(GAME, state).when(0, C.StartBuild()).state
    move = given(GAME, state).when(0, C.BuildLink(start="P12", end="P02"))
    state, events = move.state, move.events
    assert of_type(events, type(events[0]))[0].owner == 2
    state = given(GAME, state).when(0, C.FinishBuild()).state
    assert state.automa is not None and state.automa.coins == 1
