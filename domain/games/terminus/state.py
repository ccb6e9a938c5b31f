"""The Terminus table as frozen Structs (tuples, indices into the data) so states compare and round-trip.

Plots, blocks, rail spaces, tiles and projects are stored by their index in the board/data records; commands
and events name them by id. Owners are seat numbers; the Automa (2-player option) is owner `seats`.
"""

from __future__ import annotations

import msgspec

from domain.games.terminus.cards import DATA, UPGRADE_KIND

PERMIT, BLUEPRINT, POWER, CONSTRUCTION = range(4)
NONE = ()


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's player board, pieces and position on the Action Loop."""

    coins: int = 0
    res: tuple[int, int, int, int] = (0, 0, 0, 0)  # Permit, Blueprint, Power, Construction in storage
    rails_reserve: int = DATA.player_board.rails
    rails_storage: int = 0
    rails_placed: int = 0
    discs_used: int = 0  # Station discs taken from the Station Track (Stations and Hub tops)
    capacity: int = 0  # Capacity Marker position: discs left of it may be built
    builds: tuple[str, ...] = ()  # Build Upgrades flipped face up: 'hubs', 'second_terminus'
    upgrades: tuple[str, ...] = ()  # Advanced Upgrades taken (A1..A6)
    lobbyists: int = DATA.player_board.lobbyists  # in the Lobbyist Supply
    secret: str = ""  # the face-down starting Agenda
    agendas: tuple[str, ...] = ()  # Agendas kept face up later
    agenda_lobbyists: tuple[int, ...] = ()  # agenda slots (0 = secret, i = agendas[i-1]) holding a Lobbyist
    demands: tuple[str, ...] = ()
    zone: int = -1  # Player Marker: -1 on the Turn Order card
    cycle: int = 1
    passed: bool = False
    prime: int = -1  # plot of the Prime Hub
    branch_a: tuple[int, ...] = ()  # plots of the line beyond the Prime Hub, in building order (first Terminus)
    branch_b: tuple[int, ...] = ()  # the other way (Second Terminus)
    connected: tuple[int, ...] = ()  # plots of other players' Stops connected to
    bonus: int = -1  # Bonus Track choice this Year, -1 before choosing
    hand: tuple[str, ...] = ()  # Agendas in hand: the 2 dealt at set-up, or those drawn before keeping one
    seen: tuple[str, ...] = ()  # Agenda ids this seat has seen privately


class Automa(msgspec.Struct, frozen=True, kw_only=True):
    """The 2-player Automa: a card, its Player Marker, its Direction Marker and its line."""

    card: str
    side: str  # 'a' or 'b', the face-up side
    zone: int
    arrow: str  # compass direction of the Direction Marker
    prime: int
    terminus: int
    stations: int = DATA.player_board.station_discs
    rails: int = DATA.player_board.rails
    line: tuple[int, ...] = ()  # plots reached, in order (its own Stations and Stops it connected to)
    connected: tuple[int, ...] = ()
    coins: int = 0


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    """What the player to move has done so far this turn."""

    via: str = ""  # Development tile whose action is being used
    placed: int = 0  # Stops placed and Connections made in the current Build
    connections: tuple[int, ...] = ()  # owner of each Stop connected to in the current Build
    free_used: bool = False  # A6: the first Stop of this Build was free
    exchanged: bool = False  # A1 used this turn
    follow: tuple[str, ...] = ()  # optional follow-ups on offer: 'rails' (A3), 'lobbyist' (tile #08)
    automa_due: bool = False  # Capacity increased: the Automa Builds after this turn


class ScoreLine(msgspec.Struct, frozen=True, kw_only=True):
    """End-game prestige of one player, by category (Rules, End-Game Scoring)."""

    player: int
    adjacency: int
    projects: int
    agendas: int
    demands: int
    coins: int
    total: int
    stations_left: int
    coins_left: int
    secret: str = ""


class State(msgspec.Struct, frozen=True, kw_only=True):
    """The whole table."""

    board: str
    seats: int
    first_game: bool = False
    players: tuple[Player, ...]
    automa: Automa | None = None
    year: int = 0
    phase: str = "keep-agenda"  # keep-agenda, place-hub, bonus, income, loop, over
    step: str = ""  # in the loop: move, act, build, keep-drawn, after, done
    current: int = -1
    order: tuple[int, ...] = ()  # this Year's turn order
    passed_order: tuple[int, ...] = ()  # who passed, in order: next Year's turn order
    turn: Turn = Turn()
    income: tuple[tuple[str, int], ...] = ()  # Annual Income steps left: ('bonus'|'budget'|'reward', seat)
    markets: tuple[tuple[int, ...], ...] = ()  # per resource: cubes per column
    stop_owner: tuple[int, ...] = ()  # per plot: owner or -1
    stop_level: tuple[int, ...] = ()  # per plot: 0 empty, 1 Station, 2 Hub, 3 Prime Hub
    rail_owners: tuple[tuple[int, ...], ...] = ()  # per rail space: owners of the Rails on it
    block_tile: tuple[int, ...] = ()  # per block: Development tile index or -1
    tile_at: tuple[int, ...] = ()  # per tile: -2 out of the game, -1 face up on display, else its block
    tile_token: tuple[int, ...] = ()  # per tile: Demand token index on it or -1
    tile_lobbyists: tuple[tuple[int, ...], ...] = ()  # per tile: owners of the Lobbyists on it
    projects: tuple[int, ...] = ()  # Project indices in play
    project_rows: tuple[tuple[tuple[int, int], ...], ...] = ()  # per project in play: (owner, Lobbyists) rows
    upgrade_supply: tuple[int, ...] = ()  # per Advanced Upgrade: copies left
    deck: tuple[str, ...] = ()  # the Agenda deck, top first
    public_agendas: tuple[str, ...] = ()  # Agendas shown to everyone (the turn-order reveal)
    final: tuple[ScoreLine, ...] = ()


_STORAGE = UPGRADE_KIND.get("storage")
_LIMIT = DATA.player_board.storage_limit


def storage_limit(player: Player) -> int:
    """Resources a player may store: 8, or the Storage upgrade's amount (A4, DEFAULT)."""
    return _STORAGE.amount if _STORAGE is not None and _STORAGE.id in player.upgrades else _LIMIT


def has_upgrade(player: Player, kind: str) -> bool:
    """Whether the player owns the Advanced Upgrade of this kind."""
    up = UPGRADE_KIND.get(kind)
    return up is not None and up.id in player.upgrades


def over_limit(state: State) -> int:
    """The seat holding more resources than its storage allows, or -1."""
    for seat, player in enumerate(state.players):
        if sum(player.res) > _LIMIT and sum(player.res) > storage_limit(player):
            return seat
    return -1


def agenda_count(player: Player) -> int:
    """Agendas held: the secret one plus those kept face up."""
    return (1 if player.secret else 0) + len(player.agendas)


def termini(player: Player) -> tuple[int, ...]:
    """The plots a player may Build from: the end of the line, and the Prime Hub end with Second Terminus."""
    first = player.branch_a[-1] if player.branch_a else player.prime
    if "second_terminus" in player.builds:
        second = player.branch_b[-1] if player.branch_b else player.prime
        return (first,) if second == first else (first, second)
    return (first,)


def line_plots(player: Player) -> tuple[int, ...]:
    """The player's line from one end to the other (Prime Hub in the middle), Connection stops included."""
    return (*reversed(player.branch_b), player.prime, *player.branch_a)


def replace_player(state: State, seat: int, player: Player) -> State:
    """The state with one player's record replaced."""
    players = list(state.players)
    players[seat] = player
    return msgspec.structs.replace(state, players=tuple(players))
