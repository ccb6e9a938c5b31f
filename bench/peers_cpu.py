"""Turnstile against the servers a user would pick instead, by CPU per move, in one command (issue 45).

    uv run python bench/peers_cpu.py --seconds 10            # 8 clients, 10 s per system, one round (≈ 2 min)
    uv run python bench/peers_cpu.py --rounds 2 --only es,es-cache,turnstile
    uv run python bench/peers_cpu.py --only bare,turnstile --games expect-delays,terminus,metro-x  # a row a game
    uv run python bench/peers_cpu.py --smoke                 # 1 s per system with 2 clients

Systems, each on its own throwaway PostgreSQL database on TURNSTILE_DATABASE_URL's server, each server started here
and stopped afterwards:
- `bare`: bench/bare_app.py, one INSERT per POST through Litestar and uvicorn: the stack's floor, per request.
- `turnstile`: `turnstile serve`, clients playing over HTTP (bench/clients.py's HttpMover), one row per game of
  `--games` (default Expect Delays), each on its own database and server.
- `es`, `es-cache`: bench/es_app.py, the eventsourcing library behind the same stack, one aggregate per match and a
  POST per move, without its aggregate cache (its default) and with it.
- `boardgameio`: boardgame.io 0.50.2 with bgio-postgres (bench/peers/boardgameio/), its own clients over socket.io,
  a 30-card two-player game with secret hands. Needs `npm ci` in that folder once (Node 20); skipped, and said so,
  when its node_modules is missing.

Over the clients' window it reads from /proc the CPU of the server's whole process tree (its session) and of the
PostgreSQL backends serving its database (bench/load.py's BackendsCpu: the cluster's shared WAL writer and
checkpointer are not counted, for any system). CPU per move is what ranks them: the clients share the machine's
cores, so moves per second alone flatters whoever has the cheapest client. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import clients  # noqa: E402
import load  # noqa: E402

SYSTEMS = ["bare", "turnstile", "turnstile-granian", "es", "es-cache", "boardgameio"]
BGIO = Path(__file__).resolve().parent / "peers" / "boardgameio"
ES_CACHE = "1000"  # matches in each worker's aggregate cache: more than the clients ever play at once


def database_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


class EsMover:
    """A client of bench/es_app.py on one keep-alive connection: a match at a time, a random card of the seat to
    move's hand per POST (both seats played by this client, as HttpMover plays every seat of its matches)."""

    def __init__(self, arg: tuple[str, int]) -> None:
        from urllib.parse import urlsplit

        base, seed = arg
        where = urlsplit(base)
        self.http = clients.KeepAlive(where.hostname or "127.0.0.1", where.port or 80)
        self.rng = random.Random(seed)
        self.moves = self.requests = 0
        self._new()

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        status, data = self.http.request("POST", path, "-", json.dumps(body).encode())
        self.requests += 1
        if status >= 300:
            raise RuntimeError(f"POST {path}: {status} {data[:300]!r}")
        return dict(json.loads(data))

    def _new(self) -> None:
        created = self._post("/matches", {})
        self.match_id, self.hands, self.turn = created["id"], created["hands"], 0

    def __call__(self) -> None:
        if not self.hands[self.turn]:
            self._new()
        seat = self.turn
        card = self.rng.choice(self.hands[seat])
        self.hands[seat] = self._post(f"/matches/{self.match_id}/moves", {"seat": seat, "card": card})["hand"]
        self.turn = 1 - seat
        self.moves += 1

    def counts(self) -> dict[str, Any]:
        return {"moves": self.moves, "requests": self.requests}


class Row:
    """One system's result in one round."""

    def __init__(self, name: str, moves: int, seconds: float, server_s: float, pg_s: float, client_s: float,
                 requests: int | None) -> None:
        self.name, self.moves, self.seconds = name, max(moves, 1), seconds
        self.work: DatabaseWork | None = None  # what the database was asked to do, read once the server stopped
        self.server_ms = 1000 * server_s / self.moves
        self.pg_ms = 1000 * pg_s / self.moves
        self.client_ms = 1000 * client_s / self.moves
        self.per_move = f"{requests / self.moves:.2f}" if requests is not None else "–"
        self.load = load.load_average()

    def printed(self) -> None:
        print(f"  {self.name:<24} {self.moves / self.seconds:8,.0f} moves/s, server CPU {self.server_ms:.2f} ms/move, "
              f"PostgreSQL CPU {self.pg_ms:.2f} ms/move, clients' CPU {self.client_ms:.2f} ms/move, "
              f"{self.per_move} requests/move (load {self.load})", flush=True)


class DatabaseWork:
    """What one system's database did, per move, read from PostgreSQL's statistics once its server has stopped
    (a backend's counts are flushed when it exits): transactions committed, rows written (inserted, updated or
    deleted) and bytes stored, in all and by table. Counted over the database's whole life (the clients' setup,
    their matches' creation included) and divided by the moves of the clients' window, so a little high."""

    def __init__(self, url: str, moves: int) -> None:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            # The statistics of backends that exited are visible once flushed (at exit); give them a moment.
            time.sleep(0.5)
            conn.execute("SELECT pg_stat_clear_snapshot()")
            commits = conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
                                   ).fetchone()
            tables = conn.execute(
                "SELECT relname, n_tup_ins + n_tup_upd + n_tup_del, pg_total_relation_size(relid) "
                "FROM pg_stat_user_tables").fetchall()
        self.moves = max(moves, 1)
        self.transactions = (int(commits[0]) if commits else 0) / self.moves
        self.rows = {name: int(written) / self.moves for name, written, _ in tables if written}
        self.bytes = {name: int(size) / self.moves for name, size, _ in [(t[0], t[2], 0) for t in tables]}

    def summary(self) -> str:
        top = sorted(self.rows.items(), key=lambda kv: -kv[1])[:6]
        return (f"{self.transactions:.2f} transactions, {sum(self.rows.values()):.1f} rows written "
                f"({', '.join(f'{name} {rows:.2f}' for name, rows in top)}), "
                f"{sum(self.bytes.values()) / 1024:.1f} KiB stored per move")


def measured(name: str, result: load.Measured) -> Row:
    counts = result.counts
    row = Row(name, counts.get("moves", result.ops), result.seconds, counts["server_cpu_s"], counts["pg_cpu_s"],
              counts.get("client_cpu_s", 0.0), counts.get("requests", result.ops if name == "bare" else None))
    row.printed()
    return row


def run_python(name: str, n: int, seconds: float, workers: int, game: str = "expect-delays",
               variant: tuple[str, dict[str, str]] | None = None) -> Row:
    """bare, turnstile (playing `game`), es or es-cache: a server of our own and n client processes (bench/load.py)."""
    import es_app
    import throughput

    with load.throwaway_database(f"turnstile_peers_{name.replace('-', '_')}") as url:
        pids: list[int] = []
        meters = {"pg_cpu_s": load.BackendsCpu(database_of(url))}
        env = {"TURNSTILE_ES_CACHE": ES_CACHE} if name == "es-cache" else variant[1] if variant else None
        ours = name.startswith("turnstile")
        key = throughput.app_key(url) if ours else ""
        if name.startswith("es"):
            es_app.setup(url)
        stack = {"bare": "bare", "turnstile": "turnstile", "turnstile-granian": "granian"}.get(name, "es")
        with load.served(url, stack, workers, env, pids) as base:
            make: Any = clients.BarePoster if name == "bare" else clients.HttpMover if ours else EsMover
            full: list[Any] = ([base] * n if name == "bare"
                               else [(base, key, [game], i, "one") for i in range(n)] if ours
                               else [(base, i) for i in range(n)])
            label = f"{name} {game}" if ours else name
            label += f" ({variant[0]})" if variant else ""
            row = measured(label, load.run_clients(make, full, seconds, None, pids[0], meters))
        row.work = DatabaseWork(url, row.moves)  # the server has stopped: its backends' counts are flushed
        print(f"  {'':<24} database: {row.work.summary()}", flush=True)
        return row


def said_ready(log: Any) -> bool:
    """Whether the server's log (a file it writes to) begins with server.js's "ready"."""
    log.seek(0)
    return bool(log.read().startswith(b"ready"))


@contextlib.contextmanager
def bgio_server(url: str) -> Iterator[tuple[str, int]]:
    """boardgame.io's server on a free port, in a session of its own: (base URL, its pid); stopped by its pid."""
    port = load.free_port()
    env = {**os.environ, "BGIO_DATABASE_URL": url, "PORT": str(port)}
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed below; a pipe could fill and stall the server)
    proc = subprocess.Popen(["node", "server.js"], cwd=BGIO, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not said_ready(log):
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"boardgame.io server did not start: {log.read().decode()[-2000:]}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the session we started, by its id
            proc.wait()
        log.close()


def run_bgio(n: int, seconds: float) -> Row:
    """boardgame.io: its server, and n of its clients spread over two node processes (node runs one thread)."""
    with load.throwaway_database("turnstile_peers_bgio") as url, bgio_server(url) as (base, pid):
        meter = load.BackendsCpu(database_of(url))
        shares = [n // 2 + n % 2, n // 2] if n > 1 else [n]
        procs = [subprocess.Popen(["node", "clients.js", base, str(k), str(seconds)], cwd=BGIO, text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE) for k in shares]
        try:
            for proc in procs:
                assert proc.stdout is not None
                if (line := proc.stdout.readline()).strip() != "ready":
                    raise RuntimeError(f"boardgame.io clients did not start: {line!r}")
            server_began, pg_began, began = load.session_cpu_s(pid), meter(), time.perf_counter()
            for proc in procs:
                assert proc.stdin is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
            outs = [json.loads(proc.communicate(timeout=seconds + 120)[0].strip().splitlines()[-1]) for proc in procs]
            elapsed = time.perf_counter() - began
            server_s, pg_s = load.session_cpu_s(pid) - server_began, meter() - pg_began
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()  # a client process we started, by its handle
                    proc.wait()
    row = Row("boardgameio", sum(o["moves"] for o in outs), elapsed, server_s, pg_s,
              sum(o["cpu_s"] for o in outs), None)
    row.printed()
    return row


def table(rows: dict[str, list[Row]]) -> None:
    bare = [r.server_ms for r in rows.get("bare", [])]
    floor = sum(bare) / len(bare) if bare else float("nan")  # printed as "–" without the bare stack
    print("\n| system (PostgreSQL behind each) | moves/s | requests/move | server CPU per move | × bare requests "
          "| PostgreSQL CPU per move | clients' CPU per move | load average |")
    print("|---|---|---|---|---|---|---|---|")
    def cells(runs: list[Row], key: str) -> str:
        return " / ".join(f"{getattr(r, key):.2f} ms" for r in runs)

    for name, runs in rows.items():
        ratio = " / ".join(f"{r.server_ms / floor:.1f}" for r in runs) if bare else "–"
        print(f"| {name} | {' / '.join(f'{r.moves / r.seconds:,.0f}' for r in runs)} | {runs[0].per_move} "
              f"| {cells(runs, 'server_ms')} | {ratio} | {cells(runs, 'pg_ms')} | {cells(runs, 'client_ms')} "
              f"| {' ; '.join(r.load for r in runs)} |")
    print("(bare: per request, one INSERT each; × bare requests: a system's server CPU per move over bare's per "
          "request, bare's mean over the rounds)")
    print("\n| system | transactions per move | rows written per move | of which, by table | KiB stored per move |")
    print("|---|---|---|---|---|")
    for name, runs in rows.items():
        works = [r.work for r in runs if r.work is not None]
        if not works:
            continue
        by_table: dict[str, float] = {}
        for work in works:
            for table_name, written in work.rows.items():
                by_table[table_name] = by_table.get(table_name, 0.0) + written / len(works)
        top = ", ".join(f"{t} {w:.2f}" for t, w in sorted(by_table.items(), key=lambda kv: -kv[1])[:6])
        print(f"| {name} | {sum(w.transactions for w in works) / len(works):.2f} "
              f"| {sum(sum(w.rows.values()) for w in works) / len(works):.1f} | {top} "
              f"| {sum(sum(w.bytes.values()) for w in works) / len(works) / 1024:.1f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per system and round")
    parser.add_argument("--rounds", type=int, default=1, help="rounds; the systems alternate within each")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes of each Python server")
    parser.add_argument("--only", default=",".join(SYSTEMS), help=f"comma-separated subset of {','.join(SYSTEMS)}")
    parser.add_argument("--games", default="expect-delays", help="comma-separated games Turnstile's clients play, "
                        "a row each (e.g. expect-delays,touched-on,terminus,metro-x,mass-transit)")
    parser.add_argument("--smoke", action="store_true", help="1 s per system with 2 clients, one round")
    parser.add_argument("--variant", action="append", default=[], metavar="LABEL:NAME=VALUE,...",
                        help="also run `turnstile serve` with these settings, a row a game after turnstile's, e.g. "
                        "'small batches:TURNSTILE_PROJECTION_BATCH=100,TURNSTILE_INPROCESS_PROJECTION_INTERVAL_S=0.2'")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.rounds, args.clients = 1.0, 1, 2
    only = [s for s in SYSTEMS if s in set(args.only.split(","))]
    if unknown := set(args.only.split(",")) - set(SYSTEMS):
        parser.error(f"unknown systems: {', '.join(sorted(unknown))}")
    from domain.catalog import by_slug

    games = args.games.split(",")
    if unknown_games := [g for g in games if by_slug(g) is None]:
        parser.error(f"unknown games: {', '.join(unknown_games)}")
    if "boardgameio" in only and (shutil.which("node") is None or not (BGIO / "node_modules").is_dir()):
        print(f"no node or no {BGIO}/node_modules (run `npm ci` there): skipping boardgameio", file=sys.stderr)
        only.remove("boardgameio")
    print(f"# {args.clients} clients, {args.seconds:g} s per system, {args.rounds} round(s), {args.workers} workers "
          f"per Python server, {os.cpu_count()} CPUs, load {load.load_average()}", flush=True)
    variants = []
    for text in args.variant:
        label, _, settings = text.partition(":")
        pairs = [pair.partition("=") for pair in settings.split(",") if pair]
        if not label or any(not name.startswith("TURNSTILE_") or not sep for name, sep, _ in pairs):
            parser.error(f"--variant {text!r}: LABEL:TURNSTILE_NAME=VALUE,...")
        variants.append((label, {name: value for name, _, value in pairs}))
    rows: dict[str, list[Row]] = {}
    for number in range(1, args.rounds + 1):
        print(f"round {number}", flush=True)
        for name in only:
            if name == "boardgameio":
                made = [run_bgio(args.clients, args.seconds)]
            elif name.startswith("turnstile"):
                made = [run_python(name, args.clients, args.seconds, args.workers, game, variant)
                        for game in games for variant in [None, *(variants if name == "turnstile" else [])]]
            else:
                made = [run_python(name, args.clients, args.seconds, args.workers)]
            for row in made:
                rows.setdefault(row.name, []).append(row)
    table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
