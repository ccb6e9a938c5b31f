"""Set-up by player count (Rules, Game Set Up / Main Board Set Up / Turn Order & Prime Hub Placement)."""

from __future__ import annotations

import pytest

from domain import match
from domain.engine import Refusal
from domain.games.terminus import GAME, state_markets
from domain.games.terminus import commands as C
from domain.games.terminus.components import DATA, TILES
from domain.games.terminus.events import (
    AgendaDeckShuffled,
    AutomaSetUp,
    SecretAgendaKept,
    TurnOrderRevealed,
    YearBegan,
)
from domain.games.terminus.options import Options
from domain.rng import Rng
from tests.games.given import given
from tests.games.terminus.tables import G, player, plot, started, table, to_act


@pytest.mark.parametrize(("seats", "per_type", "projects", "copies"), [(2, 4, 3, 1), (3, 4, 3, 2), (4, 5, 4, 2),
                                                                      (5, 5, 4, 3)])
def test_components_by_player_count(seats: int, per_type: int, projects: int, copies: int) -> None:
    """Main Board Set Up 3, 6, 7: 4/5 Development tiles per type, 3/4 Projects, 1/2/2/3 Upgrade copies."""
    state = started(seats)
    display = [TILES[i] for i, at in enumerate(state.tile_at) if at == "display"]
    for kind in ("commercial", "industrial", "residential"):
        assert sum(1 for t in display if t.type == kind) == per_type
    assert len(state.projects) == projects
    assert set(state.upgrade_supply) == {copies}


def test_every_face_up_development_carries_a_demand_token() -> None:
    """Main Board Set Up 4: one Demand token at random on each face-up Development; the rest go back."""
    state = started(4)
    display = [i for i, at in enumerate(state.tile_at) if at == "display"]
    assert all(state.tile_token[i] is not None for i in display)
    assert len({state.tile_token[i] for i in display}) == len(display)
    assert all(state.tile_token[i] is None for i, at in enumerate(state.tile_at) if at is None)


def test_markets_are_full_and_two_player_grey_spaces_stay_empty() -> None:
    """Main Board Set Up 8 and 2-Player Game 1: fill the markets; in a 2-player game the grey spaces stay empty."""
    five, two = started(5), started(2)
    assert [sum(m) for m in five.markets] == [12, 15, 8, 20]
    assert [sum(m) for m in two.markets] == [8, 10, 4, 15]
    assert two.markets[0] == state_markets.capacities(0, 2)


def test_first_game_suggestions() -> None:
    """Game Set Up tip: first game Projects 5, 8, 10 (+1 with 4-5 players) and the listed Development tiles."""
    small, large = started(3, first_game=True), started(4, first_game=True)
    assert sorted(f"PJ{p + 1:02d}" for p in small.projects) == ["PJ05", "PJ08", "PJ10"]
    assert len(large.projects) == 4
    numbers = sorted(TILES[i].number for i, at in enumerate(small.tile_at) if at == "display")
    assert numbers == [2, 4, 5, 7, 9, 11, 12, 15, 18, 21, 22, 23]
    assert sorted(TILES[i].number for i, at in enumerate(large.tile_at) if at == "display") == list(
        DATA.setup.first_game_tiles_large)


def test_player_boards_start_full() -> None:
    """Player Board Set Up: 12 Stations, 8 Lobbyists, 32 Rails in reserve, no coins (reading 21); the Capacity
    Marker on the leftmost space of its track (position 2, see the next test)."""
    p = started(3).players[0]
    assert (p.discs_used, p.lobbyists, p.rails_reserve, p.rails_storage, p.capacity, p.coins) == (0, 8, 32, 0, 2, 0)


def test_a_station_can_be_built_from_the_start() -> None:
    """How to Build: 'There are several ways you can Build, but at the start of the game two are available: A.
    Building a Station, and B. Making a connection.' So Stations lie left of the Capacity Marker's leftmost space
    (Player Board Set Up 4). Its position is pictured; 2 is INFERRED from the Build example ('They have 2 Stations
    available to Build, as two Stations are to the left of their Capacity Marker') and the Capacity example (its
    first step costs Power, position 3 of the DEFAULT track). A first Build, with no Capacity increase, places
    a Station: 1 Permit, 2 Construction, then 1 Blueprint and 2 Rails to the empty Plot next to the Prime Hub."""
    state = to_act(table(3), 0, "build", res=(1, 1, 0, 2))
    state = player(state, 0, rails_storage=2)
    state = given(GAME, state).when(0, C.StartBuild()).state
    state = given(GAME, state).when(0, C.BuildLink(start="P11", end="P21")).state
    state = given(GAME, state).when(0, C.FinishBuild()).state
    assert state.stop_owner[plot("P21")] == 0 and state.players[0].discs_used == 1


def test_two_agendas_dealt_and_one_kept_secret() -> None:
    """Turn Order 1-2: 2 Agendas each; each seat keeps 1 face down (others learn only that it chose)."""
    state = started(3)
    assert all(len(p.hand) == 2 for p in state.players)
    assert len(state.deck) == 35 - 6
    assert sorted(GAME.to_move(state)) == [0, 1, 2]
    move = given(GAME, state).when(1, C.KeepAgenda(agenda=state.players[1].hand[1]))
    state, events = move.state, move.events
    assert events == [SecretAgendaKept(seat=1, agenda=state.players[1].secret)]
    assert GAME.redact(events[0], 0) == SecretAgendaKept(seat=1, agenda="")
    assert sorted(GAME.to_move(state)) == [0, 2]
    given(GAME, state).when(1, C.KeepAgenda(agenda=state.players[1].hand[0])).then_refused("not-your-turn")
    given(GAME, state).when(0, C.KeepAgenda(agenda="AG99")).then_refused("not-in-hand")


def test_revealed_agenda_numbers_set_year_one_order_and_hubs_go_down_in_reverse() -> None:
    """Worked example 13 (Turn Order 3-7): lowest revealed number first; the revealed cards are shuffled back;
    Prime Hubs are placed in reverse turn order on any empty Plot."""
    state = started(3, seed="order")
    for seat in range(3):
        move = given(GAME, state).when(seat, C.KeepAgenda(agenda=state.players[seat].hand[0]))
        state, events = move.state, move.events
    revealed = next(e for e in events if isinstance(e, TurnOrderRevealed))
    numbers = [G.agendas[a].number for a in revealed.cards]
    assert list(revealed.order) == sorted(range(3), key=lambda s: numbers[s])
    shuffled = next(e for e in events if isinstance(e, AgendaDeckShuffled))
    assert set(revealed.cards) <= set(shuffled.deck) and len(shuffled.deck) == 35 - 3
    assert GAME.redact(shuffled, 0).deck == ()
    last = revealed.order[-1]
    assert GAME.to_move(state) == [last]
    state = given(GAME, state).when(last, C.PlaceHub(plot="P11")).state
    assert state.stop_level[plot("P11")] == 3 and state.players[last].prime == plot("P11")
    middle = revealed.order[1]
    assert GAME.to_move(state) == [middle]
    given(GAME, state).when(middle, C.PlaceHub(plot="P11")).then_refused("plot-taken")
    given(GAME, state).when(middle, C.PlaceHub(plot="Z99")).then_refused("unknown-plot")
    state = given(GAME, state).when(middle, C.PlaceHub(plot="P51")).state
    move = given(GAME, state).when(revealed.order[0], C.PlaceHub(plot="P33"))
    state, events = move.state, move.events
    assert YearBegan(year=1) in events and state.phase == "bonus"


def test_automa_set_up_before_the_players_hubs() -> None:
    """2-Player Game 2-4 and reading 24: the Automa card places its marker and Prime Hub first."""
    state = started(2, automa=True)
    a = state.automa
    assert a is not None
    card = G.automa_cards[a.card]
    assert state.stop_owner[plot(card.prime_hub_plot)] == 2 and state.stop_level[plot(card.prime_hub_plot)] == 3
    assert a.arrow == card.arrow and a.side in ("a", "b")


def test_a_two_player_game_includes_the_automa() -> None:
    """2-Player Game: '2. Locate and shuffle the Automa cards (1), selecting one and returning the rest to the box.
    … 4. Select an unused player color to act as the Automa for the duration of the game' — a set-up step of every
    2-player game, not a variant (reading 33). With 3 or more seats there is no Automa."""
    events = match.open_match(GAME, ["a", "b"], {}, "two")
    assert any(isinstance(e, AutomaSetUp) for e in events)
    state = match.fold(GAME, events).game_state
    assert state.automa is not None and state.stop_owner[state.automa.prime] == 2
    assert started(3).automa is None and started(2, automa=True).automa is not None


def test_two_seats_without_the_automa_is_an_option() -> None:
    """Reading 33 (DEVIATION, listed in the catalog): `automa: false` plays 2 seats without the Automa."""
    events = match.open_match(GAME, ["a", "b"], {"automa": False}, "two")
    assert not any(isinstance(e, AutomaSetUp) for e in events)
    assert match.fold(GAME, events).game_state.automa is None
    assert any("automa" in line.lower() for line in GAME.deviations)


def test_bad_options_are_refused() -> None:
    """The Automa plays only with 2 seats; unknown boards and unknown options are refused."""
    with pytest.raises(Refusal) as info:
        match.open_match(GAME, ["a", "b", "c"], {"automa": True}, "s")
    assert info.value.code == "bad-options"
    for name in ("nowhere", "x" * 300, "../data", "default.toml", ""):
        with pytest.raises(Refusal) as info:
            match.open_match(GAME, ["a", "b"], {"board": name}, "s")
        assert info.value.code == "bad-options" and "the boards are: default" in info.value.message
    with pytest.raises(Refusal):
        match.open_match(GAME, ["a", "b"], {"colour": "red"}, "s")


def test_the_set_up_is_random_but_recorded() -> None:
    """Every random set-up outcome is in the events: the same seed gives the same events."""
    a = list(GAME.start(Options(), 4, Rng.derive("same", 0)))
    b = list(GAME.start(Options(), 4, Rng.derive("same", 0)))
    c = list(GAME.start(Options(), 4, Rng.derive("other", 0)))
    assert a == b and a != c


def test_year_one_begins_after_set_up() -> None:
    """The table helper plays the whole set-up: Year 1's loop opens with the first in turn order."""
    state = table(3)
    assert (state.year, state.phase, state.step, state.current) == (1, "loop", "move", state.order[0])
