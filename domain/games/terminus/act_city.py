"""City and lobbying actions: Take Demand, Place Development, Move Lobbyist, Draw Agendas, Lobby a Project."""

from __future__ import annotations

from collections.abc import Iterator

from domain.engine import Decision
from domain.games.terminus import common as c
from domain.games.terminus.cards import DATA, PROJECT_INDEX, PROJECTS, TILE_INDEX, TILES
from domain.games.terminus.commands import (
    DrawAgendas,
    KeepAgenda,
    LobbyProject,
    MoveLobbyist,
    PlaceDevelopment,
    TakeDemand,
)
from domain.games.terminus.events import (
    ActionDone,
    AgendaChosen,
    AgendasDrawn,
    DemandTaken,
    DevelopmentPlaced,
    LobbyistMoved,
    ProjectLobbied,
    Traded,
)
from domain.games.terminus.state import State, agenda_count

COSTS = DATA.costs


# --- Take Demand (Develop and Build Zones) -------------------------------------------------------------------------


def demand_power(via: str) -> int:
    tile = c.via_tile(via)
    return tile.power if tile and tile.power >= 0 else COSTS.take_demand_power


def check_demand(state: State, seat: int, cmd: TakeDemand) -> c.Error:
    err = c.via_error(state, seat, cmd.via, "take_demand", "take_demand")
    if err:
        return err
    g = c.geo(state)
    token = g.token_index.get(cmd.token)
    if token is None or token not in state.tile_token or state.tile_at[state.tile_token.index(token)] < 0:
        return "demand-not-available", f"{cmd.token} is not on a Development in the City"
    player = state.players[seat]
    if len(player.demands) >= len(DATA.player_board.demand_track):
        return "demand-track-full", "your Demand track is full"
    district = g.token_district[token]
    claimed = sum(1 for t in player.demands if g.token_district[g.token_index[t]] == district)
    if c.stops_in_district(state, seat, district) <= claimed:
        # Rules, Take Demand: "as long as you don't have more Demands than you have Stops in that District"
        return "not-enough-stops-in-district", "you need more Stops in that District than Demands from it"
    return c.afford(player, res=(0, 0, demand_power(cmd.via), 0))


def demand_candidates(state: State, seat: int) -> Iterator[TakeDemand]:
    g = c.geo(state)
    tokens = [g.tokens[t] for i, t in enumerate(state.tile_token) if t >= 0 and state.tile_at[i] >= 0]
    for via in c.ways(state, seat, "take_demand", "take_demand"):
        for token in tokens:
            yield TakeDemand(token=token, via=via)


def run_demand(b: Decision[State], seat: int, cmd: TakeDemand) -> None:
    power = demand_power(cmd.via)
    if power:
        b.emit(Traded(seat=seat, action="take_demand", via=cmd.via, give=(0, 0, power, 0)))
    b.emit(DemandTaken(seat=seat, token=cmd.token))
    b.emit(*c.finish_action(b.state, seat))


# --- Place a Development (Develop Zone) ----------------------------------------------------------------------------


def development_cost(via: str) -> tuple[int, int]:
    """(coins, Permits): 1 Permit, or tile #19's 2 coins and no Permit."""
    tile = c.via_tile(via)
    if tile is None:
        return 0, COSTS.place_development_permit
    return tile.coins, tile.permits if tile.permits >= 0 else COSTS.place_development_permit


def check_development(state: State, seat: int, cmd: PlaceDevelopment) -> c.Error:
    err = c.via_error(state, seat, cmd.via, "place_development", "develop")
    if err:
        return err
    tile = TILE_INDEX.get(cmd.tile)
    if tile is None or state.tile_at[tile] != -1:
        return "tile-not-on-display", f"{cmd.tile} is not a face-up Development"
    g = c.geo(state)
    block = g.block_index.get(cmd.block)
    if block is None:
        return "unknown-block", f"there is no Block {cmd.block!r}"
    if not c.block_free(state, block):
        return "block-occupied", f"{cmd.block} already holds a Development or Rails"
    if TILES[tile].type not in g.board.blocks[block].zoning:
        return "block-not-zoned", f"{cmd.block} is not zoned {TILES[tile].type}"
    if not c.block_adjacent(state, seat, block):
        return "block-not-adjacent", f"{cmd.block} is not adjacent to one of your Stops"
    player = state.players[seat]
    if player.lobbyists < 1:
        return "no-lobbyist", "you have no Lobbyist in your supply to place on it"
    coins, permits = development_cost(cmd.via)
    return c.afford(player, coins=coins, res=(permits, 0, 0, 0))


def development_candidates(state: State, seat: int) -> Iterator[PlaceDevelopment]:
    g = c.geo(state)
    display = [i for i, at in enumerate(state.tile_at) if at == -1]
    player = state.players[seat]
    vias = [
        via for via in c.ways(state, seat, "place_development", "develop")
        if c.afford(player, development_cost(via)[0], (development_cost(via)[1], 0, 0, 0)) is None
    ]
    if not vias or not display or player.lobbyists < 1:
        return
    for block, spec in enumerate(g.board.blocks):
        if c.block_free(state, block) and c.block_adjacent(state, seat, block):
            for tile in display:
                if TILES[tile].type in spec.zoning:
                    for via in vias:
                        yield PlaceDevelopment(tile=TILES[tile].id, block=spec.id, via=via)


def run_development(b: Decision[State], seat: int, cmd: PlaceDevelopment) -> None:
    coins, permits = development_cost(cmd.via)
    if coins or permits:
        b.emit(Traded(seat=seat, action="place_development", via=cmd.via, coins=-coins, give=(permits, 0, 0, 0)))
    b.emit(DevelopmentPlaced(seat=seat, tile=cmd.tile, block=cmd.block))
    b.emit(*c.finish_action(b.state, seat))


# --- Move a Lobbyist (Develop and Lobby Zones; tile #08 moves up to 2) ---------------------------------------------


def lobbyist_sources(state: State, seat: int) -> list[str]:
    player = state.players[seat]
    out = ["supply"] if player.lobbyists else []
    out += [f"agenda:{slot}" for slot in player.agenda_lobbyists]
    out += [f"dev:{TILES[i].id}" for i, owners in enumerate(state.tile_lobbyists) if seat in owners]
    return out


def lobbyist_targets(state: State, seat: int) -> list[str]:
    player = state.players[seat]
    slots = ([0] if player.secret else []) + list(range(1, len(player.agendas) + 1))
    out = ["supply"] + [f"agenda:{s}" for s in slots if s not in player.agenda_lobbyists]
    for i, at in enumerate(state.tile_at):
        owners = state.tile_lobbyists[i]
        if at >= 0 and seat not in owners and len(owners) < c.DEV_SLOTS and c.block_adjacent(state, seat, at):
            out.append(f"dev:{TILES[i].id}")
    return out


def check_lobbyist(state: State, seat: int, cmd: MoveLobbyist) -> c.Error:
    if state.step == "after":
        if "lobbyist" not in state.turn.follow or cmd.via != state.turn.via:
            return "wrong-step", "no second Lobbyist move is on offer now"
    else:
        err = c.via_error(state, seat, cmd.via, "move_lobbyist", "move_lobbyists")
        if err:
            return err
    if cmd.source not in lobbyist_sources(state, seat):
        return "bad-source", f"you have no Lobbyist at {cmd.source!r}"
    if cmd.target == cmd.source or cmd.target not in lobbyist_targets(state, seat):
        # Rules, Move 1 Lobbyist: a Development adjacent to one of your Stops with an open space; 1 per Agenda
        return "bad-target", f"a Lobbyist of yours may not move to {cmd.target!r}"
    return None


def lobbyist_candidates(state: State, seat: int) -> Iterator[MoveLobbyist]:
    vias = [state.turn.via] if state.step == "after" else list(c.ways(state, seat, "move_lobbyist", "move_lobbyists"))
    if not vias:
        return
    targets = lobbyist_targets(state, seat)
    for source in lobbyist_sources(state, seat):
        for target in targets:
            if target != source:
                for via in vias:
                    yield MoveLobbyist(source=source, target=target, via=via)


def run_lobbyist(b: Decision[State], seat: int, cmd: MoveLobbyist) -> None:
    first = b.state.step == "act"
    b.emit(LobbyistMoved(seat=seat, source=cmd.source, target=cmd.target))
    tile = c.via_tile(cmd.via)
    follow: tuple[str, ...] = ()
    if first and tile is not None and tile.count > 1 and any(True for _ in lobbyist_candidates(b.state, seat)):
        follow = ("lobbyist",)
    b.emit(*c.finish_action(b.state, seat, follow, cmd.via))


# --- Draw Agendas (Lobby Zone), then keep one ----------------------------------------------------------------------


def agenda_draw(state: State, via: str) -> tuple[int, int]:
    """(Permits, cards): 1 Permit for 3/2/1 cards in Year 1/2/3; tiles #07 (free) and #11 (+1 card) change it."""
    tile = c.via_tile(via)
    permits = tile.permits if tile and tile.permits >= 0 else COSTS.draw_agendas_permit
    cards = COSTS.agenda_draw_by_year[state.year - 1] + (tile.extra_cards if tile else 0)
    return permits, cards


def check_draw(state: State, seat: int, cmd: DrawAgendas) -> c.Error:
    err = c.via_error(state, seat, cmd.via, "draw_agendas", "draw_agendas")
    if err:
        return err
    player = state.players[seat]
    if agenda_count(player) >= COSTS.max_agendas:
        return "agenda-limit", "you already hold 3 Agendas"
    if not state.deck:
        return "agenda-deck-empty", "the Agenda deck is empty"
    permits, _ = agenda_draw(state, cmd.via)
    return c.afford(player, res=(permits, 0, 0, 0))


def draw_candidates(state: State, seat: int) -> Iterator[DrawAgendas]:
    for via in c.ways(state, seat, "draw_agendas", "draw_agendas"):
        yield DrawAgendas(via=via)


def run_draw(b: Decision[State], seat: int, cmd: DrawAgendas) -> None:
    permits, cards = agenda_draw(b.state, cmd.via)
    if permits:
        b.emit(Traded(seat=seat, action="draw_agendas", via=cmd.via, give=(permits, 0, 0, 0)))
    drawn = b.state.deck[:cards]
    b.emit(AgendasDrawn(seat=seat, cards=drawn, count=len(drawn)))


def check_keep_drawn(state: State, seat: int, cmd: KeepAgenda) -> c.Error:
    if cmd.agenda not in state.players[seat].hand:
        return "not-in-hand", f"{cmd.agenda} is not among the Agendas you drew"
    return None


def run_keep_drawn(b: Decision[State], seat: int, cmd: KeepAgenda) -> None:
    hand = b.state.players[seat].hand
    returned = tuple(a for a in hand if a != cmd.agenda)
    b.emit(AgendaChosen(seat=seat, kept=cmd.agenda, returned=returned, count=len(returned)))
    b.emit(ActionDone(seat=seat))


# --- Lobby a Project (Lobby Zone) ----------------------------------------------------------------------------------


def lobby_permits(via: str) -> int:
    tile = c.via_tile(via)
    return tile.permits if tile and tile.permits >= 0 else COSTS.lobby_project_permit


def check_lobby(state: State, seat: int, cmd: LobbyProject) -> c.Error:
    err = c.via_error(state, seat, cmd.via, "lobby_project", "lobby")
    if err:
        return err
    project = PROJECT_INDEX.get(cmd.project)
    if project is None or project not in state.projects:
        return "unknown-project", f"{cmd.project} is not a Project in play"
    rows = state.project_rows[state.projects.index(project)]
    mine = [count for owner, count in rows if owner == seat]
    n = cmd.lobbyists
    if mine:
        if not 1 <= n <= COSTS.project_add_max or mine[0] + n > COSTS.project_row_spaces:
            return "bad-lobbyist-count", "add 1 or 2 Lobbyists to your row, up to its 4 spaces"
    else:
        if len(rows) >= COSTS.project_rows:
            return "project-full", f"both rows of {cmd.project} are taken"
        if not COSTS.project_new_row_min <= n <= COSTS.project_row_spaces:
            return "bad-lobbyist-count", "a new row takes 2 to 4 Lobbyists"
    player = state.players[seat]
    if player.lobbyists < n:
        return "no-lobbyist", f"you have {player.lobbyists} Lobbyists in your supply"
    return c.afford(player, res=(lobby_permits(cmd.via), 0, 0, 0))


def lobby_candidates(state: State, seat: int) -> Iterator[LobbyProject]:
    for via in c.ways(state, seat, "lobby_project", "lobby"):
        for project in state.projects:
            for n in range(1, COSTS.project_row_spaces + 1):
                yield LobbyProject(project=PROJECTS[project].id, lobbyists=n, via=via)


def run_lobby(b: Decision[State], seat: int, cmd: LobbyProject) -> None:
    permits = lobby_permits(cmd.via)
    if permits:
        b.emit(Traded(seat=seat, action="lobby_project", via=cmd.via, give=(permits, 0, 0, 0)))
    b.emit(ProjectLobbied(seat=seat, project=cmd.project, lobbyists=cmd.lobbyists))
    b.emit(*c.finish_action(b.state, seat))
