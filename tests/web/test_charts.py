"""Statistics as pictures: each chart draws the folded numbers and says the position they are computed up to."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.web import charts
from domain.catalog import by_slug
from service.matches.simulate import play_random_match
from service.reads.runner import catch_up
from store.factory import open_store
from tests.web.tables import all_with, parse, values


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    """An app over a SQLite store with six folded matches: four of Expect Delays, two of Mass Transit."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('charts') / 'charts.db'}")
    with TestClient(create_app(store)) as test_client:
        service, rng = test_client.app.state.service, random.Random(7)
        game = by_slug("expect-delays")
        assert game is not None
        for n in range(4):
            play_random_match(service, game, [["ada", "bob"], ["bob", "ada"]][n % 2], rng, {"max_turns": 12})
        coop = by_slug("mass-transit")
        assert coop is not None
        for _ in range(2):
            play_random_match(service, coop, ["ada", "bob"], rng)
        catch_up(store)
        yield test_client
    store.close()


def chart(client: TestClient[Any], path: str) -> Any:
    """A chart, parsed; it names its position."""
    answer = client.get(path)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    root = parse(answer.text)
    assert int(root.attrib["data-position"]) > 0 and "computed up to log position" in answer.text
    return root


def test_win_rate_by_seat_is_the_apis(client: TestClient[Any]) -> None:
    """Bars per seat, as high as the win rates /v1/games/{game}/stats says."""
    stats = client.get("/v1/games/expect-delays/stats").json()
    root = chart(client, "/web/games/expect-delays/charts/win-rate.svg")
    drawn = {n.attrib["data-label"]: float(n.attrib["data-value"]) for n in all_with(root, "data-value")}
    assert drawn == {f"seat {seat}": pytest.approx(rate) for seat, rate in stats["win_rate_by_seat"].items()}
    assert int(root.attrib["data-position"]) == stats["position"]


def test_match_lengths_are_counted_in_even_bins(client: TestClient[Any]) -> None:
    """The length chart bins the lengths into at most 8 ranges of one round width, from the shortest match to the
    longest, each bar as many matches as fell in it."""
    summaries = client.get("/v1/matches", params={"game": "expect-delays"}).json()["items"]
    assert len(summaries) == 4
    root = chart(client, "/web/games/expect-delays/charts/lengths.svg")
    labels = values(root, "data-label")
    drawn = [int(float(v)) for v in values(root, "data-value")]
    assert sum(drawn) == 4 and 1 <= len(labels) <= 8
    ranges = [tuple(map(int, label.split("–"))) if "–" in label else (int(label), int(label)) for label in labels]
    assert len({high - low for low, high in ranges}) == 1  # one width
    assert all(b[0] == a[1] + 1 for a, b in zip(ranges, ranges[1:], strict=False))  # contiguous
    stats = client.get("/v1/games/expect-delays/stats").json()
    assert ranges[0][0] <= stats["moves_min"] <= ranges[0][1] and ranges[-1][0] <= stats["moves_max"] <= ranges[-1][1]


def test_binning_keeps_every_count_and_a_round_width() -> None:
    """Lengths 3..97 in bins of 20 (no more than 8 bins), every match counted once."""
    counts = {3: 1, 17: 2, 40: 1, 97: 4}
    bins = charts.binned(counts)
    assert [label for label, *_ in bins] == ["0–19", "20–39", "40–59", "60–79", "80–99"]
    assert [n for *_, n in bins] == [3, 0, 1, 0, 4]
    assert charts.binned({5: 2, 6: 1}) == [("5", 5, 5, 2), ("6", 6, 6, 1)]


def test_the_cooperative_win_rate_of_mass_transit(client: TestClient[Any]) -> None:
    """Won and lost shares of the cooperative matches, matching the API's cooperative win rate."""
    stats = client.get("/v1/games/mass-transit/stats").json()
    root = chart(client, "/web/games/mass-transit/charts/cooperative.svg")
    drawn = dict(zip(values(root, "data-label"), map(float, values(root, "data-value")), strict=True))
    assert drawn == {"won": pytest.approx(stats["cooperative_win_rate"]),
                     "lost": pytest.approx(1 - stats["cooperative_win_rate"])}


def test_a_players_rating_history_has_a_point_per_rated_match(client: TestClient[Any]) -> None:
    """One line per rated game, one point per rated match, ending at the rating the leaderboard shows."""
    root = chart(client, "/web/players/ada/ratings.svg")
    (line,) = all_with(root, "data-series")
    assert line.attrib["data-series"] == "expect-delays" and line.attrib["data-points"] == "4"
    ada = client.get("/v1/players/ada/stats").json()["games"]
    assert [g["game"] for g in ada if g["rating"]] == ["expect-delays"]
    (rated,) = client.get("/v1/players/ada/ratings").json()["games"]  # the history the line draws
    assert len(rated["history"]) == 4 and rated["game"] == "expect-delays"


def test_an_insight_chart_has_a_bar_per_row_of_the_insights_api(client: TestClient[Any]) -> None:
    """The statistics page's insight chart: a bar per group the API answers, of the value it answers."""
    for metric, by in (("win_rate", "seat"), ("length_moves", "edition"), ("mean_score", "bot")):
        root = chart(client, f"/web/games/expect-delays/insights.svg?metric={metric}&by={by}")
        rows = client.get("/v1/games/expect-delays/insights", params={"metric": metric, "by": by}).json()["rows"]
        assert rows and [(b.attrib["data-label"], float(b.attrib["data-value"])) for b in all_with(root, "data-label")
                         if b.tag.endswith("rect")] == [(r["group"][by], pytest.approx(r["value"], abs=1e-6))
                                                        for r in rows]


@pytest.mark.parametrize(("path", "status", "code"), [
    ("/web/games/no-such-game/charts/win-rate.svg", 404, "unknown-game"),
    ("/web/games/expect-delays/charts/no-such-chart.svg", 404, "not-found"),
    ("/web/players/nobody/ratings.svg", 404, "unknown-player"),
    ("/web/games/no-such-game/insights.svg?metric=win_rate&by=seat", 404, "unknown-game"),
    ("/web/games/expect-delays/insights.svg?metric=luck&by=seat", 400, "invalid-request"),
    ("/web/games/expect-delays/insights.svg?metric=win_rate", 400, "invalid-request"),
])
def test_unknown_charts_are_problems(client: TestClient[Any], path: str, status: int, code: str) -> None:
    """An unknown game, chart or player answers problem+json."""
    answer = client.get(path)
    assert (answer.status_code, answer.json()["code"]) == (status, code)


def test_charts_use_the_pages_sans_serif_and_lengths_are_not_seat_coloured(client: TestClient[Any]) -> None:
    """Every chart is set in a sans-serif; the length bars share one neutral colour, the seat bars the seats'."""
    lengths = chart(client, "/web/games/expect-delays/charts/lengths.svg")
    seats = chart(client, "/web/games/expect-delays/charts/win-rate.svg")
    for root in (lengths, seats):
        assert root.attrib["font-family"].endswith("sans-serif")
    assert {n.attrib["fill"] for n in all_with(lengths, "data-value")} == {charts.NEUTRAL}
    # One bar a seat position that has won (the deals are the server's, so which seat won varies from run to run).
    assert len({n.attrib["fill"] for n in all_with(seats, "data-value")}) == len(all_with(seats, "data-value")) >= 1


def test_a_cooperative_game_with_finished_matches_never_says_none_finished(client: TestClient[Any]) -> None:
    """Mass Transit (two finished matches, cooperative): its seat chart says why it has no bar, not 'no finished
    match yet'."""
    assert client.get("/v1/games/mass-transit/stats").json()["finished"] == 2
    for name in ("win-rate", "lengths", "cooperative"):
        text = client.get(f"/web/games/mass-transit/charts/{name}.svg").text
        assert "no finished match yet" not in text, name
    assert "win or lose together" in client.get("/web/games/mass-transit/charts/win-rate.svg").text
