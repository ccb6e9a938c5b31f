"""End-game scoring in the five categories (Rules, End-Game Scoring), the tie-break key, and the outcome.

Stops adjacent to Developments (Station 1, Hub next to one 2, next to two or more 3), lobbied Projects (rightmost
met tier among those a row's Lobbyists reach, reading 18), Agendas (bottom row with a Lobbyist, else top row;
reading 19), the Demand track, and 1 per 4 coins. The Prime Hub is a Hub in every one of them (readings 17, 32).
Ties: fewest Stations left on the player board, then most coins, then shared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.engine import Outcome, ranked_results
from domain.games.terminus.components import DATA, PROJECTS, TILES, TYPES, Agenda
from domain.games.terminus.events import ScoreLine
from domain.games.terminus.rules_table import board_of, own_stops
from domain.games.terminus.state import State
from domain.games.terminus.state_players import HUB, line_plots

PRESTIGE = DATA.scoring


class Facts:
    """What one player's scoring needs, computed once."""

    def __init__(self, state: State, seat: int) -> None:
        city = board_of(state)
        self.state, self.seat, self.city, self.player = state, seat, city, state.players[seat]
        self.stops = own_stops(state, seat)
        self.adjacent: dict[int, list[int]] = {
            plot: [tile for block in city.plot_blocks[plot] if (tile := state.block_tile[block]) is not None]
            for plot in self.stops
        }
        self.hubs = [plot for plot in self.stops if state.stop_level[plot] >= HUB]  # the Prime Hub included

    def in_district(self, district: str) -> list[int]:
        """Rules, Personal Agendas: the player's Stops in `district`."""
        index = self.city.district_index[district]
        return [plot for plot in self.stops if self.city.plot_district[plot] == index]

    def hubs_in(self, district: str) -> int:
        """Hubs in `district`, the Prime Hub included: 'a Hub is limited to either 2 stacked Station discs, or
        the standalone Prime Hub' (Rules, Building a Hub; reading 32). Edition 1 counted stacked Hubs only."""
        if not self.state.rules.prime_hub_in_agendas:
            return sum(1 for plot in self.in_district(district) if self.state.stop_level[plot] == HUB)
        return sum(1 for plot in self.in_district(district) if self.state.stop_level[plot] >= HUB)


def adjacency_points(facts: Facts) -> int:
    """Rules, Stops Adjacent to Developments: a Station next to one scores 1; a Hub 2, or 3 next to two or more."""
    total = 0
    for plot, tiles in facts.adjacent.items():
        if not tiles:
            continue
        if facts.state.stop_level[plot] >= HUB:
            total += PRESTIGE.hub_two_developments if len(tiles) >= 2 else PRESTIGE.hub_one_development
        else:
            total += PRESTIGE.station_adjacent
    return total


def agenda_met(agenda: Agenda, need: tuple[int, ...], facts: Facts) -> bool:
    """Rules, Personal Agendas: whether the player meets a row (`need`) of the Agenda."""
    districts = agenda.districts
    if agenda.kind == "stops":
        return len(facts.in_district(districts[0])) >= need[0]
    if agenda.kind == "hubs":
        return facts.hubs_in(districts[0]) >= need[0]
    if agenda.kind == "stops_each":
        return all(len(facts.in_district(district)) >= need[0] for district in districts)
    if agenda.kind == "stops_adjacent":
        return sum(1 for plot in facts.in_district(districts[0]) if facts.adjacent[plot]) >= need[0]
    if agenda.kind == "stops_plus_hubs":
        return len(facts.in_district(districts[0])) >= need[0] and facts.hubs_in(districts[1]) >= need[1]
    raise ValueError(f"unknown Agenda kind {agenda.kind!r}")


def agenda_points(agenda: Agenda, lobbied: bool, facts: Facts) -> int:
    """Rules, Personal Agendas: the bottom row with a Lobbyist if met, else the top row if met (not cumulative)."""
    if lobbied and agenda_met(agenda, agenda.bottom, facts):
        return agenda.bottom_prestige
    if agenda_met(agenda, agenda.top, facts):
        return agenda.top_prestige
    return 0


def agendas_of(state: State, seat: int) -> list[tuple[str, bool]]:
    """Rules, Personal Agendas: (Agenda id, has a Lobbyist) for the secret one (slot 0) and the face-up ones (1..)."""
    player = state.players[seat]
    face_up = [(slot, agenda) for slot, agenda in enumerate(player.agendas, start=1)]
    slots = ([(0, player.secret)] if player.secret else []) + face_up
    return [(agenda, slot in player.agenda_lobbyists) for slot, agenda in slots]


def agenda_total(facts: Facts) -> tuple[int, int]:
    """Rules, Personal Agendas: (Prestige from Agendas, number of Agendas scoring)."""
    points = [agenda_points(facts.city.agendas[agenda], lobbied, facts)
              for agenda, lobbied in agendas_of(facts.state, facts.seat)]
    return sum(points), sum(1 for scored in points if scored)


def adjacent_run(facts: Facts) -> int:
    """Project 5: the longest run of consecutive own Stops along the line, each adjacent to a Development."""
    best = run = 0
    for plot in line_plots(facts.player):
        run = run + 1 if facts.state.stop_owner[plot] == facts.seat and facts.adjacent[plot] else 0
        best = max(best, run)
    return best


def _next_to(facts: Facts, kind: str) -> int:
    return sum(1 for tiles in facts.adjacent.values() if any(TILES[tile].type == kind for tile in tiles))


def _most_in_a_district(facts: Facts) -> int:
    districts = range(len(facts.city.board.districts))
    return max((sum(1 for plot in facts.stops if facts.city.plot_district[plot] == d) for d in districts), default=0)


def _fewest_of_a_type(facts: Facts) -> int:
    city = facts.city
    return min(sum(1 for plot in facts.stops if city.district_type[city.plot_district[plot]] == kind) for kind in TYPES)


METRICS: dict[str, Callable[[Facts], int]] = {  # what each Project measures (data.toml `metric`)
    "districts_with_stops": lambda facts: len({facts.city.plot_district[plot] for plot in facts.stops}),
    "hubs": lambda facts: len(facts.hubs),
    "connections": lambda facts: len(facts.player.connected),
    "rails_placed": lambda facts: facts.player.rails_placed,
    "adjacent_run": adjacent_run,
    "stops_adjacent_commercial": lambda facts: _next_to(facts, "commercial"),
    "stops_adjacent_industrial": lambda facts: _next_to(facts, "industrial"),
    "stops_adjacent_residential": lambda facts: _next_to(facts, "residential"),
    "stops": lambda facts: len(facts.stops),
    "demands": lambda facts: len(facts.player.demands),
    "max_stops_in_district": _most_in_a_district,
    "developments_adjacent": lambda facts: len({tile for tiles in facts.adjacent.values() for tile in tiles}),
    "hubs_adjacent": lambda facts: sum(1 for plot in facts.hubs if facts.adjacent[plot]),
    "min_stops_per_type": _fewest_of_a_type,
    "lobbyists_on_developments": lambda facts: sum(1 for owners in facts.state.tile_lobbyists if facts.seat in owners),
    "agendas_scored": lambda facts: agenda_total(facts)[1],
    "edge_stops": lambda facts: sum(1 for plot in facts.stops if facts.city.plots[plot].edge),
    "stops_adjacent_two": lambda facts: sum(1 for tiles in facts.adjacent.values() if len(tiles) >= 2),
}


def project_points(facts: Facts) -> int:
    """Rules, Public Projects: each lobbied Project scores the best tier met among those its row reaches (2, 3, 4
    Lobbyists: tiers 1-3; reading 18)."""
    total = 0
    for index, rows in zip(facts.state.projects, facts.state.project_rows, strict=True):
        mine = [count for owner, count in rows if owner == facts.seat]
        if not mine:
            continue
        project = PROJECTS[index]
        value = METRICS[project.metric](facts)
        reach = mine[0] - 1  # tiers reachable: 2 Lobbyists -> 1 tier, 4 -> 3 tiers
        met = [project.prestige[tier] for tier in range(min(reach, 3)) if value >= project.thresholds[tier]]
        total += max(met, default=0)
    return total


def demand_points(state: State, seat: int) -> int:
    """Rules, Demand Track: the Prestige under the last Demand placed."""
    count = len(state.players[seat].demands)
    return DATA.player_board.demand_track[count - 1] if count else 0


def score_line(state: State, seat: int) -> ScoreLine:
    """Rules, End-Game Scoring: one player's Prestige by category."""
    facts = Facts(state, seat)
    player = facts.player
    parts = (
        adjacency_points(facts), project_points(facts), agenda_total(facts)[0], demand_points(state, seat),
        player.coins // PRESTIGE.coins_per_prestige,
    )
    return ScoreLine(
        player=seat, adjacency=parts[0], projects=parts[1], agendas=parts[2], demands=parts[3], coins=parts[4],
        total=sum(parts), stations_left=DATA.player_board.station_discs - player.discs_used, coins_left=player.coins,
        secret=player.secret or "",
    )


def tie_key(line: ScoreLine) -> tuple[int, int, int]:
    """Rules, End-Game Scoring (ties): higher is better: Prestige, then fewest Stations left, then most coins."""
    return line.total, -line.stations_left, line.coins_left


def outcome(state: State) -> Outcome | None:
    """After Year 3: ranked by Prestige, then fewest Stations left on the board, then most coins (else shared).

    With the 2-player Automa, the Automa is ranked with the players as one scoring nothing and losing every
    tie-break (the rulebook gives it no player board, Lobbyists, Agendas, Demands or coins): the human seats'
    ranks among all players are therefore their ranks among themselves, and one human always wins.
    """
    if state.phase != "over":
        return None
    lines = sorted(state.final, key=lambda line: line.player)
    return Outcome(
        reason="scored",
        results=ranked_results([tie_key(line) for line in lines], [line.total for line in lines]),
    )


def scores(state: State) -> Sequence[float]:
    """Rules, End-Game Scoring: the Prestige each seat would score if the game ended now (0 before set-up ends)."""
    if state.phase == "over":
        return [float(line.total) for line in sorted(state.final, key=lambda line: line.player)]
    if not state.players or state.players[0].prime is None:
        return [0.0] * state.seats
    return [float(score_line(state, seat).total) for seat in range(state.seats)]
