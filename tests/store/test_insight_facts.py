"""The insights fact table on both stores: a seeded population of fact rows written through a projection batch reads
back as the same documents, and every SQL aggregate answer equals `measure()` (the plain-Python reference) over the
same rows, for every metric, grouping and filter, including the edge values (no edition, an opening named `none`,
a player in two seats, unrated seats, lengths unknown)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import insights
from service.reads.insights import DIMENSIONS, METRICS, Insights, dimension, measure
from store.read_models import DocChange, FactQuery

GAMES = ("terminus", "expect-delays")
PLAYERS = ("ada", "bob", "cy", "bot:random", "bot:greedy", "bot:")


def population(seed: int, matches: int) -> list[dict[str, Any]]:
    """Fact rows of `matches` random finished matches, as the projection writes them (with `band` and `reps`)."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for index in range(matches):
        seats = rng.randint(1, 4)
        players = [rng.choice(PLAYERS) for _ in range(seats)]  # a player may hold two seats
        moves = rng.choice([None, rng.randint(0, 60), 70_000])  # whole, unknown, or large enough to overflow a square
        seconds = rng.choice([None, round(rng.uniform(0, 5000), 6)])
        game, edition, month = rng.choice(GAMES), rng.choice([None, "1", "none"]), rng.choice(["2026-10", "2026-11"])
        match: list[dict[str, Any]] = []
        for seat in range(seats):
            player = players[seat]
            rating = rng.choice([None, round(rng.gauss(0, 12), 3), -5.0, 0.0, 4.999])
            match.append({
                "match_id": f"m{seed}-{index:04d}", "game": game, "edition": edition, "seats": seats, "seat": seat,
                "player": player, "bot": player[4:] if player.startswith("bot:") else None, "rating_before": rating,
                "mu_after": None, "sigma_after": None, "rank": rng.randint(1, seats),
                "score": rng.choice([0.0, 1.0, 0.5, rng.uniform(-3, 9)]),
                "result": rng.choice(["win", "loss", "draw"]), "moves": moves, "seconds": seconds,
                "end_reason": "resigned", "month": month, "ended_at": "2026-11-01T00:00:00Z",
                "opening": rng.choice([None, "none", "draw", "play"]), "cooperative": False, "position": index + 1,
                "band": insights.band_of(rating)})
        for row, reps in zip(match, insights.representatives(match), strict=True):
            row["reps"] = reps
        rows += match
    return rows


def load(store: Any, rows: list[dict[str, Any]]) -> None:
    """Replace the fact rows with `rows`, through a projection batch (the path the projection's fold takes)."""
    store.reset_read_model(insights.NAME)
    with store.read_model_batch(insights.NAME, insights.PROJECTION.version) as batch:
        batch.commit([DocChange(kind=insights.FACT, key=f"{r['match_id']}:{r['seat']}", doc=r, group=r["game"],
                                rank=float(r["position"])) for r in rows], batch.checkpoint)


def same(got: list[Any], want: list[Any]) -> None:
    assert [(g.group, g.n, g.small) for g in got] == [(w.group, w.n, w.small) for w in want]
    for g, w in zip(got, want, strict=True):
        assert g.value == pytest.approx(w.value, rel=1e-9, abs=1e-9)
        for a, b in ((g.low, w.low), (g.high, w.high)):
            assert (a is None) == (b is None)
            if a is not None:
                assert a == pytest.approx(b, rel=1e-6, abs=1e-6)


def values(rows: list[dict[str, Any]], name: str) -> list[str]:
    return sorted({dimension(row, name) for row in rows}) + ["nothing", "00"]


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), matches=st.integers(1, 60), data=st.data())
def test_every_sql_answer_is_what_measure_gives(store: Any, seed: int, matches: int, data: st.DataObject) -> None:
    """For a population: every metric by each dimension, by two drawn ones, and with a drawn filter and player, over
    one game and over both, agree."""
    rows = population(seed, matches)
    load(store, rows)
    reads = Insights(store)
    pairs = st.lists(st.sampled_from(DIMENSIONS), min_size=2, max_size=2, unique=True)
    for metric in METRICS:
        for by in [*([d] for d in DIMENSIONS), data.draw(pairs), data.draw(pairs)]:
            for games in ([GAMES[0]], list(GAMES)):
                chosen = [r for r in rows if r["game"] in games]
                same(reads.answer(games, metric, by, {}), measure(chosen, metric, by, {}))
        name = data.draw(st.sampled_from(DIMENSIONS))
        where = {name: data.draw(st.sampled_from(values(rows, name)))}
        by = data.draw(st.lists(st.sampled_from(DIMENSIONS), min_size=1, max_size=2, unique=True))
        player = data.draw(st.sampled_from([None, *PLAYERS]))
        same(reads.answer(list(GAMES), metric, by, where, player), measure(rows, metric, by, where, player))


def test_fact_rows_read_back_as_the_documents_written_and_page_by_position(store: Any) -> None:
    """The table gives the documents back field for field (types too), newest first, by key and by game."""
    rows = population(7, 40)
    load(store, rows)
    stored = {r.key: r for r in store.docs(insights.NAME, insights.FACT, limit=10_000)}
    assert {key: row.doc for key, row in stored.items()} == {f"{r['match_id']}:{r['seat']}": r for r in rows}
    assert all(type(row.doc[f]) is type(r[f]) for r in rows for row in [stored[f"{r['match_id']}:{r['seat']}"]]
               for f in r)
    one = rows[3]
    assert [r.doc for r in store.docs(insights.NAME, insights.FACT, key=f"{one['match_id']}:{one['seat']}")] == [one]
    paged = list(Insights(store, page=7).rows(["terminus"]))
    assert paged == sorted((r for r in rows if r["game"] == "terminus"),
                           key=lambda r: (-r["position"], f"{r['match_id']}:{r['seat']}"))


def test_a_fact_whose_fields_or_key_disagree_with_the_table_is_refused(store: Any) -> None:
    """A projection that changed its rows without a migration fails its batch instead of losing fields."""
    row = population(3, 1)[0]
    for doc, key in (({**row, "extra": 1}, f"{row['match_id']}:0"), (row, f"{row['match_id']}:9")):
        with pytest.raises(ValueError), store.read_model_batch(insights.NAME, insights.PROJECTION.version) as batch:
            batch.commit([DocChange(kind=insights.FACT, key=key, doc=doc, group=row["game"],
                                    rank=float(row["position"]))], batch.checkpoint)
    assert store.docs(insights.NAME, insights.FACT) == []


def test_an_aggregate_names_only_fact_columns(store: Any) -> None:
    with pytest.raises(ValueError):
        store.fact_sums(FactQuery(games=("terminus",), by=("seat; DROP TABLE insight_facts",)))


def test_a_new_projection_version_or_a_reset_empties_the_table(store: Any) -> None:
    """The facts go when the projection starts again from zero, as its documents do."""
    load(store, population(5, 10))
    with store.read_model_batch(insights.NAME, insights.PROJECTION.version + 1) as batch:
        assert batch.checkpoint.position == 0
    assert store.docs(insights.NAME, insights.FACT) == []
    load(store, population(5, 10))
    store.reset_read_model(insights.NAME)
    assert store.fact_sums(FactQuery(games=GAMES, by=("game",))) == []
