"""End-game scoring in all five categories and the tie-breaks (Rules, End-Game Scoring / Scoring Guide; readings
17-19, 32)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.terminus import GAME
from domain.games.terminus.events import ScoreLine
from domain.games.terminus.scoring import Facts, adjacency_points, agenda_total, project_points, score_line
from tests.games.terminus.tables import development, line, player, plot, stop, table, with_project


def adjacency_table():
    """Seat 0: Prime Hub P11 next to Developments in B00 and B01; Station P21 and Hub P31 next to one (B20);
    Station P41 next to one (B40); Station P42 next to none."""
    state = line(table(3), 1, "P64", [])
    state = line(state, 0, "P11", ["P21", "P31", "P41", "P42"])
    state = stop(state, 0, "P31", 2)
    for tile, block in (("DT05", "B00"), ("DT08", "B01"), ("DT01", "B20"), ("DT04", "B40")):
        state = development(state, tile, block)
    return state


def test_stops_adjacent_to_developments() -> None:
    """Worked example 11 / Scoring Guide: a Station next to a Development scores 1, a Hub next to one 2, a Hub
    next to two or more 3 (the Prime Hub is a Hub, reading 17); a Stop next to none scores nothing."""
    state = adjacency_table()
    assert adjacency_points(Facts(state, 0)) == 3 + 1 + 2 + 1 + 0


def run_table(stops: int, lobbyists: int):
    """A line of `stops` own Stops along row 1 (and on to P62), each next to a Development."""
    state = line(table(3), 1, "P64", [])
    names = ["P11", "P21", "P31", "P41", "P51", "P61", "P62"][: stops - 1]
    state = line(state, 0, "P01", names)
    for tile, block in (("DT05", "B00"), ("DT08", "B20"), ("DT01", "B40"), ("DT04", "B50"), ("DT02", "B51")):
        state = development(state, tile, block)
    return with_project(state, "PJ05", ((0, lobbyists),))


def test_projects_score_the_best_tier_reached_by_the_lobbyists() -> None:
    """Worked example 11 (Public Projects): Orange built 8 consecutive Stops next to Developments and lobbied up to
    9+ (4 Lobbyists): 15, not cumulative; Red built 7 and lobbied 7 (2 Lobbyists): 8; no row, no points."""
    orange = run_table(8, 4)
    assert project_points(Facts(orange, 0)) == 15
    red = run_table(7, 2)
    assert project_points(Facts(red, 0)) == 8
    short = run_table(8, 2)
    assert project_points(Facts(short, 0)) == 8
    assert project_points(Facts(orange, 2)) == 0


def test_a_foreign_stop_breaks_a_run() -> None:
    """Project 5 counts consecutive own Stops: a Connection stop on the line breaks the run (DEFAULT reading)."""
    state = run_table(8, 4)
    state = stop(state, 2, "P31", 1)
    assert project_points(Facts(state, 0)) == 0


def agenda_table():
    """Orange (seat 0): Stops P00 (Prime Hub), P10 and P11 (Hubs) in Tarragon Hills, P21 and P31 in Knightsbridge.
    Agendas: AG01 (stops in TH, lobbied), AG06 (stops in K, lobbied), AG02 (hubs in TH, not lobbied)."""
    state = line(table(3), 0, "P00", ["P10", "P11", "P21", "P31"])
    state = stop(stop(state, 0, "P10", 2), 0, "P11", 2)
    return player(state, 0, secret="AG01", agendas=("AG06", "AG02"), agenda_lobbyists=(0, 1))


def test_agendas_top_and_bottom_rows() -> None:
    """Worked example 11 (Personal Agendas): 6 (lobbied, bottom row met) + 3 (lobbied, only the top row met) + 4
    (bottom row met but no Lobbyist: top row only) = 13."""
    state = agenda_table()
    assert agenda_total(Facts(state, 0)) == (13, 3)


def test_the_prime_hub_is_a_hub_for_agendas_too() -> None:
    """Rules, Key Terms: 'Prime Hub is the first Hub placed by a player during setup'; Building a Hub: 'a Hub is
    limited to either 2 stacked Station discs, or the standalone Prime Hub'. Reading 32: it counts wherever a Hub
    is counted, Agendas included. AG02 (DEFAULT: Hubs in Tarragon Hills, top row 1 -> 4, bottom row 2 -> 8)."""
    state = line(table(3), 0, "P00", ["P10"])  # Prime Hub P00 and a Station P10, both in Tarragon Hills
    state = player(state, 0, secret="AG02")
    assert agenda_total(Facts(state, 0)) == (4, 1)
    lobbied = player(stop(state, 0, "P10", 2), 0, agenda_lobbyists=(0,))  # + a stacked Hub, and a Lobbyist
    assert agenda_total(Facts(lobbied, 0)) == (8, 1)
    elsewhere = line(table(3), 0, "P21", ["P11"])  # a Prime Hub in Knightsbridge does not count for TH
    elsewhere = player(elsewhere, 0, secret="AG02")
    assert agenda_total(Facts(elsewhere, 0)) == (0, 0)


def test_the_prime_hub_counts_in_a_stops_plus_hubs_agenda() -> None:
    """Reading 32 for the two-District Agendas ('stops in TH + hubs in P4', AG05 DEFAULT: top 1+0 -> 2, bottom
    2+1 -> 6): a Prime Hub in P4 meets the Hub part of the bottom row."""
    state = line(table(3), 0, "P03", ["P02", "P01"])  # Prime Hub P03 in P4; Stations P02, P01 in Tarragon Hills
    state = player(state, 0, secret="AG05", agenda_lobbyists=(0,))
    assert agenda_total(Facts(state, 0)) == (6, 1)


def test_the_prime_hub_is_a_hub_for_projects() -> None:
    """Reading 17: Project 2 counts Hubs, the Prime Hub among them (the engine agrees with itself)."""
    state = line(table(3), 0, "P00", ["P10"])
    state = stop(state, 0, "P10", 2)
    state = with_project(state, "PJ02", ((0, 2),))
    assert project_points(Facts(state, 0)) == 6  # 2 Hubs (Prime Hub + stacked) meet the first tier


def test_demands_and_coins() -> None:
    """Worked example 11: 4 Demands score 17 (value above the rightmost token); 9 coins score 2 (1 per 4)."""
    state = player(table(3), 0, demands=("DM-TH-1", "DM-K-1", "DM-CR-1", "DM-P4-1"), coins=9)
    line_ = score_line(state, 0)
    assert (line_.demands, line_.coins) == (17, 2)
    assert score_line(player(state, 0, demands=()), 0).demands == 0


def test_every_category_adds_up() -> None:
    """The score pad sums the five categories."""
    state = player(agenda_table(), 0, demands=("DM-TH-1",), coins=8)
    state = development(state, "DT05", "B00")
    line_ = score_line(state, 0)
    assert line_.total == line_.adjacency + line_.projects + line_.agendas + line_.demands + line_.coins
    assert line_.adjacency == 2 + 2 + 2 and line_.agendas == 13 and line_.demands == 2 and line_.coins == 2


def lines(*rows: tuple[int, int, int]) -> tuple[ScoreLine, ...]:
    return tuple(ScoreLine(player=i, adjacency=t, projects=0, agendas=0, demands=0, coins=0, total=t,
                           stations_left=left, coins_left=c) for i, (t, left, c) in enumerate(rows))


def test_tie_breaks() -> None:
    """Worked example 22: a tie goes to the player with fewest Stations left on the board, then the most coins;
    still tied, the victory is shared."""
    state = replace(table(3), phase="over")
    outcome = GAME.outcome(replace(state, final=lines((20, 5, 3), (20, 4, 0), (19, 0, 9))))
    assert outcome is not None
    assert [r.rank for r in outcome.results] == [2, 1, 3]
    outcome = GAME.outcome(replace(state, final=lines((20, 4, 3), (20, 4, 7), (5, 0, 9))))
    assert outcome is not None and [r.rank for r in outcome.results] == [2, 1, 3]
    outcome = GAME.outcome(replace(state, final=lines((20, 4, 3), (20, 4, 3), (5, 0, 9))))
    assert outcome is not None and [r.winner for r in outcome.results] == [True, True, False]


def test_scores_during_play() -> None:
    """`scores` (used when a seat resigns) is the prestige each seat would score now."""
    state = adjacency_table()
    assert GAME.scores(state)[0] == score_line(state, 0).total
    assert plot("P31") in state.players[0].branch_a
