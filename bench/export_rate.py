"""Measure the bulk export (GET /v1/exports/matches): records a second, in process and over HTTP, per store.

    uv run python bench/export_rate.py                 # 2,000 finished matches per store
    uv run python bench/export_rate.py --matches 200   # quicker
    TURNSTILE_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres uv run python bench/export_rate.py

Each store (a temporary SQLite file; with the variable, a throwaway PostgreSQL database, dropped after) gets
`--matches` finished matches: nine in ten ended at once by a resignation (≈ 6 events each), one in ten a short
played Expect Delays match (`max_turns` 12, ≈ 100 events). The transparency log is sequenced and signed, so every
record carries its log proof, as a served export's does. Then the whole export is read: by the service
(service/reads/exports.py, the lines as the route streams them) and over HTTP through the app (Litestar's test
client: the app's own work, no network, the client in this process; what the process made before is frozen out of
the collector's reach, as a served process's is), three times each, and on PostgreSQL also from a `turnstile serve`
process of its own, with the log's key, by curl (a client elsewhere: its reading costs the server nothing; the bytes
it reads are checked against the in-process export's); the best time is reported, and the first (cold) run's rate.
The machine is shared: beside wall time the table gives records per CPU second of this process (`cpu rate`,
time.process_time: what one free core would give, the database's own CPU left out for PostgreSQL; none for the served
process).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from litestar.testing import TestClient  # noqa: E402

from api.app import create_app  # noqa: E402
from bench.load import (
    served,  # noqa: E402
    throwaway_database,  # noqa: E402
)
from domain.catalog import by_slug  # noqa: E402
from domain.lifecycle import Resign  # noqa: E402
from ledger.notes import Signer  # noqa: E402
from service.log.transparency import DEFAULT_ORIGIN, Transparency, write_key  # noqa: E402
from service.matches.matches import MatchService  # noqa: E402
from service.matches.simulate import play_random_match  # noqa: E402
from service.reads.audit import Audit  # noqa: E402
from service.reads.exports import Exports  # noqa: E402
from store.exports import ExportQuery  # noqa: E402
from store.factory import open_store  # noqa: E402
from store.read_models import Store  # noqa: E402


def fill(store: Store, matches: int) -> None:
    """`matches` finished matches: most resigned at once, one in ten played out."""
    service = MatchService(store)
    game = by_slug("expect-delays")
    assert game is not None
    rng = random.Random(7)
    for n in range(matches):
        if n % 10 == 9:
            play_random_match(service, game, ["ada", "bob"], rng, {"max_turns": 12})
            continue
        match_id = service.create("expect-delays", [f"p{n % 50}", f"q{n % 37}"], None).record.id
        service.play(match_id, 0, Resign(), expected_version=None, command_id=None)


def best_of(runs: int, work: Callable[[], int]) -> tuple[int, float, float, float]:
    """(records, seconds, CPU seconds) of the fastest of `runs` runs, and the first run's seconds."""
    timings = []
    for _ in range(runs):
        started, cpu = time.perf_counter(), time.process_time()
        count = work()
        timings.append((time.perf_counter() - started, time.process_time() - cpu, count))
    seconds, cpu_seconds, count = min(timings)
    return count, seconds, cpu_seconds, timings[0][0]


def measure(name: str, url: str, matches: int) -> None:
    """Fill a store, then time the export in process and over HTTP."""
    store = open_store(url)
    try:
        started = time.perf_counter()
        fill(store, matches)
        log = Transparency(store, Signer.generate(DEFAULT_ORIGIN))
        log.catch_up()  # every event a leaf, and a signed checkpoint: records carry their proofs
        if name == "postgres":  # as autovacuum would have by now (it may be off on a bench server): plans by statistics
            with store._pool.connection() as conn:  # type: ignore[attr-defined]
                conn.execute("ANALYZE")
        filled = time.perf_counter() - started
        exports = Exports(store, Audit(store, log=log))
        in_process = best_of(3, lambda: sum(1 for _ in exports.lines(ExportQuery(), 0, 10**9)))
        app = create_app(store, log=log)
        gc.freeze()  # as a served process does once its app is built (api/asgi.py)
        with TestClient(app) as client:
            def over_http() -> int:
                with client.stream("GET", "/v1/exports/matches", params={"limit": 100_000}) as answer:
                    return sum(1 for _ in answer.iter_lines())
            http = best_of(3, over_http)
        gc.unfreeze()
        measured = [("in process", in_process), ("over HTTP", http)]
        if name == "postgres":
            measured.append(("served, curl", served_rate(url, log, exports)))
        for how, (count, seconds, cpu, first) in measured:
            assert count == matches, (count, matches)
            print(f"| {name} | {how} | {count} | {seconds:.2f} s | {count / seconds:,.0f} records/s | "
                  f"{count / first:,.0f} records/s | {f'{count / cpu:,.0f} records/s' if cpu else '–'} |")
        print(f"  ({name}: filled in {filled:.1f} s)")
    finally:
        store.close()


def served_rate(url: str, log: Transparency, exports: Exports) -> tuple[int, float, float, float]:
    """The export as a client elsewhere reads it: `turnstile serve` on the store (its own process, with the log's key,
    so its records carry their proofs as the others do) and curl, which only counts the lines, after checking they
    are the bytes `exports` gives now (the served process may have signed a newer checkpoint as it started); best of
    three (records, seconds, 0: no CPU of ours to count, the first run's seconds)."""
    assert log.signer is not None
    with tempfile.TemporaryDirectory() as folder:
        key = Path(folder) / "log.key"
        write_key(key, log.signer)
        with served(url, env={"TURNSTILE_LOG_KEY": str(key)}) as base:
            time.sleep(3)  # the new process's background start (projections, sequencer) settles first
            expected = hashlib.sha256(b"".join(exports.lines(ExportQuery(), 0, 10**9))).hexdigest()

            def read() -> int:
                answer = subprocess.run(["curl", "-sfN", f"{base}/v1/exports/matches?limit=100000"], check=True,
                                        capture_output=True)
                assert hashlib.sha256(answer.stdout).hexdigest() == expected, "the served export differs"
                return answer.stdout.count(b"\n")
            count, seconds, _, first = best_of(3, read)
    return count, seconds, 0.0, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    args = parser.parse_args()
    print("| store | read | records | time | rate | cold rate | cpu rate |\n|---|---|---|---|---|---|---|")
    print(f"  (load average {os.getloadavg()[0]:.1f})")
    with tempfile.TemporaryDirectory() as folder:
        measure("sqlite", f"sqlite:///{folder}/bench.db", args.matches)
    server = os.environ.get("TURNSTILE_DATABASE_URL", "")
    if server.startswith(("postgresql://", "postgres://")):
        with throwaway_database(server=server) as url:
            measure("postgres", url, args.matches)


if __name__ == "__main__":
    main()
