"""End-game scoring in the five categories (Rules, End-Game Scoring) and the tie-break key.

Stops adjacent to Developments (Station 1, Hub next to one 2, next to two or more 3), lobbied Projects (rightmost
met tier among those a row's Lobbyists reach, reading 18), Agendas (bottom row with a Lobbyist, else top row;
reading 19), the Demand track, and 1 per 4 coins. The Prime Hub is a Hub in every one of them (readings 17, 32).
Ties: fewest Stations left on the player board, then most coins, then shared.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.games.terminus.cards import DATA, PROJECTS, TILES, TYPES, Agenda
from domain.games.terminus.common import geo, own_stops
from domain.games.terminus.state import ScoreLine, State, line_plots

SC = DATA.scoring


class Facts:
    """What one player's scoring needs, computed once."""

    def __init__(self, state: State, seat: int) -> None:
        g = geo(state)
        self.state, self.seat, self.g = state, seat, g
        self.stops = own_stops(state, seat)
        self.adjacent: dict[int, list[int]] = {
            pi: [state.block_tile[b] for b in g.plot_blocks[pi] if state.block_tile[b] >= 0] for pi in self.stops
        }
        self.hubs = [pi for pi in self.stops if state.stop_level[pi] >= 2]  # Prime Hub (3) included

    def in_district(self, district: str) -> list[int]:
        d = self.g.district_index[district]
        return [pi for pi in self.stops if self.g.plot_district[pi] == d]

    def hubs_in(self, district: str) -> int:
        """Hubs in `district`, the Prime Hub included: 'a Hub is limited to either 2 stacked Station discs, or
        the standalone Prime Hub' (Rules, Building a Hub; reading 32)."""
        return sum(1 for pi in self.in_district(district) if self.state.stop_level[pi] >= 2)


def adjacency_points(state: State, f: Facts) -> int:
    total = 0
    for pi, tiles in f.adjacent.items():
        if not tiles:
            continue
        if state.stop_level[pi] >= 2:
            total += SC.hub_two_developments if len(tiles) >= 2 else SC.hub_one_development
        else:
            total += SC.station_adjacent
    return total


def agenda_met(agenda: Agenda, need: tuple[int, ...], f: Facts) -> bool:
    d = agenda.districts
    if agenda.kind == "stops":
        return len(f.in_district(d[0])) >= need[0]
    if agenda.kind == "hubs":
        return f.hubs_in(d[0]) >= need[0]
    if agenda.kind == "stops_each":
        return all(len(f.in_district(x)) >= need[0] for x in d)
    if agenda.kind == "stops_adjacent":
        return sum(1 for pi in f.in_district(d[0]) if f.adjacent[pi]) >= need[0]
    if agenda.kind == "stops_plus_hubs":
        return len(f.in_district(d[0])) >= need[0] and f.hubs_in(d[1]) >= need[1]
    raise ValueError(f"unknown Agenda kind {agenda.kind!r}")


def agenda_points(agenda: Agenda, lobbied: bool, f: Facts) -> int:
    """Bottom row with a Lobbyist if met, else the top row if met (not cumulative)."""
    if lobbied and agenda_met(agenda, agenda.bottom, f):
        return agenda.bottom_prestige
    if agenda_met(agenda, agenda.top, f):
        return agenda.top_prestige
    return 0


def agendas_of(state: State, seat: int) -> list[tuple[str, bool]]:
    """(Agenda id, has a Lobbyist) for the secret Agenda (slot 0) and the face-up ones (slots 1..)."""
    p = state.players[seat]
    slots = ([(0, p.secret)] if p.secret else []) + [(i + 1, a) for i, a in enumerate(p.agendas)]
    return [(agenda, slot in p.agenda_lobbyists) for slot, agenda in slots]


def agenda_total(state: State, f: Facts) -> tuple[int, int]:
    """(prestige from Agendas, number of Agendas scoring)."""
    points = [agenda_points(f.g.agendas[a], lobbied, f) for a, lobbied in agendas_of(state, f.seat)]
    return sum(points), sum(1 for p in points if p)


def adjacent_run(state: State, f: Facts) -> int:
    """Longest run of consecutive own Stops along the line, each adjacent to a Development."""
    best = run = 0
    for pi in line_plots(state.players[f.seat]):
        run = run + 1 if state.stop_owner[pi] == f.seat and f.adjacent[pi] else 0
        best = max(best, run)
    return best


def _typed(f: Facts, kind: str) -> int:
    return sum(1 for tiles in f.adjacent.values() if any(TILES[t].type == kind for t in tiles))


METRICS: dict[str, Callable[[State, Facts], int]] = {
    "districts_with_stops": lambda s, f: len({f.g.plot_district[pi] for pi in f.stops}),
    "hubs": lambda s, f: len(f.hubs),
    "connections": lambda s, f: len(s.players[f.seat].connected),
    "rails_placed": lambda s, f: s.players[f.seat].rails_placed,
    "adjacent_run": adjacent_run,
    "stops_adjacent_commercial": lambda s, f: _typed(f, "commercial"),
    "stops_adjacent_industrial": lambda s, f: _typed(f, "industrial"),
    "stops_adjacent_residential": lambda s, f: _typed(f, "residential"),
    "stops": lambda s, f: len(f.stops),
    "demands": lambda s, f: len(s.players[f.seat].demands),
    "max_stops_in_district": lambda s, f: max(
        (sum(1 for pi in f.stops if f.g.plot_district[pi] == d) for d in range(len(f.g.board.districts))), default=0
    ),
    "developments_adjacent": lambda s, f: len({t for tiles in f.adjacent.values() for t in tiles}),
    "hubs_adjacent": lambda s, f: sum(1 for pi in f.hubs if f.adjacent[pi]),
    "min_stops_per_type": lambda s, f: min(
        sum(1 for pi in f.stops if f.g.district_type[f.g.plot_district[pi]] == kind) for kind in TYPES
    ),
    "lobbyists_on_developments": lambda s, f: sum(1 for owners in s.tile_lobbyists if f.seat in owners),
    "agendas_scored": lambda s, f: agenda_total(s, f)[1],
    "edge_stops": lambda s, f: sum(1 for pi in f.stops if f.g.plots[pi].edge),
    "stops_adjacent_two": lambda s, f: sum(1 for tiles in f.adjacent.values() if len(tiles) >= 2),
}


def project_points(state: State, f: Facts) -> int:
    """Each lobbied Project: the best tier met among those its row reaches (2, 3, 4 Lobbyists: tiers 1-3)."""
    total = 0
    for index, rows in zip(state.projects, state.project_rows, strict=True):
        mine = [count for owner, count in rows if owner == f.seat]
        if not mine:
            continue
        project = PROJECTS[index]
        value = METRICS[project.metric](state, f)
        reach = mine[0] - 1  # tiers reachable: 2 Lobbyists -> 1 tier, 4 -> 3 tiers
        met = [project.prestige[t] for t in range(min(reach, 3)) if value >= project.thresholds[t]]
        total += max(met, default=0)
    return total


def demand_points(state: State, seat: int) -> int:
    n = len(state.players[seat].demands)
    return DATA.player_board.demand_track[n - 1] if n else 0


def score_line(state: State, seat: int) -> ScoreLine:
    """One player's prestige by category."""
    f = Facts(state, seat)
    p = state.players[seat]
    parts = (
        adjacency_points(state, f), project_points(state, f), agenda_total(state, f)[0], demand_points(state, seat),
        p.coins // SC.coins_per_prestige,
    )
    return ScoreLine(
        player=seat, adjacency=parts[0], projects=parts[1], agendas=parts[2], demands=parts[3], coins=parts[4],
        total=sum(parts), stations_left=DATA.player_board.station_discs - p.discs_used, coins_left=p.coins,
        secret=p.secret,
    )


def tie_key(line: ScoreLine) -> tuple[int, int, int]:
    """Higher is better: prestige, then fewest Stations left on the board, then most coins."""
    return line.total, -line.stations_left, line.coins_left
