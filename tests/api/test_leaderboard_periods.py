"""Leaderboards by period, seat count and edition: each is what a reader recomputes from the exported records alone
(rating gained in the matches in scope), they differ from the all-time board, bad input is a typed problem, and a
private match never counts."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.lifecycle import Resign
from service.matches.matches import MatchService
from service.reads.runner import catch_up
from store.base import utc_now
from tests.api.test_insights import populate, read_records

Row = dict[str, Any]


def three_seats(service: MatchService, players: list[str]) -> None:
    """A 3-seat Terminus match, ended by resignations."""
    match_id = service.create("terminus", players, None).record.id
    for seat in range(3):
        if service.load(match_id).state.ended is None:
            service.play(match_id, seat, Resign(), expected_version=None, command_id=None)


def reader_board(rows: list[Row], game: str, holds: Callable[[Row], bool]) -> list[tuple[str, float, int, int]]:
    """(player, rating gained, matches, wins) over the game's rated rows in scope, most gained first, then handle."""
    mine: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        if row["game"] == game and row["rating"] is not None and holds(row):
            mine[row["player"]].append(row)
    board = [(player, sum(r["after"] - r["rating"] for r in rs), len(rs), sum(r["result"] == "win" for r in rs))
             for player, rs in mine.items()]
    return sorted(board, key=lambda b: (-b[1], b[0]))


def api_board(client: TestClient, game: str, **params: Any) -> list[tuple[str, float, int, int]]:
    """Every entry of a board, read page by page (3 a page, so cursors are walked)."""
    items: list[Row] = []
    cursor = None
    while True:
        answer = client.get(f"/v1/leaderboards/{game}", params={**params, "limit": 3,
                                                               **({"cursor": cursor} if cursor else {})})
        assert answer.status_code == 200, answer.text
        items += answer.json()["items"]
        cursor = answer.json()["next_cursor"]
        if cursor is None:
            return [(i["player"], i["gained"], i["matches"], i["wins"]) for i in items]


def same(got: list[tuple[str, float, int, int]], want: list[tuple[str, float, int, int]]) -> None:
    assert [(p, m, w) for p, _, m, w in got] == [(p, m, w) for p, _, m, w in want]
    assert [g for _, g, _, _ in got] == pytest.approx([g for _, g, _, _ in want])


def test_period_seat_and_edition_boards_are_what_the_exported_records_say(client: TestClient, store: Any) -> None:
    """Matches before a cut and after it; with the clock 7 days after the cut, the week board counts only the later
    ones, the month board all, and each board (and its seat-count and edition cut) equals the reader's."""
    service: MatchService = client.app.state.service
    populate(service, 3, 10)
    three_seats(service, ["ada", "bob", "cy"])
    moment = utc_now()
    cut = moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")  # as the records write instants
    populate(service, 4, 10)
    three_seats(service, ["dee", "cy", "ada"])
    service.create("terminus", ["zed", "yan"], None, owner="tests", visibility="private")
    private = service.create("terminus", ["zed", "yan"], None, owner="tests", visibility="private").record.id
    service.play(private, 0, Resign(), expected_version=None, command_id=None)
    catch_up(store)
    client.app.state.stats.now = lambda: moment + timedelta(days=7)
    rows = read_records([json.loads(line) for line in client.get("/v1/exports/matches").content.splitlines()])
    differs = False
    for game in ("terminus", "expect-delays", "mass-transit"):
        week = api_board(client, game, period="week")
        same(week, reader_board(rows, game, lambda r: r["ended"] >= cut))
        month = api_board(client, game, period="month")
        same(month, reader_board(rows, game, lambda r: True))
        every = client.get(f"/v1/leaderboards/{game}", params={"limit": 200}).json()
        assert all(item["gained"] is None for item in every["items"]) and every["period"] == "all"
        differs |= sum(m for _, _, m, _ in week) < sum(m for _, _, m, _ in month)
        differs |= [p for p, *_ in month] != [i["player"] for i in every["items"]]
        assert not {"zed", "yan"} & {p for p, *_ in month}
    assert differs and api_board(client, "terminus", period="week")
    for seats in (2, 3):
        same(api_board(client, "terminus", seats=seats),
             reader_board(rows, "terminus", lambda r, n=str(seats): r["seats"] == n))
    assert api_board(client, "terminus", seats=3)
    same(api_board(client, "expect-delays", edition="1", period="week"),
         reader_board(rows, "expect-delays", lambda r: r["edition"] == "1" and r["ended"] >= cut))
    answer = client.get("/v1/leaderboards/terminus", params={"period": "week", "seats": 3}).json()
    assert (answer["period"], answer["seats"], answer["since"]) == ("week", 3, cut)


def test_a_board_needs_min_matches_in_its_scope(client: TestClient, store: Any) -> None:
    """`min_matches` counts the matches in scope: a higher floor leaves only players with that many."""
    populate(client.app.state.service, 8, 12)
    catch_up(store)
    every = api_board(client, "terminus", period="month")
    floor = max(m for _, _, m, _ in every)
    assert api_board(client, "terminus", period="month", min_matches=floor) == [e for e in every if e[2] >= floor]


@pytest.mark.parametrize(("params", "status", "code"), [
    ({"period": "year"}, 400, "invalid-request"),
    ({"seats": 0}, 400, "invalid-request"),
    ({"seats": "two"}, 400, "invalid-request"),
    ({"edition": "99"}, 422, "bad-edition"),
    ({"edition": ""}, 400, "invalid-request"),
    ({"period": "week", "cursor": "nope"}, 400, "invalid-cursor"),
])
@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # refused by the API before a store is asked: one will do
def test_bad_board_questions_are_typed_problems(client: TestClient, params: dict[str, Any], status: int,
                                                code: str) -> None:
    answer = client.get("/v1/leaderboards/terminus", params=params)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert client.get("/v1/leaderboards/chess", params={"period": "week"}).json()["code"] == "unknown-game"


def test_period_boards_read_while_matches_finish(client: TestClient, store: Any) -> None:
    """Boards asked while matches finish and the facts fold each answer (no error, each player once), and once the
    folding is done the board is the reader's."""
    from concurrent.futures import ThreadPoolExecutor

    service: MatchService = client.app.state.service

    def finish_some() -> None:
        for seed in range(3):
            populate(service, 200 + seed, 3)
            catch_up(store, limit=5)

    with ThreadPoolExecutor(1) as pool:
        writer = pool.submit(finish_some)
        answers = []
        while not writer.done():
            answers.append(client.get("/v1/leaderboards/terminus", params={"period": "week", "limit": 200}))
        writer.result()
    assert answers and all(a.status_code == 200 for a in answers)
    assert all(len({i["player"] for i in a.json()["items"]}) == len(a.json()["items"]) for a in answers)
    catch_up(store)
    rows = read_records([json.loads(line) for line in client.get("/v1/exports/matches").content.splitlines()])
    same(api_board(client, "terminus", period="week"), reader_board(rows, "terminus", lambda r: True))
