"""Moves at the speed of the database? Turnstile and its peers measured side by side in one run (issue 13).

    uv run python bench/throughput.py                 # 8 clients, 10 s per system, two rounds (≈ 8 min)
    uv run python bench/throughput.py --smoke         # everything for half a second with 2 clients (≈ 50 s)
    uv run python bench/throughput.py --only http-pg,granian --seconds 5

Systems (each its own throwaway PostgreSQL database on TURNSTILE_DATABASE_URL's server, or a temporary SQLite file):
raw single-row INSERTs, `eventsourcing` get+add+save, Turnstile's match service in-process, and Turnstile over
HTTP (a server process started here: `turnstile serve`, or granian, or uvicorn's pure-Python stack) with clients
playing random legal moves of five games, one request per move or the old three. Then, at half the measured HTTP
rate, the latency; a move at version 50 vs 500 (warm cache and cold); reading the global log; rebuilding the
projections. Speed is printed, never asserted; compare systems within one run, not across runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import clients  # noqa: E402
import load  # noqa: E402
import peers  # noqa: E402

GAMES = ["expect-delays", "touched-on", "terminus", "metro-x", "mass-transit"]
SYSTEMS = ["raw", "raw-notify", "bare", "eventsourcing", "inprocess-pg", "http-pg", "http-pg-3", "http-sqlite",
           "http-sqlite-3", "granian", "uvicorn-h11", "no-projections", "paced", "flat", "log"]


def app_key(url: str) -> str:
    """A fresh app key recorded in the store at `url`."""
    from service.matches.tokens import new_secret, secret_hash
    from store.factory import open_store

    store = open_store(url)
    try:
        key = new_secret("app")
        store.create_app_key("bench", secret_hash(key))
    finally:
        store.close()
    return key


@contextlib.contextmanager
def store_url(kind: str) -> Iterator[str]:
    """A fresh store: a PostgreSQL database or a SQLite file."""
    if kind == "pg":
        with load.throwaway_database() as url:
            yield url
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{folder}/bench.db"


@contextlib.contextmanager
def own_redis() -> Iterator[str]:
    """A redis-server of our own on a free port (no persistence), stopped by its pid afterwards."""
    port = load.free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.3)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Table:
    """Rows of (system, round) results, printed as they come and as a table at the end."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple[load.Measured, str]]] = {}
        self.notes: list[str] = []

    def add(self, name: str, measured: load.Measured) -> None:
        load_now = load.load_average()
        self.rows.setdefault(name, []).append((measured, load_now))
        extra = ""
        if "requests" in measured.counts:
            extra = (f", {measured.counts['requests'] / max(measured.counts['moves'], 1):.2f} requests/move, "
                     f"POST p50/p99 {measured.pct(0.5, 'post_times'):.1f}/{measured.pct(0.99, 'post_times'):.1f} ms")
        ops = measured.counts.get("moves", measured.ops) or 1
        extra += f", clients' CPU {1000 * measured.counts.get('client_cpu_s', 0.0) / ops:.2f} ms/op"
        if "server_cpu_s" in measured.counts:
            extra += f", server CPU {1000 * measured.counts['server_cpu_s'] / ops:.2f} ms/op"
        print(f"  {name:<16} {measured.rate:9,.0f}/s  p50/p99 {measured.pct(0.5):6.1f}/{measured.pct(0.99):6.1f} ms"
              f"{extra}  (load {load_now})", flush=True)

    def best(self, name: str) -> float:
        return max((m.rate for m, _ in self.rows.get(name, [])), default=float("nan"))

    def mean(self, name: str) -> float:
        rates = [m.rate for m, _ in self.rows.get(name, [])]
        return statistics.fmean(rates) if rates else float("nan")

    def print(self) -> None:
        raw, es = self.mean("raw"), self.mean("eventsourcing")
        print("\n| system (same run) | ops/s, round by round | p50 / p99 ms | POST p50 / p99 ms | requests/move "
              "| vs raw INSERT | vs eventsourcing | load average |")
        print("|---|---|---|---|---|---|---|---|")
        for name, runs in self.rows.items():
            rates = " / ".join(f"{m.rate:,.0f}" for m, _ in runs)
            lat = " ; ".join(f"{m.pct(0.5):.1f} / {m.pct(0.99):.1f}" for m, _ in runs)
            post = " ; ".join(f"{m.pct(0.5, 'post_times'):.1f} / {m.pct(0.99, 'post_times'):.1f}"
                              for m, _ in runs if "post_times" in m.counts) or "-"
            per = " / ".join(f"{m.counts['requests'] / max(m.counts['moves'], 1):.2f}"
                             for m, _ in runs if "requests" in m.counts) or "-"
            mean = self.mean(name)
            loads = " ; ".join(a for _, a in runs)
            print(f"| {name} | {rates} | {lat} | {post} | {per} | {100 * mean / raw:.1f} % | {mean / es:.2f}× "
                  f"| {loads} |")
        for note in self.notes:
            print(note)


def measure(table: Table, name: str, make: Callable[[Any], Any], args: list[Any], seconds: float,
            rate: float | None = None, server: int | None = None) -> load.Measured:
    measured = load.run_clients(make, args, seconds, rate, server)
    table.add(name, measured)
    return measured


def run_raw(table: Table, n: int, seconds: float, notify: bool = False) -> None:
    with load.throwaway_database("turnstile_bench_raw") as url:
        peers.raw_setup(url)
        step = peers.RawInsertNotify if notify else peers.RawInsert
        measure(table, "raw-notify" if notify else "raw", step, [url] * n, seconds)


def run_bare(table: Table, n: int, seconds: float, workers: int) -> None:
    """The bare-stack peer (bench/bare_app.py): one INSERT per POST through the same framework, server and driver."""
    with load.throwaway_database("turnstile_bench_bare") as url:
        pids: list[int] = []
        with load.served(url, "bare", workers, None, pids) as base:
            measure(table, "bare-stack", clients.BarePoster, [base] * n, seconds, None, pids[0])


def run_es(table: Table, n: int, seconds: float, aggregates: int) -> None:
    with load.throwaway_database("turnstile_bench_es") as url:
        peers.es_setup(url)
        measure(table, "eventsourcing", peers.EsGetSave, [(url, aggregates)] * n, seconds)


def run_inprocess(table: Table, n: int, seconds: float) -> None:
    with store_url("pg") as url:
        app_key(url)  # opens the store once, so the clients do not all migrate at once
        measure(table, "inprocess-pg", clients.InProcessMover, [(url, rotate(i), i) for i in range(n)], seconds)


def rotate(i: int) -> list[str]:
    """Client i's games: all five, starting at a different one."""
    return GAMES[i % len(GAMES):] + GAMES[:i % len(GAMES)]


def run_http(table: Table, name: str, kind: str, n: int, seconds: float, *, mode: str = "one",
             stack: str = "turnstile", workers: int = 1, env: dict[str, str] | None = None,
             rate: float | None = None, after: Callable[[str], None] | None = None) -> load.Measured:
    with store_url(kind) as url:
        key = app_key(url)
        pids: list[int] = []
        with load.served(url, stack, workers, env, pids) as base:
            measured = measure(table, name, clients.HttpMover, [(base, key, rotate(i), i, mode) for i in range(n)],
                               seconds, rate, pids[0])
        if after is not None:
            after(url)
    return measured


def read_log(store: Any) -> tuple[int, float]:
    """Read the whole global log once, in pages of 500: (events, seconds)."""
    began, after, count = time.perf_counter(), 0, 0
    while page := store.read_all(after, 500):
        count += len(page)
        after = page[-1].position
    return count, time.perf_counter() - began


def log_and_rebuild(table: Table, url: str) -> None:
    """Read the whole global log, then rebuild every projection from it, in this process."""
    from projections.catalog import PROJECTIONS
    from service.reads.runner import rebuild_all
    from settings import Settings
    from store.factory import open_store

    store = open_store(url)
    try:
        passes = [read_log(store) for _ in range(3)]  # the first on a new pool: connects, prepares, warms caches
        count = passes[0][0]
        read_rates = [n / seconds for n, seconds in passes]
        began = time.perf_counter()
        batch = Settings().projection_batch
        rebuild_all(store, PROJECTIONS, batch)
        rebuild_s = time.perf_counter() - began
    finally:
        store.close()
    table.notes.append(f"- global log read ({count:,} events, pages of 500, one reader, three passes): "
                       f"{' / '.join(f'{r:,.0f}' for r in read_rates)} events/s; rebuild of all "
                       f"{len(PROJECTIONS)} projections into PostgreSQL (batches of {batch}): "
                       f"{count / rebuild_s:,.0f} log events/s ({rebuild_s:.2f} s) (load {load.load_average()})")
    print(table.notes[-1], flush=True)


def flat_cost(table: Table, kind: str, near: int, far: int, matches: int, moves: int) -> None:
    """Moves on matches at version `near` vs `far`, alternating: with the cache warm; `behind` (two services take
    turns on each match, as two server processes do, so each move first folds the other's move); and cold (a fresh
    service per move, as in a process that never saw the match: it reads and folds the whole match)."""
    from domain import match
    from domain.catalog import by_slug
    from service.matches.matches import MatchService
    from store.factory import open_store

    game = by_slug("expect-delays")  # default options: up to 300 turns, so a match passes version 500
    assert game is not None
    rng = random.Random(13)
    with store_url(kind) as url:
        store = open_store(url)
        service = MatchService(store)

        chooser = MatchService(store)  # reads the match as stored (untimed) to choose a legal move

        def move(svc: MatchService, match_id: str) -> float | None:
            state = chooser.load(match_id).state
            seats = match.to_move(game, state)
            if not seats:
                return None
            seat = rng.choice(seats)
            command = rng.choice(match.legal(game, state, seat))
            began = time.perf_counter()
            svc.play(match_id, seat, command, expected_version=state.version, command_id=None)
            return time.perf_counter() - began

        def at(version: int) -> str:
            while True:
                match_id = service.create(game.slug, ["ada", "grace"], None).record.id
                while service.cached(match_id).state.version < version:
                    if move(service, match_id) is None:
                        break
                else:
                    return match_id

        # Separate matches for the warm and the cold service, so a cold move never leaves the warm cache behind.
        caches = ("warm", "behind", "cold")
        sets = {(cache, v): [at(v) for _ in range(matches)] for cache in caches for v in (near, far)}
        other = MatchService(store)
        for v in (near, far):  # the second process has seen these matches before, so it is only behind
            for match_id in sets[("behind", v)]:
                other.load(match_id)
        times: dict[tuple[str, int], list[float]] = {}
        for turn in range(moves):
            for i in range(matches):
                for version in (near, far):
                    for cache in caches:
                        svc = {"warm": service, "behind": (service, other)[turn % 2],
                               "cold": MatchService(store)}[cache]
                        took = move(svc, sets[(cache, version)][i])
                        if took is not None:
                            times.setdefault((cache, version), []).append(took)
        store.close()
    for cache in ("warm", "behind", "cold"):
        med = {v: statistics.median(times[(cache, v)]) * 1000 for v in (near, far)}
        p90 = {v: sorted(times[(cache, v)])[int(0.9 * len(times[(cache, v)]))] * 1000 for v in (near, far)}
        table.notes.append(f"- {kind} move, {cache} cache: version {near} median {med[near]:.2f} ms (p90 "
                           f"{p90[near]:.2f}), version {far} median {med[far]:.2f} ms (p90 {p90[far]:.2f}): "
                           f"{far} / {near} = {med[far] / med[near]:.2f} (load {load.load_average()})")
        print(table.notes[-1], flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per system and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8, help="client processes")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="server processes on PostgreSQL (SQLite: 1)")
    parser.add_argument("--only", default=",".join(SYSTEMS), help=f"comma-separated subset of {','.join(SYSTEMS)}")
    parser.add_argument("--smoke", action="store_true", help="everything for half a second with 2 clients (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.rounds, args.clients = 0.5, 1, 2
    only = set(args.only.split(","))
    if unknown := only - set(SYSTEMS):
        parser.error(f"unknown systems: {', '.join(sorted(unknown))}")
    if "no-projections" in only and shutil.which("redis-server") is None:
        print("no redis-server on PATH: skipping no-projections", file=sys.stderr)
        only.discard("no-projections")
    n, s, w = args.clients, args.seconds, args.workers
    print(f"# {n} clients, {s:g} s per system, {args.rounds} round(s), {w} server workers on PostgreSQL, "
          f"{os.cpu_count()} CPUs, load {load.load_average()}", flush=True)
    table = Table()
    http_rates: list[float] = []
    for number in range(1, args.rounds + 1):
        print(f"round {number}", flush=True)
        if "raw" in only:
            run_raw(table, n, s)
        if "raw-notify" in only:
            run_raw(table, n, s, notify=True)
        if "bare" in only:
            run_bare(table, n, s, w)
        if "eventsourcing" in only:
            run_es(table, n, s, aggregates=3 if args.smoke else 20)
        if "inprocess-pg" in only:
            run_inprocess(table, n, s)
        if "http-pg" in only:
            last = number == args.rounds and "log" in only
            http_rates.append(run_http(table, "http-pg", "pg", n, s, workers=w,
                                       after=(lambda url: log_and_rebuild(table, url)) if last else None).rate)
        if "http-pg-3" in only:
            run_http(table, "http-pg-3", "pg", n, s, mode="three", workers=w)
        if "http-sqlite" in only:
            run_http(table, "http-sqlite", "sqlite", n, s)
        if "http-sqlite-3" in only:
            run_http(table, "http-sqlite-3", "sqlite", n, s, mode="three")
        if "granian" in only:
            run_http(table, "granian-pg", "pg", n, s, stack="granian", workers=w)
        if "uvicorn-h11" in only:
            run_http(table, "uvicorn-h11-pg", "pg", n, s, stack="uvicorn-h11", workers=1)
        if "no-projections" in only:
            with own_redis() as redis_url:  # moves enqueue to a Redis no worker serves: nothing folds
                run_http(table, "http-pg-no-proj", "pg", n, s, workers=w,
                         env={"TURNSTILE_REDIS_URL": redis_url, "TURNSTILE_QUEUE": "bench"})
    if "paced" in only and http_rates:
        rate = statistics.fmean(http_rates) / 2
        print(f"paced: {rate:,.0f} moves/s in all (half the http-pg mean)", flush=True)
        run_http(table, "http-pg-half-rate", "pg", n, s, workers=w, rate=rate / n)
    if "flat" in only:
        near, far = (20, 60) if args.smoke else (50, 500)
        for kind in ("pg", "sqlite"):
            flat_cost(table, kind, near, far, matches=2 if args.smoke else 8, moves=2 if args.smoke else 10)
    if table.rows or table.notes:
        table.print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
