"""Checks shared by the actions: each raises a `Refusal` with a stable code, or returns. `legal` keeps the candidate
commands whose check passes (`allowed`), so the two never disagree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.engine import Command, Refusal
from domain.games.terminus.components import RESOURCES, TILE_INDEX, TILES
from domain.games.terminus.rules_table import tile_usable, zone_offers
from domain.games.terminus.state import State
from domain.games.terminus.state_markets import NOTHING, Cubes
from domain.games.terminus.state_players import Player

Check = Callable[[State, int, Any], None]
SHORT = ("not-enough-permits", "not-enough-blueprints", "not-enough-power", "not-enough-construction")


def allowed(check: Check, state: State, seat: int, command: Command) -> bool:
    """Whether `check` (a rule above) lets `seat` send `command` now."""
    try:
        check(state, seat, command)
    except Refusal:
        return False
    return True


def check_via(state: State, seat: int, via: str, action: str, kind: str) -> None:
    """Rules, Taking a Turn and Developments: the action is taken from the Zone (via '') or from Development `via`,
    which needs a Lobbyist of the seat on it, in the City, and the seat's marker in its Zone."""
    if not via:
        if not zone_offers(state, seat, action):
            raise Refusal("wrong-zone", f"your Player Marker is not in a Zone offering {action.replace('_', ' ')}")
        return
    tile = TILE_INDEX.get(via)
    if tile is None:
        raise Refusal("unknown-tile", f"there is no Development {via!r}")
    if TILES[tile].kind != kind:
        raise Refusal("wrong-development", f"Development {via} does not offer this action")
    if not tile_usable(state, seat, tile):
        raise Refusal("development-not-usable", f"you need a Lobbyist on {via} in the City and your marker in its Zone")


def afford(player: Player, coins: int = 0, res: Cubes = NOTHING) -> None:
    """Rules, Collecting and spending resources: the player holds these coins and resources."""
    if player.coins < coins:
        raise Refusal("not-enough-coins", f"this costs {coins} coins; you have {player.coins}")
    for resource, need in enumerate(res):
        if player.res[resource] < need:
            raise Refusal(SHORT[resource], f"this costs {need} {RESOURCES[resource]}; you have {player.res[resource]}")
