"""City and lobbying actions: Take Demand (Build and Develop Zones), Place a Development and Move a Lobbyist (Develop
Zone), Draw Agendas and keep one, Lobby a Project (Lobby Zone)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.engine import Decision, Refusal
from domain.games.terminus.commands import (
    DrawAgendas,
    KeepAgenda,
    LobbyProject,
    MoveLobbyist,
    PlaceDevelopment,
    TakeDemand,
)
from domain.games.terminus.components import DATA, PROJECT_INDEX, PROJECTS, TILE_INDEX, TILES
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
from domain.games.terminus.rules_checks import afford, check_via
from domain.games.terminus.rules_table import (
    DEV_SLOTS,
    block_adjacent,
    block_free,
    board_of,
    stops_in_district,
    via_tile,
    ways,
)
from domain.games.terminus.rules_turn import finish_action
from domain.games.terminus.state import FollowUp, State
from domain.games.terminus.state_players import agenda_count

COSTS = DATA.costs


def demand_power(via: str) -> int:
    """Rules, Demands: Taking a Demand costs 1 Power, or a Development's own cost."""
    tile = via_tile(via)
    return tile.power if tile and tile.power is not None else COSTS.take_demand_power


def check_demand(state: State, seat: int, command: TakeDemand) -> None:
    """Rules, Demands: a token on a Development in the City, a free space on the Demand track, and "as long as you
    don't have more Demands than you have Stops in that District"."""
    check_via(state, seat, command.via, "take_demand", "take_demand")
    city = board_of(state)
    token = city.token_index.get(command.token)
    on_tile = state.tile_token.index(token) if token is not None and token in state.tile_token else None
    if token is None or on_tile is None or not isinstance(state.tile_at[on_tile], int):
        raise Refusal("demand-not-available", f"{command.token} is not on a Development in the City")
    player = state.players[seat]
    if len(player.demands) >= len(DATA.player_board.demand_track):
        raise Refusal("demand-track-full", "your Demand track is full")
    district = city.token_district[token]
    claimed = sum(1 for taken in player.demands if city.token_district[city.token_index[taken]] == district)
    if stops_in_district(state, seat, district) <= claimed:
        raise Refusal("not-enough-stops-in-district", "you need more Stops in that District than Demands from it")
    afford(player, res=(0, 0, demand_power(command.via), 0))


def demand_candidates(state: State, seat: int) -> Iterator[TakeDemand]:
    """Rules, Demands: each token on a Development in the City, by each way to take the action."""
    city = board_of(state)
    tokens = [city.tokens[token] for tile, token in enumerate(state.tile_token)
              if token is not None and isinstance(state.tile_at[tile], int)]
    for via in ways(state, seat, "take_demand", "take_demand"):
        for token in tokens:
            yield TakeDemand(token=token, via=via)


def run_demand(decision: Decision[State], seat: int, command: TakeDemand) -> None:
    """Rules, Demands: the Power is paid and the token taken onto the Demand track."""
    power = demand_power(command.via)
    if power:
        decision.emit(Traded(seat=seat, action="take_demand", via=command.via, give=(0, 0, power, 0)))
    decision.emit(DemandTaken(seat=seat, token=command.token))
    decision.emit(*finish_action(seat))


def development_cost(via: str) -> tuple[int, int]:
    """Rules, Develop Zone: (coins, Permits) to place a Development: 1 Permit, or tile #19's 2 coins and no Permit."""
    tile = via_tile(via)
    if tile is None:
        return 0, COSTS.place_development_permit
    return tile.coins, tile.permits if tile.permits is not None else COSTS.place_development_permit


def check_development(state: State, seat: int, command: PlaceDevelopment) -> None:
    """Rules, Develop Zone: a face-up Development into an empty Block zoned for its type, adjacent to one of your
    Stops, with a Lobbyist from your supply on it."""
    check_via(state, seat, command.via, "place_development", "develop")
    tile = TILE_INDEX.get(command.tile)
    if tile is None or state.tile_at[tile] != "display":
        raise Refusal("tile-not-on-display", f"{command.tile} is not a face-up Development")
    city = board_of(state)
    block = city.block_index.get(command.block)
    if block is None:
        raise Refusal("unknown-block", f"there is no Block {command.block!r}")
    if not block_free(state, block):
        raise Refusal("block-occupied", f"{command.block} already holds a Development or Rails")
    if TILES[tile].type not in city.board.blocks[block].zoning:
        raise Refusal("block-not-zoned", f"{command.block} is not zoned {TILES[tile].type}")
    if not block_adjacent(state, seat, block):
        raise Refusal("block-not-adjacent", f"{command.block} is not adjacent to one of your Stops")
    player = state.players[seat]
    if player.lobbyists < 1:
        raise Refusal("no-lobbyist", "you have no Lobbyist in your supply to place on it")
    coins, permits = development_cost(command.via)
    afford(player, coins=coins, res=(permits, 0, 0, 0))


def development_candidates(state: State, seat: int) -> Iterator[PlaceDevelopment]:
    """Rules, Develop Zone: each face-up tile into each free, adjacent Block zoned for it, by each affordable way."""
    city = board_of(state)
    display = [tile for tile, place in enumerate(state.tile_at) if place == "display"]
    player = state.players[seat]
    vias = []
    for via in ways(state, seat, "place_development", "develop"):
        coins, permits = development_cost(via)
        if player.coins >= coins and player.res[0] >= permits:
            vias.append(via)
    if not vias or not display or player.lobbyists < 1:
        return
    for block, spec in enumerate(city.board.blocks):
        if block_free(state, block) and block_adjacent(state, seat, block):
            for tile in display:
                if TILES[tile].type in spec.zoning:
                    for via in vias:
                        yield PlaceDevelopment(tile=TILES[tile].id, block=spec.id, via=via)


def run_development(decision: Decision[State], seat: int, command: PlaceDevelopment) -> None:
    """Rules, Develop Zone: the Development is paid for and placed, with one of the seat's Lobbyists."""
    coins, permits = development_cost(command.via)
    if coins or permits:
        decision.emit(Traded(seat=seat, action="place_development", via=command.via, coins=-coins,
                             give=(permits, 0, 0, 0)))
    decision.emit(DevelopmentPlaced(seat=seat, tile=command.tile, block=command.block))
    decision.emit(*finish_action(seat))


def lobbyist_sources(state: State, seat: int) -> list[str]:
    """Rules, Lobbyists: where the seat has a Lobbyist: 'supply', 'agenda:<slot>', 'dev:<tile>'."""
    player = state.players[seat]
    out = ["supply"] if player.lobbyists else []
    out += [f"agenda:{slot}" for slot in player.agenda_lobbyists]
    out += [f"dev:{TILES[tile].id}" for tile, owners in enumerate(state.tile_lobbyists) if seat in owners]
    return out


def lobbyist_targets(state: State, seat: int) -> list[str]:
    """Rules, Lobbyists: the supply, an own Agenda without one, or an open space on a Development adjacent to one
    of the seat's Stops."""
    player = state.players[seat]
    slots = ([0] if player.secret else []) + list(range(1, len(player.agendas) + 1))
    out = ["supply"] + [f"agenda:{slot}" for slot in slots if slot not in player.agenda_lobbyists]
    for tile, place in enumerate(state.tile_at):
        owners = state.tile_lobbyists[tile]
        open_space = seat not in owners and len(owners) < DEV_SLOTS
        if isinstance(place, int) and open_space and block_adjacent(state, seat, place):
            out.append(f"dev:{TILES[tile].id}")
    return out


def check_lobbyist(state: State, seat: int, command: MoveLobbyist) -> None:
    """Rules, Move 1 Lobbyist: from where the seat has one to a place it may go (tile #08: a second move may
    follow)."""
    if state.step == "after":
        if "lobbyist" not in state.turn.follow or command.via != state.turn.via:
            raise Refusal("wrong-step", "no second Lobbyist move is on offer now")
    else:
        check_via(state, seat, command.via, "move_lobbyist", "move_lobbyists")
    if command.source not in lobbyist_sources(state, seat):
        raise Refusal("bad-source", f"you have no Lobbyist at {command.source!r}")
    if command.target == command.source or command.target not in lobbyist_targets(state, seat):
        # Rules, Move 1 Lobbyist: a Development adjacent to one of your Stops with an open space; 1 per Agenda
        raise Refusal("bad-target", f"a Lobbyist of yours may not move to {command.target!r}")


def lobbyist_candidates(state: State, seat: int) -> Iterator[MoveLobbyist]:
    """Rules, Move 1 Lobbyist: each source to each other target, by each way to take the action."""
    after = state.step == "after"
    vias = [state.turn.via] if after else list(ways(state, seat, "move_lobbyist", "move_lobbyists"))
    if not vias:
        return
    targets = lobbyist_targets(state, seat)
    for source in lobbyist_sources(state, seat):
        for target in targets:
            if target != source:
                for via in vias:
                    yield MoveLobbyist(source=source, target=target, via=via)


def run_lobbyist(decision: Decision[State], seat: int, command: MoveLobbyist) -> None:
    """Rules, Move 1 Lobbyist: the Lobbyist moves; tile #08 (DEFAULT) offers a second move when one is possible."""
    first = decision.state.step == "act"
    decision.emit(LobbyistMoved(seat=seat, source=command.source, target=command.target))
    tile = via_tile(command.via)
    follow: tuple[FollowUp, ...] = ()
    if first and tile is not None and tile.count > 1 and any(True for _ in lobbyist_candidates(decision.state, seat)):
        follow = ("lobbyist",)
    decision.emit(*finish_action(seat, follow, command.via))


def agenda_draw(state: State, via: str) -> tuple[int, int]:
    """Rules, Lobby Zone: (Permits, cards) to Draw Agendas: 1 Permit for 3/2/1 cards in Year 1/2/3; tiles #07 (free)
    and #11 (one more card) change it (DEFAULT)."""
    tile = via_tile(via)
    permits = tile.permits if tile and tile.permits is not None else COSTS.draw_agendas_permit
    cards = COSTS.agenda_draw_by_year[state.year - 1] + (tile.extra_cards if tile else 0)
    return permits, cards


def check_draw(state: State, seat: int, command: DrawAgendas) -> None:
    """Rules, Lobby Zone, Restrictions: 3 Agendas at most, and the deck must hold a card."""
    check_via(state, seat, command.via, "draw_agendas", "draw_agendas")
    player = state.players[seat]
    if agenda_count(player) >= COSTS.max_agendas:
        raise Refusal("agenda-limit", "you already hold 3 Agendas")
    if not state.deck:
        raise Refusal("agenda-deck-empty", "the Agenda deck is empty")
    permits, _ = agenda_draw(state, command.via)
    afford(player, res=(permits, 0, 0, 0))


def draw_candidates(state: State, seat: int) -> Iterator[DrawAgendas]:
    """Rules, Lobby Zone: each way to take the action."""
    for via in ways(state, seat, "draw_agendas", "draw_agendas"):
        yield DrawAgendas(via=via)


def run_draw(decision: Decision[State], seat: int, command: DrawAgendas) -> None:
    """Rules, Lobby Zone: the Permit is paid and the cards drawn (seen by the drawer only); one is kept next."""
    permits, cards = agenda_draw(decision.state, command.via)
    if permits:
        decision.emit(Traded(seat=seat, action="draw_agendas", via=command.via, give=(permits, 0, 0, 0)))
    drawn = decision.state.deck[:cards]
    decision.emit(AgendasDrawn(seat=seat, cards=drawn, count=len(drawn)))


def check_keep_drawn(state: State, seat: int, command: KeepAgenda) -> None:
    """Rules, Lobby Zone: keep one of the Agendas just drawn."""
    if command.agenda not in state.players[seat].hand:
        raise Refusal("not-in-hand", f"{command.agenda} is not among the Agendas you drew")


def run_keep_drawn(decision: Decision[State], seat: int, command: KeepAgenda) -> None:
    """Rules, Lobby Zone: the Agenda is kept face up, the others go to the bottom of the deck."""
    hand = decision.state.players[seat].hand
    returned = tuple(agenda for agenda in hand if agenda != command.agenda)
    decision.emit(AgendaChosen(seat=seat, kept=command.agenda, returned=returned, count=len(returned)))
    decision.emit(ActionDone(seat=seat))


def lobby_permits(via: str) -> int:
    """Rules, Lobby Zone: Lobbying a Project costs 1 Permit, or a Development's own cost (#21: none, DEFAULT)."""
    tile = via_tile(via)
    return tile.permits if tile and tile.permits is not None else COSTS.lobby_project_permit


def check_lobby(state: State, seat: int, command: LobbyProject) -> None:
    """Rules, Projects: a new row takes 2 to 4 Lobbyists, an own row 1 or 2 more up to its 4 spaces; 2 rows per
    Project; "You can occupy only 1 row of each Project"."""
    check_via(state, seat, command.via, "lobby_project", "lobby")
    project = PROJECT_INDEX.get(command.project)
    if project is None or project not in state.projects:
        raise Refusal("unknown-project", f"{command.project} is not a Project in play")
    rows = state.project_rows[state.projects.index(project)]
    mine = [count for owner, count in rows if owner == seat]
    n = command.lobbyists
    if mine:
        if not 1 <= n <= COSTS.project_add_max or mine[0] + n > COSTS.project_row_spaces:
            raise Refusal("bad-lobbyist-count", "add 1 or 2 Lobbyists to your row, up to its 4 spaces")
    else:
        if len(rows) >= COSTS.project_rows:
            raise Refusal("project-full", f"both rows of {command.project} are taken")
        if not COSTS.project_new_row_min <= n <= COSTS.project_row_spaces:
            raise Refusal("bad-lobbyist-count", "a new row takes 2 to 4 Lobbyists")
    player = state.players[seat]
    if player.lobbyists < n:
        raise Refusal("no-lobbyist", f"you have {player.lobbyists} Lobbyists in your supply")
    afford(player, res=(lobby_permits(command.via), 0, 0, 0))


def lobby_candidates(state: State, seat: int) -> Iterator[LobbyProject]:
    """Rules, Projects: each Project in play with 1 to 4 Lobbyists, by each way to take the action."""
    for via in ways(state, seat, "lobby_project", "lobby"):
        for project in state.projects:
            for n in range(1, COSTS.project_row_spaces + 1):
                yield LobbyProject(project=PROJECTS[project].id, lobbyists=n, via=via)


def run_lobby(decision: Decision[State], seat: int, command: LobbyProject) -> None:
    """Rules, Projects: the Permit is paid and the Lobbyists placed on the seat's row."""
    permits = lobby_permits(command.via)
    if permits:
        decision.emit(Traded(seat=seat, action="lobby_project", via=command.via, give=(permits, 0, 0, 0)))
    decision.emit(ProjectLobbied(seat=seat, project=command.project, lobbyists=command.lobbyists))
    decision.emit(*finish_action(seat))
