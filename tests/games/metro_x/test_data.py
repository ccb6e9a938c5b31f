"""Metro X data: the 15-card Transit deck, both maps (FOUND fan data) and the tables (rules/metro-x.md)."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from domain.games.metro_x import GAME
from domain.games.metro_x.components import BOARDS, CARDS, DATA, DECK, empty_penalty, solo_rating


@pytest.mark.parametrize(
    ("slug", "title", "stations", "windows", "histogram"),
    [
        ("metro-city", "Metro City", 76, 23, {1: 47, 2: 19, 3: 7, 4: 2, 5: 1}),
        ("tube-town", "Tube Town", 78, 23, {1: 55, 2: 20, 3: 3}),
    ],
)
def test_map_counts_match_the_rules_file(
    slug: str, title: str, stations: int, windows: int, histogram: dict[int, int]
) -> None:
    """rules/metro-x.md, Facts found, Maps: 9 routes, the station and window counts and the lines-per-station
    histogram derived from the fan data."""
    board = BOARDS[slug]
    assert board.title == title
    assert len(board.routes) == 9
    assert len(board.stations) == stations
    assert board.windows == windows
    assert dict(Counter(board.lines_at)) == histogram


def test_route_letters() -> None:
    """rules/metro-x.md, Data: Metro City routes A-I, Tube Town routes J-R."""
    assert sorted(r.id for r in BOARDS["metro-city"].routes) == list("ABCDEFGHI")
    assert sorted(r.id for r in BOARDS["tube-town"].routes) == list("JKLMNOPQR")


def test_shared_stations_match_the_rules_file() -> None:
    """rules/metro-x.md, Data, shared_stations: a few of the derived station -> routes entries."""
    board = BOARDS["metro-city"]
    on = {s: sorted(r.id for r, stops in zip(board.routes, board.route_stops, strict=True)
                    if board.station_index[s] in stops) for s in board.stations}
    assert on["6.6"] == ["B", "D", "F", "G", "I"]
    assert on["9.6"] == ["C", "D", "E", "F"]
    assert on["3.7"] == ["A", "F", "G"]
    assert sum(1 for routes in on.values() if len(routes) > 1) == 29
    town = BOARDS["tube-town"]
    assert town.lines_at[town.station_index["5.5"]] == 3
    assert sum(1 for n in town.lines_at if n > 1) == 23


def test_seed_cross_checks() -> None:
    """rules/metro-x.md, cross-checks: B starts on the first stations of A; 3.7 ends A and starts F and G (3 lines);
    6.6 is on five lines (Transfer value 10)."""
    board = BOARDS["metro-city"]
    a, b = (board.routes[board.route_index[r]].stations for r in "AB")
    assert a[:6] == b[:6]
    assert board.transfer_value(board.station_index["3.7"]) == 6
    assert board.transfer_value(board.station_index["6.6"]) == 10


def test_route_bonuses_and_windows() -> None:
    """rules/metro-x.md, Data: each route's window count and [gold diamond, white square] pair (two samples)."""
    c = BOARDS["metro-city"].routes[BOARDS["metro-city"].route_index["C"]]
    r = BOARDS["tube-town"].routes[BOARDS["tube-town"].route_index["R"]]
    assert (c.windows, c.gold, c.white, len(c.stations)) == (3, 7, 5, 14)
    assert (r.windows, r.gold, r.white, len(r.stations)) == (4, 7, 5, 19)


def test_the_transit_deck() -> None:
    """Rules, Card Types: Number (9x, including the Re-Shuffle 6), Skip (3x), Transfer (2x), Free Space (1x);
    values from rules/metro-x.md (readings 2)."""
    assert len(DECK) == 15 == len(set(DECK))
    kinds = Counter(card.kind for card in CARDS.values())
    assert kinds == {"number": 9, "skip": 3, "transfer": 2, "free": 1}
    assert sorted(c.value for c in CARDS.values() if c.kind == "number") == [3, 3, 3, 4, 4, 4, 5, 5, 6]
    assert sorted(c.value for c in CARDS.values() if c.kind == "skip") == [2, 2, 3]
    assert [c.id for c in CARDS.values() if c.reshuffle] == ["RS6"]
    assert CARDS["RS6"].value == 6 and CARDS["RS6"].kind == "number"


@pytest.mark.parametrize(
    ("empty", "penalty"),
    [(0, 0), (4, 0), (5, 1), (6, 2), (7, 3), (8, 4), (9, 4), (10, 5), (11, 5), (12, 6), (13, 6), (14, 7),
     (15, 7), (16, 8), (17, 8), (18, 9), (19, 9), (20, 10), (78, 10)],
)
def test_empty_stations_penalty_table(empty: int, penalty: int) -> None:
    """rules/metro-x.md, Empty-stations penalty table (FOUND fan data)."""
    assert empty_penalty(empty) == penalty


@pytest.mark.parametrize(
    ("score", "title"),
    [(-10, "Missed the train"), (24, "Missed the train"), (25, "Commuter"), (34, "Commuter"),
     (35, "Conductor"), (44, "Conductor"), (45, "Station master"), (54, "Station master"),
     (55, "Transit legend"), (200, "Transit legend")],
)
def test_default_solo_rating_table(score: int, title: str) -> None:
    """rules/metro-x.md, solo_rating (DEFAULT): every score, negative ones included, has a rating."""
    assert solo_rating(score) == title


def test_every_default_part_of_the_data_is_listed_in_the_catalog() -> None:
    """Each part of the data file marked DEFAULT (invented, not from the rulebook) is named in the game record's
    `default_data`, which the catalog shows; the others are marked as found data."""
    statuses = {name.removesuffix("_status"): value for name, value in msgspec.structs.asdict(DATA).items()
                if name.endswith("_status")}
    assert set(statuses.values()) <= {"DEFAULT", "FOUND_FAN_DATA"} and "DEFAULT" in statuses.values()
    for part, status in statuses.items():
        assert (status == "DEFAULT") == any(entry.startswith(part) for entry in GAME.default_data), part
