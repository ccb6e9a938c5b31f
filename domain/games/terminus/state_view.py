"""The shape of the Terminus table as a seat sees it (`visibility.view`): typed, so clients generated from the
OpenAPI document know it. It is the state's shape with the view's spellings: -1 (and -2 for a tile out of the game)
for "none", the Agenda deck as a count, and another seat's hand, secret and Bonus choice as what may be known of
them (a count, whether it exists)."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.terminus.events import ScoreLine
from domain.games.terminus.state_players import Automa
from domain.games.terminus.state_table import Phase, State, Turn


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    """A player's board as the viewer sees it (Player without what the seat saw privately)."""

    coins: int
    res: tuple[int, int, int, int]
    rails_reserve: int
    rails_storage: int
    rails_placed: int
    discs_used: int
    capacity: int
    builds: tuple[str, ...]
    upgrades: tuple[str, ...]
    lobbyists: int
    secret: str | bool  # the viewer's own (or, after the end, anyone's) secret Agenda ("": none); others': kept?
    agendas: tuple[str, ...]
    agenda_lobbyists: tuple[int, ...]
    demands: tuple[str, ...]
    zone: int  # -1: on the Turn Order card
    cycle: int
    passed: bool
    prime: int  # -1: not placed yet
    branch_a: tuple[int, ...]
    branch_b: tuple[int, ...]
    connected: tuple[int, ...]
    bonus: int | bool  # the viewer's own choice (-1: none yet); others' while choosing: whether they chose
    hand: tuple[str, ...] | int  # the viewer's own Agendas in hand; others': how many


class TerminusView(msgspec.Struct, frozen=True, kw_only=True):
    """The table as a seat (or a spectator) sees it."""

    board: str
    seats: int
    first_game: bool
    players: tuple[PlayerView, ...]
    automa: Automa | None
    year: int
    phase: Phase
    step: str  # "": not in the Action Loop
    current: int  # -1: nobody
    order: tuple[int, ...]
    passed_order: tuple[int, ...]
    turn: Turn
    income: tuple[tuple[Literal["bonus", "budget", "reward"], int], ...]
    markets: tuple[tuple[int, ...], ...]
    stop_owner: tuple[int, ...]
    stop_level: tuple[int, ...]
    rail_owners: tuple[tuple[int, ...], ...]
    block_tile: tuple[int, ...]
    tile_at: tuple[int, ...]  # -1: on the display, -2: unused
    tile_token: tuple[int, ...]
    tile_lobbyists: tuple[tuple[int, ...], ...]
    projects: tuple[int, ...]
    project_rows: tuple[tuple[tuple[int, int], ...], ...]
    upgrade_supply: tuple[int, ...]
    deck: int  # Agendas left in the deck
    public_agendas: tuple[str, ...]
    final: tuple[ScoreLine, ...]


# Every part of the state but the edition's switches (the match names its edition: `rules_version`).
assert set(TerminusView.__struct_fields__) == set(State.__struct_fields__) - {"rules"}, "the view shows the state"
