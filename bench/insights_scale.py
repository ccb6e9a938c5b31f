"""Measure the insights queries (GET /v1/games/{game}/insights) over 10^4 to 10^6 finished matches, per store.

    uv run python bench/insights_scale.py                                  # SQLite: 10^4, 10^5 (and 10^6) matches
    TURNSTILE_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres uv run python bench/insights_scale.py \\
        --stores postgres --sizes 10000 100000 1000000

A throwaway store (a temporary SQLite file; a throwaway PostgreSQL database, dropped after) gets synthetic fact rows
loaded straight into `insight_facts` (COPY on PostgreSQL, executemany on SQLite, the indexes dropped during the load
and built again after it), every match in one game (the worst case: a query reads the whole population), 2-4 seats
a match. The rows are what the projection writes: `reps` comes from projections/insights.py's own function, over a
few thousand match templates (seats, players, bots, openings, rating bands) that the matches reuse with their own ids,
months, editions, lengths and results. The population grows size by size in the same store, and after each load
the rollups (`insight_rollups` and `insight_cells`, store/sql_insight_rollups.py, and from the latter the database's
`insight_derived_cells`) are computed from the facts (`rebuild`: what the projection's batches keep as they write;
its time is printed after the load's). Then every metric by every grouping the API offers (one dimension, and each
unordered pair), plus a filtered one, a player's, and five beyond the sets of three (each reported in a column of
its own): four dimensions without the month (the database's cells of the other six), four with it (its cells of a
set of four holding the month), five grouped by the month (its cells of a set of five holding the month), five
grouped by the month naming the opening and the band (every cell of all seven) and five filtered by one month (that
month's cells of all seven), is answered through service/reads/insights.py (`Insights.answer`), `--runs` times
each; the table gives, per store and size, the median p50 over the questions, the worst question's p95, and which it
is (`--detail`: every question's, and on PostgreSQL each insights table's rows and total size).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import throwaway_database  # noqa: E402
from projections import insights  # noqa: E402
from service.reads.insights import DIMENSIONS, METRICS, Insights  # noqa: E402
from store import sql_insight_rollups as rollups  # noqa: E402
from store.factory import open_store  # noqa: E402
from store.sql_facts import FIELDS  # noqa: E402

GAME = "terminus"
OPENINGS = ["claim", "draw", "pass", "build", "route", "swap", "trade", "hold", "scout", "link", "rush", "wait"]
BOTS = ["random", "greedy", "ismcts-1", "ismcts-2", "ismcts-3"]
MONTHS = [f"{2025 + m // 12}-{m % 12 + 1:02d}" for m in range(24)]
TEMPLATES = 4000


def templates(rng: random.Random) -> list[list[dict[str, Any]]]:
    """Match templates: the per-seat fields and `reps` of matches of 2-4 seats."""
    found = []
    for _ in range(TEMPLATES):
        seats = rng.randint(2, 4)
        rows = []
        for seat in range(seats):
            bot = rng.choice(BOTS) if rng.random() < 0.15 else None
            player = f"bot:{bot}" if bot else f"p{rng.randrange(20_000)}"
            rating = None if rng.random() < 0.1 else round(rng.gauss(0, 12), 3)
            rows.append({"seat": seat, "seats": seats, "player": player, "bot": bot, "rating_before": rating,
                         "band": insights.band_of(rating), "opening": rng.choice([*OPENINGS, None])})
        for row, reps in zip(rows, insights.representatives(rows), strict=True):
            row["reps"] = reps
        found.append(rows)
    return found


def fact_rows(rng: random.Random, shapes: list[list[dict[str, Any]]], first: int,
              count: int) -> Iterator[tuple[Any, ...]]:
    """The rows of matches `first` .. `first + count - 1`, as tuples in the table's column order (FIELDS)."""
    for n in range(first, first + count):
        shape = shapes[rng.randrange(len(shapes))]
        match_id, edition, month = str(uuid.UUID(int=rng.getrandbits(128))), rng.choice(["1", "2"]), rng.choice(MONTHS)
        moves, seconds = rng.randint(8, 200), round(rng.uniform(30, 3600), 3)
        ranks = list(range(1, len(shape) + 1))
        rng.shuffle(ranks)
        for seat_row, rank in zip(shape, ranks, strict=True):
            row = {**seat_row, "match_id": match_id, "game": GAME, "edition": edition, "mu_after": None,
                   "sigma_after": None, "rank": rank, "score": float(len(shape) - rank), "result":
                   "win" if rank == 1 else "loss", "moves": moves, "seconds": seconds, "end_reason": "finished",
                   "month": month, "ended_at": f"{month}-15T12:00:00Z", "cooperative": False, "position": n + 1}
            yield tuple(row[name] for name in FIELDS)


def summed(store: Any, kind: str) -> None:
    """The rollups again from every fact row (what the projection's batches keep as they write)."""
    if kind == "postgres":
        with store._pool.connection() as conn:
            rollups.rebuild(conn, store.dialect)
            for table in (*rollups.TABLES, rollups.DERIVED):
                conn.execute(f"ANALYZE {table.table}")
        return
    with store._lock:
        store._conn.execute("BEGIN")
        rollups.rebuild(store._conn, store.dialect)
        store._conn.execute("COMMIT")
        store._conn.execute("ANALYZE")


def tables(store: Any, kind: str) -> str:
    """PostgreSQL: each insights table's cells (or rows) and total size (heap, indexes, TOAST), after a load."""
    if kind != "postgres":
        return ""
    with store._pool.connection() as conn:
        found = conn.execute("SELECT relname, reltuples, pg_total_relation_size(oid) FROM pg_class WHERE relkind = 'r' "
                             "AND relname LIKE 'insight%' ORDER BY relname").fetchall()
    return ", ".join(f"{name} {rows:,.0f} rows {size / 2**20:,.0f} MB" for name, rows, size in found)


def load(store: Any, kind: str, rows: Iterator[tuple[Any, ...]]) -> None:
    """Rows straight into insight_facts, its indexes dropped for the load and built again after it."""
    if kind == "postgres":
        with store._pool.connection() as conn:
            indexes = [r[0] for r in conn.execute("SELECT indexdef FROM pg_indexes WHERE tablename = "
                                                  "'insight_facts' AND indexname <> 'insight_facts_pkey'")]
            conn.execute("DROP INDEX " + ", ".join(i.split()[2] for i in indexes))
            with conn.cursor().copy(f"COPY insight_facts ({', '.join(FIELDS)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            for index in indexes:
                conn.execute(index)
            conn.execute("ANALYZE insight_facts")
        return
    with store._lock:
        conn = store._conn
        indexes = [r[0] for r in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND "
                                              "tbl_name = 'insight_facts' AND sql IS NOT NULL")]
        for index in indexes:
            conn.execute("DROP INDEX " + index.split()[2])
        conn.execute("BEGIN")
        conn.executemany(f"INSERT INTO insight_facts ({', '.join(FIELDS)}) VALUES "
                         f"({', '.join('?' for _ in FIELDS)})", rows)
        conn.execute("COMMIT")
        for index in indexes:
            conn.execute(index)
        conn.execute("ANALYZE")


Question = tuple[str, str, list[str], dict[str, str], str | None]


def questions(rows_player: str, pairs: bool) -> list[Question]:
    """(label, metric, by, where, player): every metric by every grouping (`pairs` False: by each dimension alone),
    then a filtered one and a player's."""
    groupings = [[d] for d in DIMENSIONS] + ([list(p) for p in itertools.combinations(DIMENSIONS, 2)] if pairs
                                             else [])
    asked: list[Question] = [(f"{m} by {'+'.join(by)}", m, by, {}, None) for m in METRICS for by in groupings]
    for metric in METRICS:
        asked.append((f"{metric} by month, seats=3 bot=human", metric, ["month"], {"seats": "3", "bot": "human"},
                      None))
        asked.append((f"{metric} by seat, player {rows_player}", metric, ["seat"], {}, rows_player))
        asked.append((f"{metric} by seat+opening, edition=1 bot=human {TIMELESS}", metric, ["seat", "opening"],
                      {"edition": "1", "bot": "human"}, None))
        asked.append((f"{metric} by month+seat, edition=1 bot=human {MONTH_FOUR}", metric, ["month", "seat"],
                      {"edition": "1", "bot": "human"}, None))
        asked.append((f"{metric} by month+seat, edition=1 bot=human seats=3 {MONTH_FIVE}", metric, ["month", "seat"],
                      {"edition": "1", "bot": "human", "seats": "3"}, None))
        asked.append((f"{metric} by month+opening, edition=1 rating_band=unrated seats=3 {SEVEN}", metric,
                      ["month", "opening"], {"edition": "1", "rating_band": "unrated", "seats": "3"}, None))
        asked.append((f"{metric} by seat+opening, month={MONTHS[-1]} edition=1 bot=human {ONE_MONTH}", metric,
                      ["seat", "opening"], {"month": MONTHS[-1], "edition": "1", "bot": "human"}, None))
    return asked


# Beyond the sets of three: summed from the database's cells of the six but the month or of a set of four or five
# holding the month (insight_derived_cells), else from the cells of all seven (every month's, or one month's).
TIMELESS = "(4 dimensions, not the month: the six's cells)"
MONTH_FOUR = "(4 dimensions, the month one: a month four's cells)"
MONTH_FIVE = "(5 dimensions, the month one: a month five's cells)"
SEVEN = "(5 dimensions, the month, opening and band among them: all seven's cells)"
ONE_MONTH = "(5 dimensions, one month: its cells of all seven)"
BEYOND = (TIMELESS, MONTH_FOUR, MONTH_FIVE, SEVEN, ONE_MONTH)


def time_queries(store: Any, runs: int, pairs: bool) -> list[tuple[str, float, float]]:
    """(question, p50 ms, p95 ms) of each question over `runs` runs."""
    reads = Insights(store)
    found = []
    for label, metric, by, where, player in questions("p42", pairs):
        timings = []
        for _ in range(runs):
            started = time.perf_counter()
            reads.answer([GAME], metric, by, where, player)
            timings.append((time.perf_counter() - started) * 1000)
        timings.sort()
        found.append((label, statistics.median(timings), timings[min(len(timings) - 1, round(0.95 * (runs - 1)))]))
    return found


def measure(kind: str, url: str, sizes: list[int], runs: list[int], pairs_up_to: int, detail: bool) -> None:
    """Grow the store's facts size by size, timing the questions at each."""
    store = open_store(url)
    rng = random.Random(42)
    shapes = templates(rng)
    loaded = 0
    try:
        for size, times in zip(sizes, runs + runs[-1:] * len(sizes), strict=False):
            started = time.perf_counter()
            load(store, kind, fact_rows(rng, shapes, loaded, size - loaded))
            took, loaded = time.perf_counter() - started, size
            started = time.perf_counter()
            summed(store, kind)
            summing = time.perf_counter() - started
            timed = time_queries(store, times, size <= pairs_up_to)
            within = [t for t in timed if not any(label in t[0] for label in BEYOND)]
            beyond = [max(t[2] for t in timed if label in t[0]) for label in BEYOND]
            worst = max(within, key=lambda t: t[2])
            print(f"| {kind} | {size:,} | {times} | {took:.0f} s + {summing:.0f} s | "
                  f"{statistics.median(t[1] for t in within):.0f} ms | {worst[2]:.0f} ms ({worst[0]}) | "
                  f"{sum(t[2] <= 100 for t in within)} / {len(within)} | "
                  f"{' | '.join(f'{p95:.0f} ms' for p95 in beyond)} | {os.getloadavg()[0]:.1f} |", flush=True)
            if detail and kind == "postgres":
                print(f"    {kind} {size}: tables: {tables(store, kind)}")
            for label, p50, p95 in timed if detail else []:
                print(f"    {kind} {size}: {label}: p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[10_000, 100_000])
    parser.add_argument("--runs", nargs="+", type=int, default=[5, 3],
                        help="runs of each question, per size (the last repeats)")
    parser.add_argument("--pairs-up-to", type=int, default=10**7,
                        help="above this many matches, the groupings by two dimensions are left out (time)")
    parser.add_argument("--detail", action="store_true", help="print every question's p50 and p95")
    args = parser.parse_args()
    print("| store | matches | runs | load + rollups | median p50 | worst p95 (question) | questions ≤ 100 ms p95 | "
          "worst p95 of 4 dimensions, not the month | 4, the month one | 5, grouped by the month | 5, grouped by the "
          "month, opening and band named | 5, one month | load avg |\n" + "|---" * 13 + "|")
    if "sqlite" in args.stores:
        with tempfile.TemporaryDirectory() as folder:
            measure("sqlite", f"sqlite:///{folder}/bench.db", args.sizes, args.runs, args.pairs_up_to, args.detail)
    server = os.environ.get("TURNSTILE_DATABASE_URL", "")
    if "postgres" in args.stores and server.startswith(("postgresql://", "postgres://")):
        with throwaway_database(server=server) as url:
            measure("postgres", url, args.sizes, args.runs, args.pairs_up_to, args.detail)


if __name__ == "__main__":
    main()
