"""Schema creation on open: numbered, recorded, idempotent, safe when several processes open at once."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest

from ledger.events import NewEvent, NewMatch, SeatRecord
from projections import insights
from service.reads.insights import METRICS, Insights, measure
from store import migrations
from store import sql_insight_rollups as rollups
from store.base import EventStore
from store.factory import open_store
from store.read_models import DocChange
from tests.store.test_insight_facts import (
    agree,
    cells,
    every_cell,
    follows_the_cells,
    load,
    population,
    rebuilt,
    same,
)


@pytest.fixture(params=["sqlite-file", pytest.param("postgres", marks=pytest.mark.postgres)])
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database nobody has opened yet."""
    if request.param == "sqlite-file":
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    return str(request.getfixturevalue("pg_clean_url"))


def test_migrations_are_numbered_from_one_without_repeats() -> None:
    for dialect in ("postgres", "sqlite"):
        steps = migrations.load(dialect)
        numbers = [m.number for m in steps]
        assert numbers[0] == 1 and numbers == sorted(set(numbers)) and steps


def test_concurrent_first_opens_migrate_once(fresh_url: str) -> None:
    opened: list[EventStore] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def open_one() -> None:
        barrier.wait()
        try:
            opened.append(open_store(fresh_url))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert not errors, errors
        assert len(opened) == 4
        assert all(s.head_position() == 0 for s in opened)
        # and a fifth open later is harmless too
        open_store(fresh_url).close()
    finally:
        for s in opened:
            s.close()


def test_the_seat_identities_migration_gives_earlier_seats_theirs(fresh_url: str) -> None:
    """A match stored before the seats held their players' identities is found by `player=` in any case once the
    migration has run (it is run again here on seats written as they were before it)."""
    store: Any = open_store(fresh_url)
    step = next(m for m in migrations.load(store.schema_folder) if m.name == "seat_identities")
    seats = (SeatRecord(0, "Ann", "h0"), SeatRecord(1, "BOB", "h1"))
    old = NewMatch(id="m-old", game="expect-delays", rules_version="1", options={}, seed="s", seed_commitment="c",
                   seats=seats)
    store.create_match(old, [NewEvent("match.started", {"type": "match.started"})])
    before = [{"seat": 0, "player": "Ann", "token_hash": "h0"}, {"seat": 1, "player": "BOB", "token_hash": "h1"}]
    sql = store.dialect.sql
    with store._transaction() as conn:
        conn.execute(sql("UPDATE matches SET seats = ? WHERE id = 'm-old'"), (store.dialect.encode(before),))
        conn.execute(sql("DELETE FROM schema_migrations WHERE number = ?"), (step.number,))
    assert store.list_matches(player="ann") == []
    store.close()
    reopened = open_store(fresh_url)
    try:
        assert [m.id for m in reopened.list_matches(player="ann")] == ["m-old"]
        assert [m.id for m in reopened.list_matches(player="Bob")] == ["m-old"]
        assert reopened.get_match("m-old").seats == seats  # type: ignore[union-attr]
    finally:
        reopened.close()


def test_the_insight_cells_migration_moves_the_cells_of_all_seven_out_of_the_rollups(fresh_url: str) -> None:
    """Rollups kept before the cells of all seven had a table of their own (those cells in `insight_rollups`, named
    by their text) are, once the migration has run (again here, on a store put back as it was), what a rebuild from
    the fact rows gives in both tables; the answers stay measure's; and a writer still on the old code is refused."""
    store: Any = open_store(fresh_url)
    rows = population(4, 40)
    rows[0]["opening"] = "défense ✓"  # a digest of text beyond ASCII: PostgreSQL's of its UTF-8, as Python's
    load(store, rows)
    step = next(m for m in migrations.load(store.schema_folder) if m.name == "insight_cells")
    was = rollups.Cells("insight_rollups", rollups.CELLS.sets, digested=False)  # the set of all seven, as kept before
    guard = ("DROP TRIGGER insight_rollups_up_to_three" if store.schema_folder == "sqlite" else
             "ALTER TABLE insight_rollups DROP CONSTRAINT insight_rollups_up_to_three")
    with store._transaction() as conn:
        before_derived_cells(conn, store)
        conn.execute("DROP TABLE insight_cells")
        conn.execute(guard)
        rollups.fill(conn, store.dialect, was, "insight_facts")
        conn.execute(store.dialect.sql("DELETE FROM schema_migrations WHERE number = ?"), (step.number,))
    before = cells(store)
    store.close()
    reopened: Any = open_store(fresh_url)
    try:
        moved = every_cell(reopened)
        assert len(moved["insight_cells"]) == len(before) - len(moved["insight_rollups"]) > 0
        follows_the_cells(moved)
        agree(moved, rebuilt(reopened))
        reads = Insights(reopened)
        for metric in METRICS:
            where = {"edition": "1", "bot": "human"}
            same(reads.answer(["terminus"], metric, ["seat", "opening"], where),
                 measure([r for r in rows if r["game"] == "terminus"], metric, ["seat", "opening"], where))
        with pytest.raises((sqlite3.IntegrityError, psycopg.errors.CheckViolation)), reopened._transaction() as conn:
            rollups.fill(conn, reopened.dialect, was, "insight_facts")
    finally:
        reopened.close()


def before_derived_cells(conn: Any, store: Any) -> None:
    """Put a store back as it was before `insight_derived_cells` (the table, its sets, what keeps it, the month index
    of the cells of all seven, its migration's row)."""
    step = next(m for m in migrations.load(store.schema_folder) if m.name == "insight_derived_cells")
    if store.schema_folder == "sqlite":
        for trigger in ("insert", "update", "delete"):
            conn.execute(f"DROP TRIGGER insight_derived_on_{trigger}")
        conn.execute("DROP VIEW insight_cell_changes")
    else:
        conn.execute("DROP FUNCTION insight_derived_follow CASCADE")
        conn.execute("DROP FUNCTION insight_derived_apply")
    for table in ("insight_derived_cells", "insight_derived_sets"):
        conn.execute(f"DROP TABLE {table}")
    conn.execute("DROP INDEX insight_cells_month")
    fives = next(m for m in migrations.load(store.schema_folder) if m.name == "insight_derived_fives")
    for number in (step.number, fives.number):  # both run again, in order: the sets of four, then those of five
        conn.execute(store.dialect.sql("DELETE FROM schema_migrations WHERE number = ?"), (number,))


def test_the_derived_cells_migration_sums_the_cells_kept_before_it_and_keeps_them_after(fresh_url: str) -> None:
    """A store whose cells of all seven were kept before `insight_derived_cells` existed gets them summed into each
    set by the migration; batches after it (a writer that knows nothing of that table: only the database writes it)
    keep them equal to those sums, and questions of four dimensions, with the month and without, are measure's."""
    store: Any = open_store(fresh_url)
    rows = population(6, 40)
    rows[0]["opening"] = "défense ✓"  # a cell named by text beyond ASCII
    rows[1]["opening"], rows[1]["rating_before"], rows[1]["band"] = None, None, None
    load(store, rows[:30])
    with store._transaction() as conn:
        before_derived_cells(conn, store)
    store.close()
    reopened: Any = open_store(fresh_url)
    try:
        migrated = every_cell(reopened)
        assert migrated["insight_derived_cells"]
        follows_the_cells(migrated)
        with reopened.read_model_batch(insights.NAME, insights.PROJECTION.version) as batch:
            batch.commit([DocChange(kind=insights.FACT, key=f"{r['match_id']}:{r['seat']}", doc=r, group=r["game"],
                                    rank=float(r["position"])) for r in rows[30:]], batch.checkpoint)
        follows_the_cells(every_cell(reopened))
        agree(every_cell(reopened), rebuilt(reopened))
        reads = Insights(reopened)
        where = {"edition": "1", "bot": "human"}
        for metric in METRICS:
            for by in (["seat", "opening"], ["month", "seat"]):
                same(reads.answer(["terminus"], metric, by, where),
                     measure([r for r in rows if r["game"] == "terminus"], metric, by, where))
    finally:
        reopened.close()


def test_the_sets_of_five_migration_sums_the_cells_kept_before_it_into_the_new_sets_alone(fresh_url: str) -> None:
    """A store that kept the derived cells of the sets of four (and the six but the month) before the sets of five
    existed gets those summed by the migration, the sets already kept left as they were (not summed twice); batches
    after it keep every set, and a question of five dimensions holding the month is measure's."""
    store: Any = open_store(fresh_url)
    rows = population(8, 40)
    rows[0]["opening"] = "défense ✓"
    load(store, rows[:30])
    fives = [",".join(columns) for columns in rollups.MONTH_FIVES]
    step = next(m for m in migrations.load(store.schema_folder) if m.name == "insight_derived_fives")
    with store._transaction() as conn:
        for table in ("insight_derived_cells", "insight_derived_sets"):
            conn.execute(store.dialect.sql(f"DELETE FROM {table} WHERE dims IN ({', '.join('?' for _ in fives)})"),
                         fives)
        conn.execute(store.dialect.sql("DELETE FROM schema_migrations WHERE number = ?"), (step.number,))
    store.close()
    reopened: Any = open_store(fresh_url)
    try:
        migrated = every_cell(reopened)
        assert {dims for _, dims, _ in migrated["insight_derived_cells"]} >= set(fives)
        follows_the_cells(migrated)
        with reopened.read_model_batch(insights.NAME, insights.PROJECTION.version) as batch:
            batch.commit([DocChange(kind=insights.FACT, key=f"{r['match_id']}:{r['seat']}", doc=r, group=r["game"],
                                    rank=float(r["position"])) for r in rows[30:]], batch.checkpoint)
        follows_the_cells(every_cell(reopened))
        reads = Insights(reopened)
        where = {"edition": "1", "bot": "human", "seats": "3"}
        for metric in METRICS:
            same(reads.answer(["terminus"], metric, ["month", "seat"], where),
                 measure([r for r in rows if r["game"] == "terminus"], metric, ["month", "seat"], where))
    finally:
        reopened.close()


def test_the_match_players_migration_indexes_the_players_of_an_existing_store(tmp_path: Path) -> None:
    """SQLite: matches stored before `match_players` existed (put back so here: its table and triggers dropped, a
    match written meanwhile) are found by `player=`, in any case, once the migration has run, and the triggers it
    made keep the table in step from then on."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    store: Any = open_store(url)
    step = next(m for m in migrations.load("sqlite") if m.name == "match_players")
    with store._transaction() as conn:
        for trigger in ("match_players_created", "match_players_seated"):
            conn.execute(f"DROP TRIGGER {trigger}")
        conn.execute("DROP TABLE match_players")
        conn.execute("DELETE FROM schema_migrations WHERE number = ?", (step.number,))
    seats = (SeatRecord(0, "Ann", "h0"), SeatRecord(1, "BOB", "h1"))
    old = NewMatch(id="m-old", game="expect-delays", rules_version="1", options={}, seed="s", seed_commitment="c",
                   seats=seats)
    store.create_match(old, [NewEvent("match.started", {"type": "match.started"})])
    store.close()
    reopened = open_store(url)
    try:
        assert [m.id for m in reopened.list_matches(player="ann")] == ["m-old"]
        assert [m.id for m in reopened.list_matches(player="Bob")] == ["m-old"]
        new = NewMatch(id="m-new", game="expect-delays", rules_version="1", options={}, seed="s",
                       seed_commitment="c", seats=(SeatRecord(0, "ann", "h2"),))
        reopened.create_match(new, [NewEvent("match.started", {"type": "match.started"})])
        assert [m.id for m in reopened.list_matches(player="ANN")] == ["m-new", "m-old"]
    finally:
        reopened.close()
