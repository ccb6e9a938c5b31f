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

from .helpers import G, act, development, line, of, on_display, refused, table, to_act, token_on, with_project


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
    assert refused(state, 0, C.TakeDemand(token="DM-K-2")) == "not-enough-stops-in-district"
    after, events = act(state, 0, C.TakeDemand(token="DM-CR-1"))
    assert of(events, Traded)[0].give == (0, 0, 1, 0)
    assert DemandTaken(seat=0, token="DM-CR-1") in events
    assert after.players[0].demands == ("DM-K-1", "DM-CR-1")


def test_demand_refusals() -> None:
    """Take Demand: pay 1 Power; the token must be on a Development in the City; 7 Demand spaces at most."""
    state = pink_table()
    assert refused(to_act(state, 0, "develop", res=(0, 0, 0, 0)), 0, C.TakeDemand(token="DM-CR-1")) == \
        "not-enough-power"
    assert refused(state, 0, C.TakeDemand(token="DM-TH-9")) == "demand-not-available"
    full = to_act(state, 0, "develop", demands=tuple(f"DM-P{n}-1" for n in range(4, 8)) + ("DM-K-1", "DM-TH-1",
                                                                                           "DM-TH-2"))
    assert refused(full, 0, C.TakeDemand(token="DM-CR-1")) == "demand-track-full"
    assert refused(to_act(state, 0, "market"), 0, C.TakeDemand(token="DM-CR-1")) == "wrong-zone"


def test_demand_also_in_the_build_zone_and_free_with_tile_05() -> None:
    """Take Demand is dual-coloured (Develop and Build); Development #05 takes one without Power (DEFAULT)."""
    state = pink_table()
    assert C.TakeDemand(token="DM-CR-1") in GAME.legal(to_act(state, 0, "build", res=(0, 0, 1, 0)), 0)
    state = development(state, "DT05", "B30", lobbyists=(0,))
    state = to_act(state, 0, "develop", res=(0, 0, 0, 0))
    after, events = act(state, 0, C.TakeDemand(token="DM-CR-1", via="DT05"))
    assert not of(events, Traded) and after.players[0].demands[-1] == "DM-CR-1"


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
    after, events = act(state, 0, C.PlaceDevelopment(tile="DT05", block="B00"))
    assert DevelopmentPlaced(seat=0, tile="DT05", block="B00") in events
    assert after.tile_lobbyists[4] == (0,) and after.players[0].lobbyists == 7
    assert refused(state, 0, C.PlaceDevelopment(tile="DT04", block="B00")) == "block-not-zoned"
    assert refused(state, 0, C.PlaceDevelopment(tile="DT05", block="B42")) == "block-not-adjacent"
    assert refused(state, 0, C.PlaceDevelopment(tile="DT05", block="B99")) == "unknown-block"
    assert refused(state, 0, C.PlaceDevelopment(tile="DT13", block="B00")) == "tile-not-on-display"
    taken = development(state, "DT16", "B01")
    assert refused(taken, 0, C.PlaceDevelopment(tile="DT05", block="B01")) == "block-occupied"
    owners = tuple((1,) if r.block == "B11" else o for r, o in zip(G.board.rails, state.rail_owners, strict=True))
    railed = replace(state, rail_owners=owners)
    assert refused(railed, 0, C.PlaceDevelopment(tile="DT05", block="B11")) == "block-occupied"
    assert refused(to_act(state, 0, "develop", lobbyists=0), 0, C.PlaceDevelopment(tile="DT05", block="B00")) == \
        "no-lobbyist"
    assert refused(to_act(state, 0, "develop", res=(0, 0, 0, 0)), 0, C.PlaceDevelopment(tile="DT05", block="B00")) \
        == "not-enough-permits"


def test_development_19_costs_two_coins_instead_of_a_permit() -> None:
    """Development #19 (DEFAULT): place a Development paying 2 coins instead of 1 Permit."""
    state = development(yellow_table(), "DT19", "B10", lobbyists=(0,))
    state = to_act(state, 0, "develop", res=(0, 0, 0, 0), coins=5)
    after, events = act(state, 0, C.PlaceDevelopment(tile="DT05", block="B00", via="DT19"))
    assert of(events, Traded)[0] == Traded(seat=0, action="place_development", via="DT19", coins=-2)


def test_a_lobbyist_on_development_10_adds_its_action_to_the_lobby_zone() -> None:
    """Worked example 17 (SEED #10): with a Lobbyist on #10, the Lobby Zone offers 4 actions; pay 1 coin, take
    4 Construction from the leftmost depots (reading 29)."""
    state = development(yellow_table(), "DT10", "B00", lobbyists=(0,))
    state = to_act(state, 0, "lobby", res=(1, 0, 0, 0), coins=5)
    assert C.UseDevelopment(tile="DT10") in GAME.legal(state, 0)
    kinds = {type(c) for c in GAME.legal(state, 0)}
    assert kinds == {C.MoveLobbyist, C.DrawAgendas, C.LobbyProject, C.UseDevelopment}
    depots = state.markets[3]
    after, events = act(state, 0, C.UseDevelopment(tile="DT10"))
    assert of(events, Traded)[0] == Traded(seat=0, action="use_development", via="DT10", coins=-1, take=(0, 0, 0, 4))
    assert sum(after.markets[3]) == sum(depots) - 4
    assert refused(to_act(state, 0, "market"), 0, C.UseDevelopment(tile="DT10")) == "development-not-usable"
    assert refused(state, 0, C.UseDevelopment(tile="DT99")) == "unknown-tile"
    assert refused(state, 0, C.UseDevelopment(tile="DT10", resource="power")) == "unknown-resource"
    other = development(state, "DT19", "B01", lobbyists=(0,))
    assert refused(other, 0, C.UseDevelopment(tile="DT19")) == "wrong-development"


def test_development_actions_need_your_lobbyist() -> None:
    """Developments: the action is available only to players with a Lobbyist on the tile."""
    state = development(yellow_table(), "DT10", "B00", lobbyists=(1,))
    state = to_act(state, 0, "lobby")
    assert refused(state, 0, C.UseDevelopment(tile="DT10")) == "development-not-usable"
    assert refused(state, 0, C.DrawAgendas(via="DT10")) == "wrong-development"


def test_any_resource_development() -> None:
    """Development #18 (DEFAULT): pay 2 coins, take any 1 resource (from its market)."""
    state = development(yellow_table(), "DT18", "B00", lobbyists=(0,))
    state = to_act(state, 0, "develop", coins=2)
    assert {c.resource for c in GAME.legal(state, 0) if isinstance(c, C.UseDevelopment)} == {
        "permit", "blueprint", "power", "construction"}
    after, _ = act(state, 0, C.UseDevelopment(tile="DT18", resource="blueprint"))
    assert after.players[0].res[1] == 1 and after.players[0].coins == 0
    assert refused(state, 0, C.UseDevelopment(tile="DT18", resource="gold")) == "unknown-resource"
    empty = replace(state, markets=(state.markets[0], (0,) * 5, *state.markets[2:]))
    assert refused(empty, 0, C.UseDevelopment(tile="DT18", resource="blueprint")) == "market-empty"
    assert refused(to_act(state, 0, "develop", coins=1), 0, C.UseDevelopment(tile="DT18", resource="power")) == \
        "not-enough-coins"


def test_moving_lobbyists() -> None:
    """Move 1 Lobbyist between your board, one of your Agendas (one each) and a Development adjacent to one of your
    Stops with an open space (one of yours each)."""
    state = development(yellow_table(), "DT05", "B00", lobbyists=(1,))
    state = development(state, "DT10", "B42", lobbyists=())
    after, _ = act(state, 0, C.MoveLobbyist(source="supply", target="agenda:0"))
    assert after.players[0].agenda_lobbyists == (0,) and after.players[0].lobbyists == 7
    state2 = to_act(after, 0, "lobby")
    after2, _ = act(state2, 0, C.MoveLobbyist(source="agenda:0", target="dev:DT05"))
    assert after2.tile_lobbyists[4] == (1, 0) and after2.players[0].agenda_lobbyists == ()
    assert refused(state2, 0, C.MoveLobbyist(source="agenda:0", target="dev:DT10")) == "bad-target"
    assert refused(state2, 0, C.MoveLobbyist(source="agenda:1", target="supply")) == "bad-source"
    assert refused(state2, 0, C.MoveLobbyist(source="agenda:0", target="agenda:0")) == "bad-target"
    full = development(state2, "DT05", "B00", lobbyists=(1, 2))
    assert refused(full, 0, C.MoveLobbyist(source="agenda:0", target="dev:DT05")) == "bad-target"
    assert refused(to_act(state2, 0, "market"), 0, C.MoveLobbyist(source="agenda:0", target="supply")) == "wrong-zone"


def test_development_08_moves_up_to_two_lobbyists() -> None:
    """Development #08 (DEFAULT): move up to 2 Lobbyists — a second move is offered, and may be declined."""
    state = development(yellow_table(), "DT08", "B00", lobbyists=(0,))
    state = to_act(state, 0, "develop")
    state = replace(state, order=(0, 1, 2))
    after, events = act(state, 0, C.MoveLobbyist(source="supply", target="agenda:0", via="DT08"))
    assert after.step == "after" and after.turn.follow == ("lobbyist",)
    assert C.EndTurn() in GAME.legal(after, 0)
    assert refused(after, 0, C.MoveLobbyist(source="supply", target="supply")) == "wrong-step"
    done, events = act(after, 0, C.MoveLobbyist(source="dev:DT08", target="supply", via="DT08"))
    assert done.current == 1
    ended, _ = act(after, 0, C.EndTurn())
    assert ended.current == 1


def draw_table(year: int = 2, agendas: tuple[str, ...] = ()):
    state = replace(table(3), year=year)
    return to_act(state, 0, "lobby", res=(1, 0, 0, 0), agendas=agendas)


def test_drawing_agendas() -> None:
    """Worked example 18: Pink draws 2 Agendas in Year 2, keeps 1 (face up) and returns the other to the bottom;
    with 3 Agendas Pink can no longer take the action."""
    state = draw_table(2, agendas=("AG30",))
    top = state.deck[:2]
    after, events = act(state, 0, C.DrawAgendas())
    assert of(events, AgendasDrawn) == [AgendasDrawn(seat=0, cards=top, count=2)]
    assert GAME.redact(of(events, AgendasDrawn)[0], 1).cards == ()
    assert GAME.to_move(after) == [0] and after.step == "keep-drawn"
    assert {c.agenda for c in GAME.legal(after, 0)} == set(top)
    assert refused(after, 0, C.KeepAgenda(agenda="AG30")) == "not-in-hand"
    kept, events = act(after, 0, C.KeepAgenda(agenda=top[1]))
    assert of(events, AgendaChosen) == [AgendaChosen(seat=0, kept=top[1], returned=(top[0],), count=1)]
    assert kept.players[0].agendas == ("AG30", top[1]) and kept.deck[-1] == top[0]
    assert refused(to_act(kept, 0, "lobby", res=(1, 0, 0, 0)), 0, C.DrawAgendas()) == "agenda-limit"


def test_agenda_draw_counts_by_year() -> None:
    """Draw 3 Agendas in Year 1, 2 in Year 2, 1 in Year 3; Development #11 draws one more, #07 needs no Permit."""
    for year, n in ((1, 3), (2, 2), (3, 1)):
        _, events = act(draw_table(year), 0, C.DrawAgendas())
        assert of(events, AgendasDrawn)[0].count == n
    state = development(draw_table(1), "DT11", "B00", lobbyists=(0,))
    _, events = act(to_act(state, 0, "lobby", res=(1, 0, 0, 0)), 0, C.DrawAgendas(via="DT11"))
    assert of(events, AgendasDrawn)[0].count == 4
    state = development(draw_table(1), "DT07", "B00", lobbyists=(0,))
    _, events = act(to_act(state, 0, "lobby", res=(0, 0, 0, 0)), 0, C.DrawAgendas(via="DT07"))
    assert not of(events, Traded)
    assert refused(replace(draw_table(1), deck=()), 0, C.DrawAgendas()) == "agenda-deck-empty"
    assert refused(to_act(draw_table(1), 0, "lobby", res=(0, 0, 0, 0)), 0, C.DrawAgendas()) == "not-enough-permits"


def lobby_table():
    state = with_project(table(3), "PJ05")
    return to_act(state, 0, "lobby", res=(2, 0, 0, 0))


def test_lobbying_projects() -> None:
    """Worked example 19: Purple places 2 Lobbyists on a new row (leftmost); Pink 3 on a new row; Orange adds 1
    final Lobbyist to the row it holds; 1 Lobbyist on a new row is refused; rows never hold two players."""
    state = lobby_table()
    after, events = act(state, 0, C.LobbyProject(project="PJ05", lobbyists=2))
    assert ProjectLobbied(seat=0, project="PJ05", lobbyists=2) in events and of(events, Traded)[0].give[0] == 1
    assert after.players[0].lobbyists == 6
    pink = to_act(after, 1, "lobby", res=(1, 0, 0, 0))
    after, _ = act(pink, 1, C.LobbyProject(project="PJ05", lobbyists=3))
    third = to_act(after, 2, "lobby", res=(1, 0, 0, 0))
    assert refused(third, 2, C.LobbyProject(project="PJ05", lobbyists=2)) == "project-full"
    orange = to_act(with_project(after, "PJ05", ((0, 2), (1, 3))), 1, "lobby", res=(1, 0, 0, 0))
    done, _ = act(orange, 1, C.LobbyProject(project="PJ05", lobbyists=1))
    assert done.project_rows[done.projects.index(4)] == ((0, 2), (1, 4))
    assert refused(to_act(done, 1, "lobby", res=(1, 0, 0, 0)), 1, C.LobbyProject(project="PJ05", lobbyists=1)) == \
        "bad-lobbyist-count"
    assert refused(state, 0, C.LobbyProject(project="PJ05", lobbyists=1)) == "bad-lobbyist-count"
    assert refused(state, 0, C.LobbyProject(project="PJ05", lobbyists=5)) == "bad-lobbyist-count"
    assert refused(state, 0, C.LobbyProject(project="PJ99", lobbyists=2)) == "unknown-project"
    assert refused(to_act(state, 0, "lobby", lobbyists=1), 0, C.LobbyProject(project="PJ05", lobbyists=2)) == \
        "no-lobbyist"


def test_lobbyists_on_projects_are_never_removed() -> None:
    """Lobby Zone TIP: once placed on a Project, Lobbyists may not be removed (no move starts there)."""
    state = with_project(table(3), "PJ05", ((0, 2),))
    sources = {c.source for c in GAME.legal(to_act(state, 0, "lobby"), 0) if isinstance(c, C.MoveLobbyist)}
    assert sources == {"supply"}


def test_lobbying_without_a_permit_via_21() -> None:
    """Development #21 (DEFAULT): lobby a Project without paying a Permit."""
    state = development(lobby_table(), "DT21", "B00", lobbyists=(0,))
    _, events = act(to_act(state, 0, "lobby", res=(0, 0, 0, 0)), 0, C.LobbyProject(project="PJ05", lobbyists=2,
                                                                                 via="DT21"))
    assert not of(events, Traded) and ProjectLobbied(seat=0, project="PJ05", lobbyists=2) in events
