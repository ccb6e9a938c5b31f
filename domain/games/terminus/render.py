"""A compact plain-text picture of the table (golden files, replay CLI)."""

from __future__ import annotations

from domain.games.terminus.cards import PROJECTS, TILES, ZONES
from domain.games.terminus.common import geo
from domain.games.terminus.state import State

LEVEL = {1: " {} ", 2: "[{}]", 3: "<{}>"}


def _owner(state: State, owner: int) -> str:
    return "a" if owner == state.seats else str(owner)


def _rail(state: State, rail: int | None, line: str) -> str:
    """A rail space, 3 wide: blank when empty, '-3-' or '|3 ' with one owner, '3=4' or '3|4' with two."""
    if rail is None or not state.rail_owners[rail]:
        return "   "
    owners = [_owner(state, o) for o in state.rail_owners[rail]]
    if len(owners) == 2:
        return owners[0] + ("=" if line == "-" else "|") + owners[1]
    return f"-{owners[0]}-" if line == "-" else f"|{owners[0]} "


def _grid(state: State) -> list[str]:
    """Plots (' . ' empty, ' 3 ' Station, '[3]' Hub, '<3>' Prime Hub; 'a' the Automa), Rails, block contents
    ('#10' a Development, '\\3 ' Rails on a diagonal)."""
    g = geo(state)
    at = {(p.x, p.y): i for i, p in enumerate(g.plots)}
    width, height = 1 + max(p.x for p in g.plots), 1 + max(p.y for p in g.plots)
    lines = []
    for y in range(height):
        row, below = "", ""
        for x in range(width):
            pi = at[(x, y)]
            owner = state.stop_owner[pi]
            row += LEVEL[state.stop_level[pi]].format(_owner(state, owner)) if owner >= 0 else " . "
            row += _rail(state, g.rail_between.get((pi, at.get((x + 1, y), -1))), "-")
            below += _rail(state, g.rail_between.get((pi, at.get((x, y + 1), -1))), "|")
            blocks = [b for b in g.plot_blocks[pi] if g.block_corners[b][0] == pi]
            tile = state.block_tile[blocks[0]] if blocks else -1
            diagonal = [r for r in g.block_rails[blocks[0]] if state.rail_owners[r]] if blocks else []
            if tile >= 0:
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
    display = [TILES[i].id for i, at in enumerate(state.tile_at) if at == -1]
    out.append(f"display {' '.join(display) or '-'}  deck {len(state.deck)}")
    projects = []
    for index, rows in zip(state.projects, state.project_rows, strict=True):
        projects.append(PROJECTS[index].id + "[" + ",".join(f"{o}:{n}" for o, n in rows) + "]")
    out.append("projects " + " ".join(projects))
    if state.automa is not None:
        a = state.automa
        out.append(
            f"automa {a.card}{a.side} zone {ZONES[a.zone]} arrow {a.arrow} stations {a.stations} rails {a.rails}"
        )
    out += _grid(state)
    for seat, p in enumerate(state.players):
        zone = ZONES[p.zone] if p.zone >= 0 else "-"
        out.append(
            f"seat {seat}: {p.coins}c P{p.res[0]} B{p.res[1]} W{p.res[2]} C{p.res[3]} rails {p.rails_storage}/"
            f"{p.rails_reserve} cap {p.capacity} discs {p.discs_used} lob {p.lobbyists} agendas "
            f"{int(bool(p.secret)) + len(p.agendas)} demands {len(p.demands)} up {','.join(p.upgrades) or '-'} "
            f"builds {','.join(b[0] for b in p.builds) or '-'} zone {zone} cycle {p.cycle}"
            f"{' passed' if p.passed else ''}"
        )
    for line in state.final:
        out.append(
            f"score seat {line.player}: {line.total} (adj {line.adjacency} proj {line.projects} agenda {line.agendas} "
            f"demand {line.demands} coins {line.coins}) stations left {line.stations_left}"
        )
    return "\n".join(out) + "\n"
