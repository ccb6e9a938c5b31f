"""Insights: the fact rows rebuilt from the log equal the live ones, and every answer of the insights API is what a
reader recomputes from the exported records alone, in plain Python (both stores)."""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient
from openskill.models import PlackettLuce

from domain.lifecycle import Resign
from projections import insights
from service.matches.matches import MatchService
from service.matches.simulate import play_random_moves
from service.reads.runner import catch_up, rebuild
from store.read_models import FactQuery

PLAYERS = ["ada", "bob", "cy", "dee", "bot:random"]
GAMES = {"expect-delays": None, "terminus": None, "mass-transit": {"first_seat": 0}}
DIMENSIONS = ["seat", "seats", "edition", "month", "opening", "bot", "rating_band"]
METRICS = ["win_rate", "mean_rank", "mean_score", "length_moves", "length_seconds"]
NOT_PLAYED = ("abandoned", "cancelled", "aborted")
DEAL = ("match.entropy-added", "match.entropy-closed")


def populate(service: MatchService, seed: int, count: int) -> None:
    """`count` matches: random games, seats and editions, a few random moves, then seat 0 resigns (or the match
    has ended on its own)."""
    rng = random.Random(seed)
    for _ in range(count):
        game = rng.choice(sorted(GAMES))
        players = rng.sample(PLAYERS, 2)
        edition = rng.choice([None, "1"]) if game == "expect-delays" else None
        seed_text = f"caller-{rng.random()}" if rng.random() < 0.1 else None  # not counted: the caller chose the seed
        match_id = service.create(game, players, GAMES[game], seed=seed_text, rules_version=edition).record.id
        play_random_moves(service, match_id, rng, rng.randint(0, 6))
        if service.load(match_id).state.ended is None:
            service.play(match_id, 0, Resign(), expected_version=None, command_id=None)


def facts(store: Any) -> dict[str, dict[str, Any]]:
    """Every fact row of the read model, by key."""
    rows = store.docs(insights.NAME, insights.FACT, limit=100_000)
    return {row.key: row.doc for row in rows}


def test_rebuilding_the_facts_from_the_log_gives_the_live_rows(client: TestClient, store: Any) -> None:
    """Folded live, batch by batch as matches finish, or rebuilt from the whole log: the same rows."""
    service: MatchService = client.app.state.service
    for seed in range(3):
        populate(service, seed, 4)
        catch_up(store, limit=7)
    live = facts(store)
    assert live and {row["result"] for row in live.values()} <= {"win", "loss", "draw"}
    assert any(row["rating_before"] is not None for row in live.values())
    rebuild(store, insights.PROJECTION)
    assert facts(store) == live  # read back from the facts table (store/sql_facts.py)
    counted = store.fact_sums(FactQuery(games=tuple(GAMES), by=("match_id", "seat")))
    assert sorted(f"{s.group[0]}:{s.group[1]}" for s in counted) == sorted(live)


# ---- a reader's own arithmetic, from the records alone -------------------------------------------------------

def t_quantile(df: int) -> float:
    """The two-sided 95 % quantile of Student's t, by integrating its density (Simpson) and bisection."""
    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))

    def cdf_from_zero(x: float, steps: int = 2000) -> float:
        h = x / steps
        f = [c * (1 + (i * h) ** 2 / df) ** (-(df + 1) / 2) for i in range(steps + 1)]
        return h / 3 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))

    low, high = 0.0, 20.0
    for _ in range(50):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf_from_zero(mid) < 0.475 else (low, mid)
    return (low + high) / 2


def read_records(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fact rows a reader derives from export lines (in the export's order, which rates matches in order), with
    each seat's rating after the match (`after`) and the instant it ended (`ended`)."""
    model = PlackettLuce()
    held: dict[tuple[str, str], Any] = {}
    rows = []
    for line in lines:
        text = line["record"].splitlines()
        header, events = json.loads(text[0]), [json.loads(t) for t in text[1:]]
        ended = events[-1]
        assert ended["event"]["type"] == "match.ended"
        payload = ended["event"]
        if header["seed_source"] == "caller" or payload["reason"] in NOT_PLAYED:
            continue
        game, players = header["game"], header["players"]
        started = [e for e in events if e["event"]["type"] == "match.started"][-1]["recorded_at"]
        moves, last, openings = 0, None, {}
        for e in events:
            key = (e["seat"], json.dumps(e["command"], sort_keys=True), e["recorded_at"])
            if e["event"]["type"] in DEAL:
                last = key
            elif e["command"] is not None:
                moves, last = (moves + 1, key) if key != last else (moves, last)
                tag = e["event"]["type"]
                name = tag.split(".", 1)[1] if tag.startswith((game + ".", "match.")) else tag
                openings.setdefault(e["seat"], name)
        results = payload["results"]
        cooperative = payload.get("cooperative", False)
        before: dict[str, float] = {}
        after: dict[str, float] = {}
        if not cooperative and len(results) > 1 and len(set(players)) == len(players):
            ratings = [held.get((game, players[r["seat"]])) or model.rating() for r in results]
            before = {players[r["seat"]]: x.mu - 3 * x.sigma for r, x in zip(results, ratings, strict=True)}
            rated = model.rate([[x] for x in ratings], ranks=[float(r["rank"]) for r in results])
            for r, team in zip(results, rated, strict=True):
                held[(game, players[r["seat"]])] = team[0]
                after[players[r["seat"]]] = team[0].mu - 3 * team[0].sigma
        span = (_seconds(ended["recorded_at"]) - _seconds(started))
        for r in results:
            player = players[r["seat"]]
            same = len(results) > 1 and len({x["rank"] for x in results}) == 1
            result = ("win" if payload.get("team_won") else "loss") if cooperative else \
                "draw" if same else "win" if r["winner"] else "loss"
            rows.append({"match": header["match_id"], "cursor": int(line["cursor"]), "game": game, "player": player,
                         "seat": str(r["seat"]),
                         "seats": str(len(players)), "edition": header["rules_version"],
                         "month": ended["recorded_at"][:7], "opening": openings.get(r["seat"], "none"),
                         "bot": player[4:] if player.startswith("bot:") else "human",
                         "rating": before.get(player), "after": after.get(player), "ended": ended["recorded_at"],
                         "rank": r["rank"], "score": r["score"], "result": result,
                         "moves": moves, "seconds": span})
    return rows


def _seconds(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def band(rating: float | None) -> str:
    if rating is None:
        return "unrated"
    low = math.floor(rating / 5) * 5
    return f"{low:g}..{low + 5:g}"


def expected(rows: list[dict[str, Any]], metric: str, by: list[str]) -> dict[tuple[str, ...], tuple[int, float, Any]]:
    """(n, value, (low, high)) per group, by the textbook formulas."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[tuple(band(row["rating"]) if d == "rating_band" else row[d] for d in by)].append(row)
    out = {}
    for key, members in groups.items():
        if metric == "win_rate":
            n, p, z = len(members), sum(r["result"] == "win" for r in members) / len(members), 1.959964
            centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), \
                z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            out[key] = (n, p, (max(0, centre - half), min(1, centre + half)))
            continue
        if metric.startswith("length"):
            field = "moves" if metric == "length_moves" else "seconds"
            values = list({r["match"]: float(r[field]) for r in members}.values())
        else:
            values = [float(r["rank" if metric == "mean_rank" else "score"]) for r in members]
        n, mean = len(values), sum(values) / len(values)
        if n == 1:
            out[key] = (1, mean, (None, None))
            continue
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        half = (t_quantile(n - 1) if n < 31 else 1.959964) * sd / math.sqrt(n)
        out[key] = (n, mean, (mean - half, mean + half))
    return out


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), count=st.integers(1, 4),
       metric=st.sampled_from(METRICS), by=st.lists(st.sampled_from(DIMENSIONS), min_size=1, max_size=2, unique=True))
def test_every_insight_is_what_the_exported_records_say(client: TestClient, store: Any, seed: int, count: int,
                                                        metric: str, by: list[str]) -> None:
    """A seeded population (it grows from example to example); each game's answer equals the reader's own."""
    service: MatchService = client.app.state.service
    populate(service, seed, count)
    catch_up(store)
    exported = [json.loads(line) for line in client.get("/v1/exports/matches").content.splitlines()]
    rows = read_records(exported)
    assert rows
    for game in GAMES:
        answer = client.get(f"/v1/games/{game}/insights", params={"metric": metric, "by": by})
        assert answer.status_code == 200, answer.text
        want = expected([r for r in rows if r["game"] == game], metric, by)
        got = {tuple(row["group"][d] for d in by): row for row in answer.json()["rows"]}
        assert set(got) == set(want)
        for key, (n, value, (low, high)) in want.items():
            row = got[key]
            assert row["n"] == n and row["value"] == pytest.approx(value) and row["small"] == (n < 30)
            # The service's Student t has three decimals (T95), this test's is integrated: they differ by up to
            # 0.0005 in t, so the bounds by up to 2.5e-4 of the half-width (a two-match group's can be ~100 moves).
            slack = 1e-3 + (3e-4 * (high - low) if low is not None and high is not None else 0)
            assert (row["low"], row["high"]) == (pytest.approx(low, abs=slack) if low is not None else None,
                                                 pytest.approx(high, abs=slack) if high is not None else None)


def test_a_players_insights_are_the_games_rows_of_that_player(client: TestClient, store: Any) -> None:
    """`/v1/players/{p}/insights?game=g` answers as the game's insights filtered by that player; filters apply."""
    populate(client.app.state.service, 11, 8)
    catch_up(store)
    params = {"metric": "win_rate", "by": ["seat"], "game": "terminus"}
    mine = client.get("/v1/players/ada/insights", params=params).json()
    assert mine["rows"] == client.get("/v1/games/terminus/insights",
                                      params={**params, "player": "ada"}).json()["rows"]
    everyone = client.get("/v1/games/terminus/insights", params={"metric": "mean_rank", "by": ["seat"]}).json()
    seat0 = client.get("/v1/games/terminus/insights", params={"metric": "mean_rank", "by": ["seats"], "seat": "0"})
    assert [r["n"] for r in everyone["rows"] if r["group"]["seat"] == "0"] == [r["n"] for r in seat0.json()["rows"]]


@pytest.mark.parametrize(("url", "params", "status", "code"), [
    ("/v1/games/chess/insights", {"metric": "win_rate", "by": "seat"}, 404, "unknown-game"),
    ("/v1/games/terminus/insights", {"metric": "win_rate", "by": ["seat", "seat"]}, 422, "bad-grouping"),
    ("/v1/games/terminus/insights", {"metric": "win_rate", "by": ["seat", "month", "bot"]}, 400, "invalid-request"),
    ("/v1/games/terminus/insights", {"metric": "luck", "by": "seat"}, 400, "invalid-request"),
    ("/v1/games/terminus/insights", {"metric": "win_rate", "by": "colour"}, 400, "invalid-request"),
    ("/v1/games/terminus/insights", {"metric": "win_rate"}, 400, "invalid-request"),
    ("/v1/players/ada/insights", {"metric": "win_rate", "by": "seat", "game": "chess"}, 404, "unknown-game"),
])
@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # refused by the API before a store is asked: one will do
def test_bad_questions_are_typed_problems(client: TestClient, url: str, params: dict[str, Any], status: int,
                                          code: str) -> None:
    """An unknown game, metric or dimension, or a grouping by none, one twice or three, is refused."""
    answer = client.get(url, params=params)
    assert (answer.status_code, answer.json()["code"]) == (status, code)


def test_a_players_rating_history_is_what_the_exported_records_rate(client: TestClient, store: Any) -> None:
    """Each point of `/v1/players/{p}/ratings` is the rating after one rated match (at the position its export line
    names), and the rating a reader computes before the next one; unknown players are 404."""
    populate(client.app.state.service, 5, 14)
    catch_up(store)
    rows = read_records([json.loads(line) for line in client.get("/v1/exports/matches").content.splitlines()])
    answer = client.get("/v1/players/ada/ratings").json()
    assert answer["games"]
    for rated in answer["games"]:
        mine = [r for r in rows if r["player"] == "ada" and r["game"] == rated["game"] and r["rating"] is not None]
        history = rated["history"]
        assert [point["position"] for point in history] == [r["cursor"] for r in mine] and rated["matches"] == len(mine)
        assert [p["ordinal"] for p in history[:-1]] == pytest.approx([r["rating"] for r in mine[1:]])
        assert history[-1]["ordinal"] == pytest.approx(rated["ordinal"])
    assert client.get("/v1/players/nobody/ratings").json()["code"] == "unknown-player"


def test_private_and_caller_seeded_matches_never_reach_insights(client: TestClient, store: Any) -> None:
    """An app's private match (and a match whose seed the caller chose) leaves no fact row: its players have no
    insights, whoever asks."""
    service: MatchService = client.app.state.service
    opened = service.create("terminus", ["zed", "yan"], None, owner="tests", visibility="private")
    service.play(opened.record.id, 0, Resign(), expected_version=None, command_id=None)
    seeded = service.create("terminus", ["xia", "yan"], None, seed="chosen").record.id
    service.play(seeded, 0, Resign(), expected_version=None, command_id=None)
    catch_up(store)
    for player in ("zed", "xia", "yan"):
        answer = client.get(f"/v1/players/{player}/insights", params={"metric": "win_rate", "by": "seat"})
        assert answer.status_code == 200 and answer.json()["rows"] == []
    assert facts(store) == {}


def test_insights_read_while_matches_finish(client: TestClient, store: Any) -> None:
    """Answers asked while matches finish and the projection folds are each a consistent grouping (no error, n adds
    up to the rows folded), and the last equals a fresh read."""
    from concurrent.futures import ThreadPoolExecutor

    service: MatchService = client.app.state.service

    def finish_some() -> None:
        for seed in range(4):
            populate(service, 100 + seed, 2)
            catch_up(store, limit=5)

    params = {"metric": "win_rate", "by": ["seats"]}
    with ThreadPoolExecutor(1) as pool:
        writer = pool.submit(finish_some)
        answers = []
        while not writer.done():
            answers.append(client.get("/v1/games/terminus/insights", params=params))
        writer.result()
    assert all(a.status_code == 200 for a in answers)
    final = client.get("/v1/games/terminus/insights", params=params).json()
    assert sum(r["n"] for r in final["rows"]) == sum(1 for row in facts(store).values() if row["game"] == "terminus")
