"""A compact plain-text picture of the table (golden files, replay CLI)."""

from __future__ import annotations

from domain.games.terminus.components import PROJECTS, TILES, ZONES
from domain.games.terminus.rules_table import board_of
from domain.games.terminus.state import State
from domain.games.terminus.state_players import HUB, PRIME_HUB, STATION

LEVEL = {STATION: " {} ", HUB: "[{}]", PRIME_HUB: "<{}>"}


def _owner(state: State, owner: int) -> str:
    return "a" if owner == state.seats else str(owner)


def _rail(state: State, rail: int | None, line: str) -> str:
    """A rail space, 3 wide: blank when empty, '-3-' or '|3 ' with one owner, '3=4' or '3|4' with two."""
    if rail is None or not state.rail_owners[rail]:
        return "   "
    owners = [_owner(state, owner) for owner in state.rail_owners[rail]]
    if len(owners) == 2:
        return owners[0] + ("=" if line == "-" else "|") + owners[1]
    return f"-{owners[0]}-" if line == "-" else f"|{owners[0]} "


def _grid(state: State) -> list[str]:
    """Plots (' . ' empty, ' 3 ' Station, '[3]' Hub, '<3>' Prime Hub; 'a' the Automa), Rails, block contents
    ('#10' a Development, '\\3 ' Rails on a diagonal)."""
    city = board_of(state)
    at = {(plot.x, plot.y): index for index, plot in enumerate(city.plots)}
    width, height = 1 + max(plot.x for plot in city.plots), 1 + max(plot.y for plot in city.plots)
    lines = []
    for y in range(height):
        row, below = "", ""
        for x in range(width):
            plot = at[(x, y)]
            owner = state.stop_owner[plot]
            row += LEVEL[state.stop_level[plot]].format(_owner(state, owner)) if owner is not None else " . "
            row += _rail(state, city.rail_between.get((plot, at.get((x + 1, y), -1))), "-")
            below += _rail(state, city.rail_between.get((plot, at.get((x, y + 1), -1))), "|")
            blocks = [block for block in city.plot_blocks[plot] if city.block_corners[block][0] == plot]
            tile = state.block_tile[blocks[0]] if blocks else None
            diagonal = [rail for rail in city.block_rails[blocks[0]] if state.rail_owners[rail]] if blocks else []
            if tile is not None:
                below += f"#{TILES[tile].number:02d}"
            elif diagonal:
                below += "\\" + _owner(state, state.rail_owners[diagonal[0]][0]) + " "
            else:
                below += "   "
        lines.append(row.rstrip())
        if y < height - 1:
            lines.append(below.rstrip())
    return lines


def render(state: State) -> str:
    """Year, phase, markets, Projects, the City and each player's board."""
    head = f"Terminus  year {state.year}  phase {state.phase}"
    if state.phase == "loop":
        head += f"  step {state.step}  to move: seat {state.current}"
    out = [head, f"order {list(state.order)}  passed {list(state.passed_order)}"]
    markets = zip(("P", "B", "W", "C"), state.markets, strict=True)
    out.append("markets " + "  ".join(f"{name}{list(m)}" for name, m in markets))
    display = [TILES[tile].id for tile, place in enumerate(state.tile_at) if place == "display"]
    out.append(f"display {' '.join(display) or '-'}  deck {len(state.deck)}")
    projects = []
    for index, rows in zip(state.projects, state.project_rows, strict=True):
        projects.append(PROJECTS[index].id + "[" + ",".join(f"{o}:{n}" for o, n in rows) + "]")
    out.append("projects " + " ".join(projects))
    if state.automa is not None:
        automa = state.automa
        out.append(f"automa {automa.card}{automa.side} zone {ZONES[automa.zone]} arrow {automa.arrow} "
                   f"stations {automa.stations} rails {automa.rails}")
    out += _grid(state)
    for seat, player in enumerate(state.players):
        zone = ZONES[player.zone] if player.zone is not None else "-"
        permits, blueprints, power, construction = player.res
        out.append(
            f"seat {seat}: {player.coins}c P{permits} B{blueprints} W{power} C{construction} rails "
            f"{player.rails_storage}/{player.rails_reserve} cap {player.capacity} discs {player.discs_used} "
            f"lob {player.lobbyists} agendas {int(bool(player.secret)) + len(player.agendas)} demands "
            f"{len(player.demands)} up {','.join(player.upgrades) or '-'} "
            f"builds {','.join(build[0] for build in player.builds) or '-'} zone {zone} cycle {player.cycle}"
            f"{' passed' if player.passed else ''}"
        )
    for line in state.final:
        out.append(
            f"score seat {line.player}: {line.total} (adj {line.adjacency} proj {line.projects} agenda {line.agendas} "
            f"demand {line.demands} coins {line.coins}) stations left {line.stations_left}"
        )
    return "\n".join(out) + "\n"
