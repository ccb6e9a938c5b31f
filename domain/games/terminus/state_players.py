"""Each seat's player board and pieces, and the 2-player Automa (Rules, Player Board Set Up; 2-Player Game).

Plots are stored by their index in the board file; owners are seat numbers, and the Automa is owner `seats`.
"""

from __future__ import annotations

import msgspec

from domain.games.terminus.components import DATA, UPGRADE_KIND

EMPTY, STATION, HUB, PRIME_HUB = range(4)  # what stands on a plot (a Hub: 2 stacked discs; the Prime Hub is one too)
STORAGE_UPGRADE = UPGRADE_KIND.get("storage")
STORAGE_LIMIT = DATA.player_board.storage_limit


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
    secret: str | None = None  # the face-down starting Agenda, once kept
    agendas: tuple[str, ...] = ()  # Agendas kept face up later
    agenda_lobbyists: tuple[int, ...] = ()  # agenda slots (0 = secret, i = agendas[i-1]) holding a Lobbyist
    demands: tuple[str, ...] = ()
    zone: int | None = None  # the Player Marker's Zone; None while it stands on the Turn Order card
    cycle: int = 1
    passed: bool = False
    prime: int | None = None  # plot of the Prime Hub, once placed
    branch_a: tuple[int, ...] = ()  # plots of the line beyond the Prime Hub, in building order (first Terminus)
    branch_b: tuple[int, ...] = ()  # the other way (Second Terminus)
    connected: tuple[int, ...] = ()  # plots of other players' Stops connected to
    bonus: int | None = None  # this Year's Bonus Track choice, None before choosing
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


def storage_limit(player: Player) -> int:
    """Rules, Collecting and spending resources: a player may store 8 resources, or the Storage upgrade's amount (A4,
    DEFAULT)."""
    if STORAGE_UPGRADE is not None and STORAGE_UPGRADE.id in player.upgrades:
        return STORAGE_UPGRADE.amount
    return STORAGE_LIMIT


def has_upgrade(player: Player, kind: str) -> bool:
    """Rules, Advanced Upgrades: whether the player owns the Upgrade of this kind."""
    upgrade = UPGRADE_KIND.get(kind)
    return upgrade is not None and upgrade.id in player.upgrades


def agenda_count(player: Player) -> int:
    """Rules, Draw Agendas: the Agendas held, the secret one and those kept face up (3 at most)."""
    return (1 if player.secret else 0) + len(player.agendas)


def termini(player: Player) -> tuple[int, ...]:
    """Rules, Terminus: the end of the line, and also the Prime Hub end with the Second Terminus upgrade."""
    if player.prime is None:
        return ()
    first = player.branch_a[-1] if player.branch_a else player.prime
    if "second_terminus" in player.builds:
        second = player.branch_b[-1] if player.branch_b else player.prime
        return (first,) if second == first else (first, second)
    return (first,)


def line_plots(player: Player) -> tuple[int, ...]:
    """Rules, How to Build: the player's line end to end, the Prime Hub in the middle, Connection stops included."""
    prime = () if player.prime is None else (player.prime,)
    return (*reversed(player.branch_b), *prime, *player.branch_a)
