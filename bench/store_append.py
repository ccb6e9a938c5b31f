"""Measure event-store throughput: appends/s and read_all events/s, for each adapter at 1, 4 and 8 threads.

    uv run python bench/store_append.py                       # SQLite file + :memory:
    TURNSTILE_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres uv run python bench/store_append.py

PostgreSQL runs in a throwaway database (created, then dropped). Each append is what a move costs:
one event of ~250 bytes of JSON, with seat, command and command id, at the match's expected version.
Each writer thread plays its own match, so the numbers show the store, not optimistic-concurrency retries.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import throwaway_database  # noqa: E402
from ledger.events import NewEvent, NewMatch, SeatRecord
from store.base import EventStore
from store.factory import open_store  # noqa: E402

PAYLOAD: dict[str, Any] = {
    "type": "expect-delays.line-run",
    "seat": 1,
    "line": "red",
    "from": "Bank",
    "to": "Angel",
    "cards": [3, 5, 8, 13],
    "delays": {"signal": 1, "crowding": 0},
    "score": 12.5,
}
COMMAND = {"type": "expect-delays.run-line", "line": "red", "cards": [3, 5, 8, 13]}


def run_threads(count: int, work: Callable[[int], int]) -> float:
    """Run work(i) on `count` threads at once; the total it returns per second of wall time."""
    totals = [0] * count
    barrier = threading.Barrier(count + 1)

    def body(i: int) -> None:
        barrier.wait()
        totals[i] = work(i)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    barrier.wait()
    began = time.perf_counter()
    for t in threads:
        t.join()
    return sum(totals) / (time.perf_counter() - began)


def bench_appends(store: EventStore, threads: int, seconds: float) -> float:
    """Appends per second with `threads` writers, each on its own match."""

    def writer(i: int) -> int:
        match_id = f"bench-{threads}-{i}-{secrets.token_hex(4)}"
        record = NewMatch(id=match_id, game="expect-delays", rules_version="1",
                          seats=(SeatRecord(0, "ann", "h0"), SeatRecord(1, "bob", "h1")), options={}, seed="seed",
                          seed_commitment="commit")
        version = store.create_match(record, [NewEvent("match.started", {"type": "match.started"})]).version
        deadline, done = time.perf_counter() + seconds, 0
        while time.perf_counter() < deadline:
            result = store.append(
                match_id, version, [NewEvent(PAYLOAD["type"], PAYLOAD)],
                seat=1, command=COMMAND, command_id=f"c{version}",
            )
            version, done = result.version, done + 1
        return done

    return run_threads(threads, writer)


def bench_read_all(store: EventStore, threads: int) -> float:
    """Events per second read by `threads` readers, each paging through the whole log (500 per page)."""

    def reader(_: int) -> int:
        after, seen = 0, 0
        while batch := store.read_all(after, limit=500):
            after, seen = batch[-1].position, seen + len(batch)
        return seen

    return run_threads(threads, reader)


def measure(label: str, url: str, thread_counts: list[int], seconds: float) -> None:
    """Print one markdown row per thread count for the store at `url`."""
    store = open_store(url)
    try:
        for n in thread_counts:
            appends = bench_appends(store, n, seconds)
            reads = bench_read_all(store, n)
            print(f"| {label} | {n} | {appends:,.0f} | {reads:,.0f} | {store.head_position():,} |", flush=True)
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="append phase length per thread count")
    parser.add_argument("--threads", default="1,4,8")
    parser.add_argument("--pg", default=os.environ.get("TURNSTILE_DATABASE_URL", ""), help="PostgreSQL server URL")
    args = parser.parse_args()
    counts = [int(n) for n in args.threads.split(",")]
    print("| adapter | threads | appends/s | read_all events/s | events in log |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        measure("SQLite file (WAL, synchronous=FULL)", f"sqlite:///{tmp}/bench.db", counts, args.seconds)
    measure("SQLite :memory:", "sqlite:///:memory:", counts, args.seconds)
    if args.pg:
        with throwaway_database(server=args.pg) as url:
            measure("PostgreSQL (pool 1..10)", url, counts, args.seconds)
    else:
        print("(PostgreSQL skipped: set TURNSTILE_DATABASE_URL or --pg)", file=sys.stderr)


if __name__ == "__main__":
    main()
