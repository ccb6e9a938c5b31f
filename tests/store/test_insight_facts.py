"""The insights fact table on both stores: a seeded population of fact rows written through a projection batch reads
back as the same documents, and every SQL aggregate answer equals `measure()` (the plain-Python reference) over the
same rows, for every metric, grouping and filter, including the edge values (no edition, an opening named `none`,
a player in two seats, unrated seats, lengths unknown)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import insights
from service.reads.insights import DIMENSIONS, METRICS, Insights, dimension, measure
from store import sql_insight_rollups as rollups
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


Kept = dict[tuple[Any, ...], tuple[Any, ...]]


def cells(store: Any, table: rollups.Cells = rollups.ROLLUPS) -> Kept:
    """A rollup table's rows by cell identity: their dimension values, reps and sums."""
    with store._transaction() as conn:
        rows = conn.execute(f"SELECT {', '.join((*table.key_columns, *rollups.SUMS))} FROM {table.table}").fetchall()
    named, width = len(table.identity), len(table.key_columns)
    return {tuple(row[:named]): (*row[named:width], *(float(v) for v in row[width:])) for row in rows}


KEPT = (*rollups.TABLES, rollups.DERIVED)  # the tables batches write, and the one the database keeps from theirs


def every_cell(store: Any) -> dict[str, Kept]:
    return {table.table: cells(store, table) for table in KEPT}


def derived_from_the_cells(kept: dict[str, Kept]) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """The cells of all seven summed into each set the database keeps (`rollups.DERIVED`), by game, set, the set's
    values (None outside it) and `reps`: computed here, from the rows of `insight_cells`, not by the store."""
    summed: dict[tuple[Any, ...], list[Any]] = {}
    width = len(rollups.DIMENSION_COLUMNS) + 1
    for (game, _), row in kept["insight_cells"].items():
        for columns in rollups.DERIVED.sets:
            values = tuple(v if c in columns else None for c, v in zip(rollups.DIMENSION_COLUMNS, row, strict=False))
            key = (game, ",".join(columns), *values, row[width - 1])
            held = summed.setdefault(key, [0.0] * (len(row) - width))
            held[:] = [a + b for a, b in zip(held, row[width:], strict=True)]
    return {key: tuple(sums) for key, sums in summed.items()}


def follows_the_cells(kept: dict[str, Kept]) -> None:
    """`insight_derived_cells` holds the cells of all seven summed into each of its sets, and no cell without rows."""
    width = len(rollups.DIMENSION_COLUMNS) + 1
    found = {(game, dims, *row[:width]): row[width:] for (game, dims, _), row in kept["insight_derived_cells"].items()}
    expected = derived_from_the_cells(kept)
    assert found.keys() == expected.keys()
    for key, sums in found.items():
        assert sums[0] > 0, key
        assert sums == pytest.approx(expected[key], rel=1e-9, abs=1e-9), key


def test_the_database_keeps_the_sets_this_code_reads(store: Any) -> None:
    """The sets the migration keeps cells of (`insight_derived_sets`, each with a bit per dimension in it) are the
    ones `covering` answers from."""
    with store._transaction() as conn:
        kept = dict(conn.execute("SELECT dims, mask FROM insight_derived_sets").fetchall())
    bits = {column: 1 << i for i, column in enumerate(rollups.DIMENSION_COLUMNS)}
    assert kept == {",".join(columns): sum(bits[c] for c in columns) for columns in rollups.DERIVED.sets}
    assert len(kept) == 30  # the six but the month, 20 sets of four holding it, 9 of five


def rebuilt(store: Any) -> dict[str, Kept]:
    with store._transaction() as conn:
        rollups.rebuild(conn, store.dialect)
    return every_cell(store)


def agree(kept: dict[str, Kept], again: dict[str, Kept]) -> None:
    """Two states of the rollup tables hold the same cells with the same sums (a float sum differs with the order it
    was added in, by its last digits), and none without rows."""
    assert kept.keys() == again.keys()
    for name, table in kept.items():
        width = len(rollups.DIMENSION_COLUMNS) + 1
        assert all(sums[width] > 0 for sums in table.values()), name
        assert table.keys() == again[name].keys(), name
        for cell, sums in table.items():
            assert sums[:width] == again[name][cell][:width], (name, cell)
            assert sums[width:] == pytest.approx(again[name][cell][width:], rel=1e-9, abs=1e-9), (name, cell)


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_the_rollups_kept_by_batches_are_what_the_fact_rows_sum_to(harness: Any, store: Any, seed: int,
                                                                  data: st.DataObject) -> None:
    """Batches that add rows, replace rows with changed values, delete rows and change one key twice leave every
    rollup cell equal to a rebuild from the fact rows alone, and no cell without rows (each dialect once: a SQLite
    file keeps the same SQL as one in memory)."""
    if harness.kind == "sqlite-file":
        pytest.skip("the same dialect as sqlite-memory")
    rows = population(seed, 30)
    load(store, rows)
    rng = random.Random(seed)
    others: dict[str, list[dict[str, Any]]] = {}
    for row in population(seed + 1, 30):  # whole matches with other values, to put in place of ones stored
        others.setdefault(row["match_id"], []).append(row)
    for _ in range(data.draw(st.integers(1, 3))):
        stored: dict[str, list[dict[str, Any]]] = {}
        for row in (r.doc for r in store.docs(insights.NAME, insights.FACT, limit=10_000)):
            stored.setdefault(row["match_id"], []).append(row)
        changes = []
        for match_id in rng.sample(sorted(stored), k=min(len(stored), 8)):
            gone = [DocChange(kind=insights.FACT, key=f"{match_id}:{r['seat']}", doc=None) for r in stored[match_id]]
            if rng.random() < 0.4:
                changes += gone
                continue
            position = stored[match_id][0]["position"]
            new = [{**r, "match_id": match_id, "position": position} for r in rng.choice(list(others.values()))]
            changes += [c for c in gone if int(c.key.rpartition(":")[2]) >= len(new)]
            changes += [DocChange(kind=insights.FACT, key=f"{match_id}:{r['seat']}", doc=r, group=r["game"],
                                  rank=float(position)) for r in new]
        if changes and rng.random() < 0.5:
            changes.append(changes[0])  # one key twice in a batch: its last change holds
        with store.read_model_batch(insights.NAME, insights.PROJECTION.version) as batch:
            batch.commit(changes, batch.checkpoint)
        kept = every_cell(store)
        assert all(kept.values())
        follows_the_cells(kept)
    agree(kept, rebuilt(store))  # once, after every batch: the sums the batches ran up, against the fact rows alone
    facts = [r.doc for r in store.docs(insights.NAME, insights.FACT, limit=10_000)]
    reads = Insights(store)
    for metric in METRICS:
        same(reads.answer(list(GAMES), metric, ["month", "bot"], {"seats": "2"}),
             measure(facts, metric, ["month", "bot"], {"seats": "2"}))
        wide = {"seats": "2", "bot": "human"}  # four dimensions: the database's cells of the six but the month, and
        for by in (["seat", "opening"], ["month", "seat"]):  # of a set of four holding the month
            same(reads.answer(list(GAMES), metric, by, wide), measure(facts, metric, by, wide))
        five = {**wide, "edition": "1"}  # five holding the month: a set of five's cells
        by = ["month", "seat"]
        same(reads.answer(list(GAMES), metric, by, five), measure(facts, metric, by, five))


def test_wider_questions_and_a_players_are_what_measure_gives(store: Any) -> None:
    """Four or more dimensions named (two grouped, two or three filtered) are summed from the database's cells of the
    six but the month, or of a set of four or five holding the month, else from the cells of all seven; a player's
    question from the fact rows: the answers are the same as measure's."""
    rows = population(11, 60)
    load(store, rows)
    reads = Insights(store)
    assert rollups.covering(["seat", "bot", "band"]) == ("seat", "bot", "band")
    assert rollups.covering(["seat", "bot", "band", "month"]) == ("seat", "month", "bot", "band")
    assert rollups.covering(["seat", "bot", "band", "opening"]) == rollups.TIMELESS
    assert rollups.covering(["seat", "bot", "month", "edition"]) == ("edition", "seat", "month", "bot")
    assert rollups.covering(["seat", "bot", "band", "month", "edition"]) == ("edition", "seat", "month", "bot", "band")
    assert rollups.covering(["seat", "opening", "band", "month", "edition"]) == rollups.DIMENSION_COLUMNS
    assert rollups.covering(["seat", "bot", "band", "month", "edition", "seats"]) == rollups.DIMENSION_COLUMNS
    assert rollups.covering(["seat", "bot", "month", "edition"], one_month=True) == rollups.DIMENSION_COLUMNS
    assert rollups.covering(["seat", "bot", "month"], one_month=True) == ("seat", "month", "bot")
    assert rollups.covering(["seat", "player"]) is None
    for where in ({"edition": "1", "rating_band": "unrated"}, {"edition": "1", "bot": "human", "month": "2026-10"},
                  {"edition": "1", "seats": "3", "month": "2026-10"}, {"rating_band": "unrated", "month": "2026-10"}):
        for metric in METRICS:
            for by in (["seat", "opening"], ["seats", "rating_band"]):
                same(reads.answer(list(GAMES), metric, by, where), measure(rows, metric, by, where))
                same(reads.answer(list(GAMES), metric, by, where, "ada"), measure(rows, metric, by, where, "ada"))


def test_a_reset_or_a_new_version_empties_the_rollups(store: Any) -> None:
    load(store, population(5, 10))
    assert all(every_cell(store).values())
    store.reset_read_model(insights.NAME)
    assert every_cell(store) == {table.table: {} for table in KEPT}
    load(store, population(5, 10))
    with store.read_model_batch(insights.NAME, insights.PROJECTION.version + 1):
        pass
    assert every_cell(store) == {table.table: {} for table in KEPT}


def test_a_cell_of_all_seven_is_named_by_its_values_null_included_and_goes_with_its_last_row(store: Any) -> None:
    """Rows that differ only in a NULL against the text 'none' (edition, opening) are two cells of all seven, each
    named by the digest of its canonical text; rows alike share one cell, which outlives all but its last row."""
    base = population(2, 1)[0]
    alike = {**base, "edition": None, "opening": None, "bot": None, "rating_before": None, "band": None, "seats": 1,
             "seat": 0, "reps": 15, "moves": None, "seconds": None}
    rows = [{**alike, "match_id": "a"}, {**alike, "match_id": "b"}, {**alike, "match_id": "c", "opening": "none"},
            {**alike, "match_id": "d", "edition": "none"}]
    load(store, rows)

    def kept() -> dict[bytes, tuple[Any, ...]]:
        found = cells(store, rollups.CELLS)
        assert {game for game, _ in found} <= {base["game"]}
        return {cell: sums for (_, cell), sums in found.items()}

    def named(row: dict[str, Any]) -> bytes:
        text = msgspec.json.encode([*(row[c] for c in rollups.DIMENSION_COLUMNS), row["reps"]]).decode()
        return rollups.digest(text)

    assert all(len(cell) == 16 for cell in kept())
    assert {cell: sums[:9] for cell, sums in kept().items()} == {
        named(rows[0]): (None, 1, 0, base["month"], None, None, None, 15, 2.0),
        named(rows[2]): (None, 1, 0, base["month"], "none", None, None, 15, 1.0),
        named(rows[3]): ("none", 1, 0, base["month"], None, None, None, 15, 1.0)}
    reads = Insights(store)
    where = {"edition": "none", "rating_band": "unrated"}

    gone: list[str] = []

    def drop(match_id: str) -> None:
        with store.read_model_batch(insights.NAME, insights.PROJECTION.version) as batch:
            batch.commit([DocChange(kind=insights.FACT, key=f"{match_id}:0", doc=None)], batch.checkpoint)
        gone.append(match_id)
        left = [r for r in rows if r["match_id"] not in gone]
        for by in (["seat", "opening"], ["seats", "bot"]):
            same(reads.answer([base["game"]], "win_rate", by, where), measure(left, "win_rate", by, where))

    drop("a")
    assert kept()[named(rows[0])][8] == 1.0 and len(kept()) == 3
    drop("c")
    assert set(kept()) == {named(rows[0]), named(rows[3])}
    drop("b")
    assert set(kept()) == {named(rows[3])}
    agree(every_cell(store), rebuilt(store))
    drop("d")
    assert kept() == {} and cells(store) == {}
