"""The Terminus table as one frozen Struct, `State`, and the helpers that replace a part of it: the pieces every
other state module builds on (`state.py` folds events into it; `state_actions.py` folds the action events).
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec.structs import replace

from domain.games.terminus.editions import CURRENT, Rules
from domain.games.terminus.events import ScoreLine
from domain.games.terminus.state_markets import Cubes, capacities, give_cubes, take_cubes
from domain.games.terminus.state_players import Automa, Player

Phase = Literal["keep-agenda", "place-hub", "bonus", "income", "loop", "over"]
Step = Literal["move", "act", "build", "keep-drawn", "after", "done"]  # where the Action Loop's turn stands
IncomeStep = tuple[Literal["bonus", "budget", "reward"], int | None]  # Annual Income steps left, and whose
TilePlace = int | Literal["display"] | None  # a Development's Block in the City, face up on the display, or unused
FollowUp = Literal["rails", "lobbyist"]  # optional follow-ups: A3's Rail purchase, tile #08's second Lobbyist


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    """What the player to move has done so far this turn."""

    via: str = ""  # Development tile whose action is being used ("": the Zone's own action)
    placed: int = 0  # Stops placed and Connections made in the current Build
    connections: tuple[int, ...] = ()  # owner of each Stop connected to in the current Build
    free_used: bool = False  # A6: the first Stop of this Build was free
    exchanged: bool = False  # A1 used this turn
    follow: tuple[FollowUp, ...] = ()  # optional follow-ups on offer
    automa_due: bool = False  # Capacity increased: the Automa Builds after this turn


class State(msgspec.Struct, frozen=True, kw_only=True):
    """The whole table."""

    board: str
    seats: int
    first_game: bool = False
    players: tuple[Player, ...]
    automa: Automa | None = None
    year: int = 0
    phase: Phase = "keep-agenda"
    step: Step | None = None  # in the Action Loop only
    current: int | None = None  # the seat placing its Prime Hub, or taking its turn
    order: tuple[int, ...] = ()  # this Year's turn order
    passed_order: tuple[int, ...] = ()  # who passed, in order: next Year's turn order
    turn: Turn = Turn()
    income: tuple[IncomeStep, ...] = ()
    markets: tuple[tuple[int, ...], ...] = ()  # per resource: cubes per column
    stop_owner: tuple[int | None, ...] = ()  # per plot: the owner of the Stop there
    stop_level: tuple[int, ...] = ()  # per plot: EMPTY, STATION, HUB or PRIME_HUB
    rail_owners: tuple[tuple[int, ...], ...] = ()  # per rail space: owners of the Rails on it
    block_tile: tuple[int | None, ...] = ()  # per block: the Development tile placed there
    tile_at: tuple[TilePlace, ...] = ()  # per tile: where it is
    tile_token: tuple[int | None, ...] = ()  # per tile: the Demand token on it
    tile_lobbyists: tuple[tuple[int, ...], ...] = ()  # per tile: owners of the Lobbyists on it
    projects: tuple[int, ...] = ()  # Project indices in play
    project_rows: tuple[tuple[tuple[int, int], ...], ...] = ()  # per project in play: (owner, Lobbyists) rows
    upgrade_supply: tuple[int, ...] = ()  # per Advanced Upgrade: copies left
    deck: tuple[str, ...] = ()  # the Agenda deck, top first
    public_agendas: tuple[str, ...] = ()  # Agendas shown to everyone (the turn-order reveal)
    final: tuple[ScoreLine, ...] = ()
    rules: Rules = CURRENT  # the match's edition's switches (domain/editions.py puts them in at set-up)


def replace_player(state: State, seat: int, player: Player) -> State:
    """The state with one player's record (Rules, Player Board Set Up) replaced."""
    players = list(state.players)
    players[seat] = player
    return msgspec.structs.replace(state, players=tuple(players))


def trade(state: State, seat: int, coins: int, take: Cubes, give: Cubes, rails: int) -> State:
    """Rules, Collecting and spending resources: coins added (negative: paid), cubes taken from and given back to the
    markets, Rails from reserve to storage."""
    markets = list(state.markets)
    stored = list(state.players[seat].res)
    for resource in range(len(stored)):
        if take[resource]:
            markets[resource] = take_cubes(markets[resource], take[resource])
            stored[resource] += take[resource]
        if give[resource]:
            markets[resource] = give_cubes(markets[resource], capacities(resource, state.seats), give[resource])
            stored[resource] -= give[resource]
    player = state.players[seat]
    player = replace(
        player, coins=player.coins + coins, res=(stored[0], stored[1], stored[2], stored[3]),
        rails_reserve=player.rails_reserve - rails, rails_storage=player.rails_storage + rails,
    )
    return replace_player(replace(state, markets=tuple(markets)), seat, player)
