"""The Action Loop: clockwise moves, the Cycle Checkpoint, passing (Rules, Taking a Turn / Cycle Track / Passing;
readings 6 and 7)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.games.terminus.events import MarkerMoved, Passed
from tests.games.given import given, of_type
from tests.games.terminus.tables import table, to_act, to_move


def test_the_first_move_of_a_year_may_enter_any_zone() -> None:
    """Reading 6: markers start on the Turn Order card; the first move enters any Zone in cycle 1."""
    state = table(3)
    seat = state.current
    moves = {c.zone for c in GAME.legal(state, seat) if isinstance(c, C.Move)}
    assert moves == {"develop", "lobby", "improve", "market", "supply", "build"}
    move = given(GAME, state).when(seat, C.Move(zone="market"))
    state, events = move.state, move.events
    assert events == [MarkerMoved(seat=seat, zone="market", cycle=1, fee=0)]
    assert state.step == "act"


def test_skipping_a_zone_and_never_moving_back_within_a_cycle() -> None:
    """Worked example 15: Yellow skips Develop for Lobby; Develop is then only reachable clockwise, past the
    Checkpoint, which starts cycle 2 (the Cycle Marker moves down first)."""
    state = to_move(table(3), 0, "lobby", coins=10, res=(2, 2, 2, 2))
    move = given(GAME, state).when(0, C.Move(zone="develop"))
    state, events = move.state, move.events
    assert events[0] == MarkerMoved(seat=0, zone="develop", cycle=2)
    state = to_move(table(3), 0, "build", coins=10, res=(2, 2, 2, 2))
    move = given(GAME, state).when(0, C.Move(zone="develop"))
    state, events = move.state, move.events
    assert events[0].cycle == 2
    state = to_move(table(3), 0, "lobby", coins=10, res=(2, 2, 2, 2))
    move = given(GAME, state).when(0, C.Move(zone="market"))
    state, events = move.state, move.events
    assert events[0].cycle == 1


def test_two_players_may_share_a_zone() -> None:
    """Worked example 15 / Taking a Turn: there is no limit to the number of players in the same Zone."""
    state = table(3)
    first = state.current
    state = given(GAME, state).when(first, C.Move(zone="market")).state
    state = given(GAME, state).when(first, C.BuyResources(resource="permit", count=1)).state
    second = state.current
    state = given(GAME, state).when(second, C.Move(zone="market")).state
    assert state.players[first].zone == state.players[second].zone


def test_third_cycle_ends_at_the_checkpoint() -> None:
    """Cycle Track: in the third cycle, reaching the Checkpoint means passing; a crossing move is refused."""
    state = to_move(table(3), 0, "supply", cycle=3, coins=10, res=(2, 2, 2, 2))
    given(GAME, state).when(0, C.Move(zone="lobby")).then_refused("cycle-limit")
    assert C.Move(zone="build") in GAME.legal(state, 0)
    assert C.Pass() in GAME.legal(state, 0)


def test_move_refusals() -> None:
    """A move goes 1-5 Zones clockwise to a Zone offering an action (Rules: you must carry out an action)."""
    state = to_move(table(3), 0, "market", coins=0, res=(0, 0, 0, 0), rails_storage=0)
    given(GAME, state).when(0, C.Move(zone="market")).then_refused("same-zone")
    given(GAME, state).when(0, C.Move(zone="harbour")).then_refused("unknown-zone")
    given(GAME, state).when(0, C.Move(zone="build")).then_refused("no-action-in-zone")
    given(GAME, state).when(1, C.Move(zone="build")).then_refused("not-your-turn")
    given(GAME, state).when(0, C.BuyResources(resource="permit", count=1)).then_refused("wrong-step")


def test_a_player_with_no_possible_action_can_only_pass() -> None:
    """Passing (a): a player must pass if they cannot take any action."""
    state = to_move(table(3), 0, "market", coins=0, res=(0, 0, 0, 0), rails_storage=0, lobbyists=0)
    state = replace(state, markets=((0,) * 4, (0,) * 5, (0,) * 4, (0,) * 8))
    assert GAME.legal(state, 0) == [C.Pass()]


def test_passing_removes_the_marker_and_skips_the_player() -> None:
    """Passing: the marker goes to the next free Turn Order space; that player takes no more actions this Year."""
    state = table(3)
    first = state.current
    move = given(GAME, state).when(first, C.Pass())
    state, events = move.state, move.events
    assert of_type(events, Passed) == [Passed(seat=first, position=1)]
    assert state.players[first].passed and state.players[first].zone is None
    assert state.current == state.order[1]
    given(GAME, state).when(first, C.Move(zone="market")).then_refused("not-your-turn")


def test_an_action_ends_the_turn() -> None:
    """Taking a Turn: actions are executed in full, then the turn ends and the next player in order moves."""
    state = to_act(table(3), 0, "market")
    state = replace(state, order=(0, 1, 2))
    state = given(GAME, state).when(0, C.BuyResources(resource="power", count=1)).state
    assert state.current == 1 and state.step == "move"


def test_decide_accepts_exactly_the_listed_commands(monkeypatch) -> None:
    """legal and decide never disagree: a command left out of the list is refused ('illegal-move') even when its
    own check would pass — the guard behind every specific refusal code."""
    from domain.games.terminus import rules

    state = to_act(table(3), 0, "market", coins=10)
    command = C.BuyResources(resource="power", count=1)
    assert command in GAME.legal(state, 0)
    table_, candidates = rules.SITUATIONS["act"]
    monkeypatch.setitem(rules.SITUATIONS, "act", (table_, lambda s, seat: (c for c in candidates(s, seat)
                                                                          if c != command)))
    fresh = replace(state, turn=replace(state.turn))
    assert command not in GAME.legal(fresh, 0)
    given(GAME, fresh).when(0, command).then_refused("illegal-move")
