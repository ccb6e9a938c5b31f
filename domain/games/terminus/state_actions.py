"""The fold of the action events: trades, the City and lobbying, Builds and the Automa's Build. Dull on purpose: no
validation, no randomness. `state.evolve` dispatches to `ACTION_HANDLERS`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.engine import Event
from domain.games.terminus.components import DATA, PROJECT_INDEX, TILE_INDEX, UPGRADE_INDEX, board
from domain.games.terminus.events import (
    AgendaChosen,
    AgendasDrawn,
    AutomaBuilt,
    AutomaFlipped,
    BuildFinished,
    BuildStarted,
    CapacityIncreased,
    DemandTaken,
    DevelopmentPlaced,
    Exchanged,
    HubBuilt,
    LinkBuilt,
    LobbyistMoved,
    ProjectLobbied,
    Traded,
    UpgradeTaken,
)
from domain.games.terminus.state_markets import NOTHING, one_of
from domain.games.terminus.state_players import HUB, STATION
from domain.games.terminus.state_table import State, replace_player, trade


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _exchanged(state: State, event: Exchanged) -> State:
    state = trade(state, event.seat, 0, one_of(event.take), one_of(event.give), 0)
    return replace(state, turn=replace(state.turn, exchanged=True))


def _traded(state: State, event: Traded) -> State:
    return trade(state, event.seat, event.coins, event.take, event.give, event.rails)


def _demand_taken(state: State, event: DemandTaken) -> State:
    token = board(state.board).token_index[event.token]
    tile = state.tile_token.index(token)
    state = replace(state, tile_token=_put(state.tile_token, tile, None))
    player = state.players[event.seat]
    return replace_player(state, event.seat, replace(player, demands=(*player.demands, event.token)))


def _development_placed(state: State, event: DevelopmentPlaced) -> State:
    tile, block = TILE_INDEX[event.tile], board(state.board).block_index[event.block]
    state = replace(
        state, tile_at=_put(state.tile_at, tile, block), block_tile=_put(state.block_tile, block, tile),
        tile_lobbyists=_put(state.tile_lobbyists, tile, (event.seat,)),
    )
    player = state.players[event.seat]
    return replace_player(state, event.seat, replace(player, lobbyists=player.lobbyists - 1))


def _lobbyist(state: State, seat: int, place: str, delta: int) -> State:
    """Add (+1) or remove (-1) one of `seat`'s Lobbyists at a place: 'supply', 'agenda:<slot>', 'dev:<tile>'."""
    player = state.players[seat]
    if place == "supply":
        return replace_player(state, seat, replace(player, lobbyists=player.lobbyists + delta))
    kind, _, ref = place.partition(":")
    if kind == "agenda":
        slot = int(ref)
        kept = tuple(other for other in player.agenda_lobbyists if other != slot)
        slots = (*player.agenda_lobbyists, slot) if delta > 0 else kept
        return replace_player(state, seat, replace(player, agenda_lobbyists=tuple(sorted(slots))))
    tile = TILE_INDEX[ref]
    here = state.tile_lobbyists[tile]
    here = (*here, seat) if delta > 0 else tuple(owner for owner in here if owner != seat)
    return replace(state, tile_lobbyists=_put(state.tile_lobbyists, tile, here))


def _lobbyist_moved(state: State, event: LobbyistMoved) -> State:
    return _lobbyist(_lobbyist(state, event.seat, event.source, -1), event.seat, event.target, +1)


def _agendas_drawn(state: State, event: AgendasDrawn) -> State:
    player = state.players[event.seat]
    state = replace(state, deck=state.deck[len(event.cards) :], step="keep-drawn")
    return replace_player(state, event.seat, replace(player, hand=event.cards, seen=(*player.seen, *event.cards)))


def _agenda_chosen(state: State, event: AgendaChosen) -> State:
    player = state.players[event.seat]
    state = replace(state, deck=(*state.deck, *event.returned))  # Rules, Draw Agendas: the others to the bottom
    return replace_player(state, event.seat, replace(player, hand=(), agendas=(*player.agendas, event.kept)))


def _project_lobbied(state: State, event: ProjectLobbied) -> State:
    at = state.projects.index(PROJECT_INDEX[event.project])
    rows = state.project_rows[at]
    mine = [index for index, (owner, _) in enumerate(rows) if owner == event.seat]
    grown = (event.seat, rows[mine[0]][1] + event.lobbyists) if mine else (event.seat, event.lobbyists)
    rows = _put(rows, mine[0], grown) if mine else (*rows, grown)
    state = replace(state, project_rows=_put(state.project_rows, at, rows))
    player = state.players[event.seat]
    return replace_player(state, event.seat, replace(player, lobbyists=player.lobbyists - event.lobbyists))


def _upgrade_taken(state: State, event: UpgradeTaken) -> State:
    index = UPGRADE_INDEX[event.upgrade]
    state = replace(state, upgrade_supply=_put(state.upgrade_supply, index, state.upgrade_supply[index] - 1))
    player = state.players[event.seat]
    return replace_player(state, event.seat, replace(player, upgrades=(*player.upgrades, event.upgrade)))


def _capacity_increased(state: State, event: CapacityIncreased) -> State:
    player = state.players[event.seat]
    state = replace(state, turn=replace(state.turn, automa_due=state.automa is not None))
    grown = replace(player, capacity=player.capacity + event.steps, builds=(*player.builds, *event.unlocked))
    return replace_player(state, event.seat, grown)


def _build_started(state: State, event: BuildStarted) -> State:
    turn = replace(state.turn, via=event.via, placed=0, connections=(), free_used=False)
    return replace(state, step="build", turn=turn)


def _link_built(state: State, event: LinkBuilt) -> State:
    city = board(state.board)
    start, end, rail = city.plot_index[event.start], city.plot_index[event.end], city.rail_index[event.rail]
    state = replace(state, rail_owners=_put(state.rail_owners, rail, (*state.rail_owners[rail], event.seat)))
    player = state.players[event.seat]
    first_end = player.branch_a[-1] if player.branch_a else player.prime
    if first_end == start:  # the first Terminus (or the Prime Hub before any Station) grows branch a
        player = replace(player, branch_a=(*player.branch_a, end))
    else:
        player = replace(player, branch_b=(*player.branch_b, end))
    player = replace(player, rails_storage=player.rails_storage - event.rails,
                     rails_placed=player.rails_placed + event.rails)
    turn = state.turn
    if event.station:
        player = replace(player, discs_used=player.discs_used + 1)
        state = replace(state, stop_owner=_put(state.stop_owner, end, event.seat),
                        stop_level=_put(state.stop_level, end, STATION))
        turn = replace(turn, free_used=turn.free_used or event.blueprint == 0)
    else:
        player = replace(player, connected=(*player.connected, end))
        turn = replace(turn, connections=(*turn.connections, event.owner))
    state = replace_player(replace(state, turn=replace(turn, placed=turn.placed + 1)), event.seat, player)
    return trade(state, event.seat, 0, NOTHING, (0, event.blueprint, 0, 0), 0) if event.blueprint else state


def _hub_built(state: State, event: HubBuilt) -> State:
    plot = board(state.board).plot_index[event.plot]
    player = state.players[event.seat]
    turn = replace(state.turn, placed=state.turn.placed + 1, free_used=state.turn.free_used or event.blueprint == 0)
    state = replace(state, stop_level=_put(state.stop_level, plot, HUB), turn=turn)
    state = replace_player(state, event.seat, replace(player, discs_used=player.discs_used + 1))
    return trade(state, event.seat, 0, NOTHING, (0, event.blueprint, 0, 0), 0) if event.blueprint else state


def _build_finished(state: State, event: BuildFinished) -> State:
    state = trade(state, event.seat, event.coins, (0, 0, event.power, 0), NOTHING, 0)
    for owner, coins in event.paid:
        if owner < state.seats:
            player = state.players[owner]
            state = replace_player(state, owner, replace(player, coins=player.coins + coins))
        elif state.automa is not None:
            state = replace(state, automa=replace(state.automa, coins=state.automa.coins + coins))
    return state


def _automa_built(state: State, event: AutomaBuilt) -> State:
    automa = state.automa
    assert automa is not None
    city = board(state.board)
    owner = state.seats  # the Automa's Stops and Rails
    stop_owner, stop_level, rails = list(state.stop_owner), list(state.stop_level), list(state.rail_owners)
    players = list(state.players)
    for step in event.steps:
        end, rail = city.plot_index[step.end], city.rail_index[step.rail]
        rails[rail] = (*rails[rail], owner)
        automa = replace(automa, rails=automa.rails - city.board.rails[rail].rails, line=(*automa.line, end),
                         terminus=end)
        if step.station:
            stop_owner[end], stop_level[end] = owner, STATION
            automa = replace(automa, stations=automa.stations - 1)
        else:
            automa = replace(automa, connected=(*automa.connected, end))
            player = players[step.owner]
            players[step.owner] = replace(player, coins=player.coins + DATA.costs.connection_coin)
    return replace(state, automa=automa, stop_owner=tuple(stop_owner), stop_level=tuple(stop_level),
                   rail_owners=tuple(rails), players=tuple(players))


def _automa_flipped(state: State, event: AutomaFlipped) -> State:
    assert state.automa is not None
    return replace(state, automa=replace(state.automa, side=event.side))


ACTION_HANDLERS: dict[type[Event], Callable[[Any, Any], State]] = {
    Exchanged: _exchanged, Traded: _traded, DemandTaken: _demand_taken, DevelopmentPlaced: _development_placed,
    LobbyistMoved: _lobbyist_moved, AgendasDrawn: _agendas_drawn, AgendaChosen: _agenda_chosen,
    ProjectLobbied: _project_lobbied, UpgradeTaken: _upgrade_taken, CapacityIncreased: _capacity_increased,
    BuildStarted: _build_started, LinkBuilt: _link_built, HubBuilt: _hub_built, BuildFinished: _build_finished,
    AutomaBuilt: _automa_built, AutomaFlipped: _automa_flipped,
}
