"""Develop and Lobby Zones: Demands, Developments, Lobbyists, Agendas, Projects (Rules, Develop Zone / Lobby Zone /
Developments / Demands; readings 8-11, 18, 19, 27)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.games.terminus.events import (
    AgendaChosen,
    AgendasDrawn,
    DemandTaken,
    DevelopmentPlaced,
    ProjectLobbied,
    Traded,
)
from tests.games.given import given, of_type
from tests.games.terminus.tables import G, development, line, on_display, table, to_act, token_on, with_project


def pink_table():
    """Pink (seat 0): Prime Hub in Knightsbridge (P31), Stations P41 and P51 in Chipper's Row, one K Demand."""
    state = line(table(3), 1, "P63", [])
    state = line(state, 0, "P31", ["P41", "P51"])
    state = development(state, "DT05", "B30")
    state = token_on(state, "DT05", "DM-K-2")
    state = development(state, "DT16", "B50")
    state = token_on(state, "DT16", "DM-CR-1")
    return to_act(state, 0, "develop", demands=("DM-K-1",), res=(0, 0, 1, 0))


def test_demands_need_more_stops_than_demands_in_the_district() -> None:
    """Worked example 9: with 1 Stop and 1 Demand in Knightsbridge Pink may not take another K Demand; with 2 Stops
    and no Demand in Chipper's Row, Pink may take one. Any Development in the City will do (reading 9)."""
    state = pink_table()
    given(GAME, state).when(0, C.TakeDemand(token="DM-K-2")).then_refused("not-enough-stops-in-district")
    move = given(GAME, state).when(0, C.TakeDemand(token="DM-CR-1"))
    after, events = move.state, move.events
    assert of_type(events, Traded)[0].give == (0, 0, 1, 0)
    assert DemandTaken(seat=0, token="DM-CR-1") in events
    assert after.players[0].demands == ("DM-K-1", "DM-CR-1")


def test_demand_refusals() -> None:
    """Take Demand: pay 1 Power; the token must be on a Development in the City; 7 Demand spaces at most."""
    state = pink_table()
    (
        given(GAME, to_act(state, 0, "develop", res=(0, 0, 0, 0)))
        .when(0, C.TakeDemand(token="DM-CR-1"))
        .then_refused("not-enough-power")
    )
    given(GAME, state).when(0, C.TakeDemand(token="DM-TH-9")).then_refused("demand-not-available")
    full = to_act(state, 0, "develop", demands=tuple(f"DM-P{n}-1" for n in range(4, 8)) + ("DM-K-1", "DM-TH-1",
                                                                                           "DM-TH-2"))
    given(GAME, full).when(0, C.TakeDemand(token="DM-CR-1")).then_refused("demand-track-full")
    given(GAME, to_act(state, 0, "market")).when(0, C.TakeDemand(token="DM-CR-1")).then_refused("wrong-zone")


def test_demand_also_in_the_build_zone_and_free_with_tile_05() -> None:
    """Take Demand is dual-coloured (Develop and Build); Development #05 takes one without Power (DEFAULT)."""
    state = pink_table()
    assert C.TakeDemand(token="DM-CR-1") in GAME.legal(to_act(state, 0, "build", res=(0, 0, 1, 0)), 0)
    state = development(state, "DT05", "B30", lobbyists=(0,))
    state = to_act(state, 0, "develop", res=(0, 0, 0, 0))
    move = given(GAME, state).when(0, C.TakeDemand(token="DM-CR-1", via="DT05"))
    after, events = move.state, move.events
    assert not of_type(events, Traded) and after.players[0].demands[-1] == "DM-CR-1"


def yellow_table():
    """Yellow (seat 0): Prime Hub on P11 (Tarragon Hills), 1 Permit, Lobbyists in supply."""
    state = table(3)
    for tile in ("DT05", "DT04", "DT19", "DT10"):
        state = on_display(state, tile)
    return to_act(state, 0, "develop", res=(1, 0, 0, 0), coins=5)


def test_development_placement() -> None:
    """Worked example 17: pay 1 Permit; the Block must be zoned for the tile, empty (no Rails, no Development) and
    adjacent to one of your Stops; one of your Lobbyists goes on it."""
    state = yellow_table()
    move = given(GAME, state).when(0, C.PlaceDevelopment(tile="DT05", block="B00"))
    after, events = move.state, move.events
    assert DevelopmentPlaced(seat=0, tile="DT05", block="B00") in events
    assert after.tile_lobbyists[4] == (0,) and after.players[0].lobbyists == 7
    given(GAME, state).when(0, C.PlaceDevelopment(tile="DT04", block="B00")).then_refused("block-not-zoned")
    given(GAME, state).when(0, C.PlaceDevelopment(tile="DT05", block="B42")).then_refused("block-not-adjacent")
    given(GAME, state).when(0, C.PlaceDevelopment(tile="DT05", block="B99")).then_refused("unknown-block")
    given(GAME, state).when(0, C.PlaceDevelopment(tile="DT13", block="B00")).then_refused("tile-not-on-display")
    taken = development(state, "DT16", "B01")
    given(GAME, taken).when(0, C.PlaceDevelopment(tile="DT05", block="B01")).then_refused("block-occupied")
    owners = tuple((1,) if r.block == "B11" else o for r, o in zip(G.board.rails, state.rail_owners, strict=True))
    railed = replace(state, rail_owners=owners)
    given(GAME, railed).when(0, C.PlaceDevelopment(tile="DT05", block="B11")).then_refused("block-occupied")
    (
        given(GAME, to_act(state, 0, "develop", lobbyists=0))
        .when(0, C.PlaceDevelopment(tile="DT05", block="B00"))
        .then_refused("no-lobbyist")
    )
    (
        given(GAME, to_act(state, 0, "develop", res=(0, 0, 0, 0)))
        .when(0, C.PlaceDevelopment(tile="DT05", block="B00"))
        .then_refused("not-enough-permits")
    )


def test_development_19_costs_two_coins_instead_of_a_permit() -> None:
    """Development #19 (DEFAULT): place a Development paying 2 coins instead of 1 Permit."""
    state = development(yellow_table(), "DT19", "B10", lobbyists=(0,))
    state = to_act(state, 0, "develop", res=(0, 0, 0, 0), coins=5)
    events = given(GAME, state).when(0, C.PlaceDevelopment(tile="DT05", block="B00", via="DT19")).events
    assert of_type(events, Traded)[0] == Traded(seat=0, action="place_development", via="DT19", coins=-2)


def test_a_lobbyist_on_development_10_adds_its_action_to_the_lobby_zone() -> None:
    """Worked example 17 (SEED #10): with a Lobbyist on #10, the Lobby Zone offers 4 actions; pay 1 coin, take
    4 Construction from the leftmost depots (reading 29)."""
    state = development(yellow_table(), "DT10", "B00", lobbyists=(0,))
    state = to_act(state, 0, "lobby", res=(1, 0, 0, 0), coins=5)
    assert C.UseDevelopment(tile="DT10") in GAME.legal(state, 0)
    kinds = {type(c) for c in GAME.legal(state, 0)}
    assert kinds == {C.MoveLobbyist, C.DrawAgendas, C.LobbyProject, C.UseDevelopment}
    depots = state.markets[3]
    move = given(GAME, state).when(0, C.UseDevelopment(tile="DT10"))
    after, events = move.state, move.events
    used = Traded(seat=0, action="use_development", via="DT10", coins=-1, take=(0, 0, 0, 4))
    assert of_type(events, Traded)[0] == used
    assert sum(after.markets[3]) == sum(depots) - 4
    (
        given(GAME, to_act(state, 0, "market"))
        .when(0, C.UseDevelopment(tile="DT10"))
        .then_refused("development-not-usable")
    )
    given(GAME, state).when(0, C.UseDevelopment(tile="DT99")).then_refused("unknown-tile")
    given(GAME, state).when(0, C.UseDevelopment(tile="DT10", resource="power")).then_refused("unknown-resource")
    other = development(state, "DT19", "B01", lobbyists=(0,))
    given(GAME, other).when(0, C.UseDevelopment(tile="DT19")).then_refused("wrong-development")


def test_development_actions_need_your_lobbyist() -> None:
    """Developments: the action is available only to players with a Lobbyist on the tile."""
    state = development(yellow_table(), "DT10", "B00", lobbyists=(1,))
    state = to_act(state, 0, "lobby")
    given(GAME, state).when(0, C.UseDevelopment(tile="DT10")).then_refused("development-not-usable")
    given(GAME, state).when(0, C.DrawAgendas(via="DT10")).then_refused("wrong-development")


def test_any_resource_development() -> None:
    """Development #18 (DEFAULT): pay 2 coins, take any 1 resource (from its market)."""
    state = development(yellow_table(), "DT18", "B00", lobbyists=(0,))
    state = to_act(state, 0, "develop", coins=2)
    assert {c.resource for c in GAME.legal(state, 0) if isinstance(c, C.UseDevelopment)} == {
        "permit", "blueprint", "power", "construction"}
    after = given(GAME, state).when(0, C.UseDevelopment(tile="DT18", resource="blueprint")).state
    assert after.players[0].res[1] == 1 and after.players[0].coins == 0
    given(GAME, state).when(0, C.UseDevelopment(tile="DT18", resource="gold")).then_refused("unknown-resource")
    empty = replace(state, markets=(state.markets[0], (0,) * 5, *state.markets[2:]))
    given(GAME, empty).when(0, C.UseDevelopment(tile="DT18", resource="blueprint")).then_refused("market-empty")
    (
        given(GAME, to_act(state, 0, "develop", coins=1))
        .when(0, C.UseDevelopment(tile="DT18", resource="power"))
        .then_refused("not-enough-coins")
    )


def test_moving_lobbyists() -> None:
    """Move 1 Lobbyist between your board, one of your Agendas (one each) and a Development adjacent to one of your
    Stops with an open space (one of yours each)."""
    state = development(yellow_table(), "DT05", "B00", lobbyists=(1,))
    state = development(state, "DT10", "B42", lobbyists=())
    after = given(GAME, state).when(0, C.MoveLobbyist(source="supply", target="agenda:0")).state
    assert after.players[0].agenda_lobbyists == (0,) and after.players[0].lobbyists == 7
    state2 = to_act(after, 0, "lobby")
    after2 = given(GAME, state2).when(0, C.MoveLobbyist(source="agenda:0", target="dev:DT05")).state
    assert after2.tile_lobbyists[4] == (1, 0) and after2.players[0].agenda_lobbyists == ()
    given(GAME, state2).when(0, C.MoveLobbyist(source="agenda:0", target="dev:DT10")).then_refused("bad-target")
    given(GAME, state2).when(0, C.MoveLobbyist(source="agenda:1", target="supply")).then_refused("bad-source")
    given(GAME, state2).when(0, C.MoveLobbyist(source="agenda:0", target="agenda:0")).then_refused("bad-target")
    full = development(state2, "DT05", "B00", lobbyists=(1, 2))
    given(GAME, full).when(0, C.MoveLobbyist(source="agenda:0", target="dev:DT05")).then_refused("bad-target")
    (
        given(GAME, to_act(state2, 0, "market"))
        .when(0, C.MoveLobbyist(source="agenda:0", target="supply"))
        .then_refused("wrong-zone")
    )


def test_development_08_moves_up_to_two_lobbyists() -> None:
    """Development #08 (DEFAULT): move up to 2 Lobbyists — a second move is offered, and may be declined."""
    state = development(yellow_table(), "DT08", "B00", lobbyists=(0,))
    state = to_act(state, 0, "develop")
    state = replace(state, order=(0, 1, 2))
    after = given(GAME, state).when(0, C.MoveLobbyist(source="supply", target="agenda:0", via="DT08")).state
    assert after.step == "after" and after.turn.follow == ("lobbyist",)
    assert C.EndTurn() in GAME.legal(after, 0)
    given(GAME, after).when(0, C.MoveLobbyist(source="supply", target="supply")).then_refused("wrong-step")
    done = given(GAME, after).when(0, C.MoveLobbyist(source="dev:DT08", target="supply", via="DT08")).state
    assert done.current == 1
    ended = given(GAME, after).when(0, C.EndTurn()).state
    assert ended.current == 1


def draw_table(year: int = 2, agendas: tuple[str, ...] = ()):
    state = replace(table(3), year=year)
    return to_act(state, 0, "lobby", res=(1, 0, 0, 0), agendas=agendas)


def test_drawing_agendas() -> None:
    """Worked example 18: Pink draws 2 Agendas in Year 2, keeps 1 (face up) and returns the other to the bottom;
    with 3 Agendas Pink can no longer take the action."""
    state = draw_table(2, agendas=("AG30",))
    top = state.deck[:2]
    move = given(GAME, state).when(0, C.DrawAgendas())
    after, events = move.state, move.events
    assert of_type(events, AgendasDrawn) == [AgendasDrawn(seat=0, cards=top, count=2)]
    assert GAME.redact(of_type(events, AgendasDrawn)[0], 1).cards == ()
    assert GAME.to_move(after) == [0] and after.step == "keep-drawn"
    assert {c.agenda for c in GAME.legal(after, 0)} == set(top)
    given(GAME, after).when(0, C.KeepAgenda(agenda="AG30")).then_refused("not-in-hand")
    move = given(GAME, after).when(0, C.KeepAgenda(agenda=top[1]))
    kept, events = move.state, move.events
    assert of_type(events, AgendaChosen) == [AgendaChosen(seat=0, kept=top[1], returned=(top[0],), count=1)]
    assert kept.players[0].agendas == ("AG30", top[1]) and kept.deck[-1] == top[0]
    given(GAME, to_act(kept, 0, "lobby", res=(1, 0, 0, 0))).when(0, C.DrawAgendas()).then_refused("agenda-limit")


def test_agenda_draw_counts_by_year() -> None:
    """Draw 3 Agendas in Year 1, 2 in Year 2, 1 in Year 3; Development #11 draws one more, #07 needs no Permit."""
    for year, n in ((1, 3), (2, 2), (3, 1)):
        events = given(GAME, draw_table(year)).when(0, C.DrawAgendas()).events
        assert of_type(events, AgendasDrawn)[0].count == n
    state = development(draw_table(1), "DT11", "B00", lobbyists=(0,))
    events = given(GAME, to_act(state, 0, "lobby", res=(1, 0, 0, 0))).when(0, C.DrawAgendas(via="DT11")).events
    assert of_type(events, AgendasDrawn)[0].count == 4
    state = development(draw_table(1), "DT07", "B00", lobbyists=(0,))
    events = given(GAME, to_act(state, 0, "lobby", res=(0, 0, 0, 0))).when(0, C.DrawAgendas(via="DT07")).events
    assert not of_type(events, Traded)
    given(GAME, replace(draw_table(1), deck=())).when(0, C.DrawAgendas()).then_refused("agenda-deck-empty")
    (
        given(GAME, to_act(draw_table(1), 0, "lobby", res=(0, 0, 0, 0)))
        .when(0, C.DrawAgendas())
        .then_refused("not-enough-permits")
    )


def lobby_table():
    state = with_project(table(3), "PJ05")
    return to_act(state, 0, "lobby", res=(2, 0, 0, 0))


def test_lobbying_projects() -> None:
    """Worked example 19: Purple places 2 Lobbyists on a new row (leftmost); Pink 3 on a new row; Orange adds 1
    final Lobbyist to the row it holds; 1 Lobbyist on a new row is refused; rows never hold two players."""
    state = lobby_table()
    move = given(GAME, state).when(0, C.LobbyProject(project="PJ05", lobbyists=2))
    after, events = move.state, move.events
    assert ProjectLobbied(seat=0, project="PJ05", lobbyists=2) in events and of_type(events, Traded)[0].give[0] == 1
    assert after.players[0].lobbyists == 6
    pink = to_act(after, 1, "lobby", res=(1, 0, 0, 0))
    after = given(GAME, pink).when(1, C.LobbyProject(project="PJ05", lobbyists=3)).state
    third = to_act(after, 2, "lobby", res=(1, 0, 0, 0))
    given(GAME, third).when(2, C.LobbyProject(project="PJ05", lobbyists=2)).then_refused("project-full")
    orange = to_act(with_project(after, "PJ05", ((0, 2), (1, 3))), 1, "lobby", res=(1, 0, 0, 0))
    done = given(GAME, orange).when(1, C.LobbyProject(project="PJ05", lobbyists=1)).state
    assert done.project_rows[done.projects.index(4)] == ((0, 2), (1, 4))
    (
        given(GAME, to_act(done, 1, "lobby", res=(1, 0, 0, 0)))
        .when(1, C.LobbyProject(project="PJ05", lobbyists=1))
        .then_refused("bad-lobbyist-count")
    )
    given(GAME, state).when(0, C.LobbyProject(project="PJ05", lobbyists=1)).then_refused("bad-lobbyist-count")
    given(GAME, state).when(0, C.LobbyProject(project="PJ05", lobbyists=5)).then_refused("bad-lobbyist-count")
    given(GAME, state).when(0, C.LobbyProject(project="PJ99", lobbyists=2)).then_refused("unknown-project")
    (
        given(GAME, to_act(state, 0, "lobby", lobbyists=1))
        .when(0, C.LobbyProject(project="PJ05", lobbyists=2))
        .then_refused("no-lobbyist")
    )


def test_lobbyists_on_projects_are_never_removed() -> None:
    """Lobby Zone TIP: once placed on a Project, Lobbyists may not be removed (no move starts there)."""
    state = with_project(table(3), "PJ05", ((0, 2),))
    sources = {c.source for c in GAME.legal(to_act(state, 0, "lobby"), 0) if isinstance(c, C.MoveLobbyist)}
    assert sources == {"supply"}


def test_lobbying_without_a_permit_via_21() -> None:
    """Development #21 (DEFAULT): lobby a Project without paying a Permit."""
    state = development(lobby_table(), "DT21", "B00", lobbyists=(0,))
    lobby = C.LobbyProject(project="PJ05", lobbyists=2, via="DT21")
    events = given(GAME, to_act(state, 0, "lobby", res=(0, 0, 0, 0))).when(0, lobby).events
    assert not of_type(events, Traded) and ProjectLobbied(seat=0, project="PJ05", lobbyists=2) in events
