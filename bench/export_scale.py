"""How the bulk export (GET /v1/exports/matches) grows with the store: 10^4 to 10^6 finished matches on PostgreSQL.

    TURNSTILE_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
      uv run python bench/export_scale.py --sizes 10000 100000 1000000 --full-at 10000 100000 --explain
    uv run python bench/export_scale.py --store sqlite --sizes 10000 100000 --full-at 10000

One throwaway PostgreSQL database (its name has `grow42` in it; dropped after; `--store sqlite`: a temporary SQLite
file) is grown in steps to each size by
bench/export_fill.py (real records: template matches played by the service, chained again under ids of their own,
COPYed; the store's own sequencer makes the log and signs a checkpoint). At each size:

- a window of `--window` records read from the start of the export, from its middle (a cursor) and from its end
  (the last `--window`), in process (`Exports.lines`, what the route streams) and over HTTP (the app through
  Litestar's test client, as bench/export_rate.py does): best of `--runs`, its records per second of wall time and
  per CPU second of this process (`cpu rate`: the figure least moved by the machine's other work; the database's
  own CPU is not in it), and the first (cold) run's rate;
- each step of one page read (`Audit.read_page`'s statements: the page of finished matches, their events, their log
  leaves, their proofs with the checkpoint), in milliseconds, best of five, at the same three places;
- with `--full-at`, the whole export read once (`Exports.lines` from the start): its wall time, and that every one
  of the N records came out (a record failing a check is left out: that would make the count short);
- with `--explain`: EXPLAIN (ANALYZE, BUFFERS) of every statement one page read from the middle makes (the
  statements captured as the store runs them), each size's added to `--plans`.

Every timed read asserts that each record passed the page's checks (none went through `Audit.export`, the careful
path), and a few lines of each window are verified by `turnstile verify --key` (chain, commitments, rules replayed,
the log proof against the signed checkpoint).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402
from litestar.testing import TestClient  # noqa: E402

from api.app import create_app  # noqa: E402
from bench.export_fill import START, load_matches, templates  # noqa: E402
from bench.export_rate import best_of  # noqa: E402
from bench.load import throwaway_database  # noqa: E402
from ledger.notes import Signer  # noqa: E402
from service.log.transparency import DEFAULT_ORIGIN, Transparency  # noqa: E402
from service.reads.audit import Audit  # noqa: E402
from service.reads.exports import ExportLine, Exports  # noqa: E402
from store.exports import ExportQuery  # noqa: E402
from store.factory import open_store  # noqa: E402
from store.sql import SqlStore  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EVERYTHING = ExportQuery()


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


class Careful(Audit):
    """The auditor, counting the records that went down the careful path (a check failed on the page)."""

    careful = 0

    def export(self, match_id: str, seat: int | None, *, full: bool = False) -> Any:
        Careful.careful += 1
        return super().export(match_id, seat, full=full)


def log_order(store: SqlStore, descending: bool = False) -> str:
    """The export's order of `match.ended` events (the store's: (xid, position) on PostgreSQL, position on SQLite)."""
    order = store._ended_after(0)[2]
    return ", ".join(f"{column} DESC" for column in order.split(", ")) if descending else order


def ended_after(store: SqlStore, index: int) -> int:
    """The cursor (a position) after which the export's record number `index` (from 0) comes."""
    if index == 0:
        return 0
    with store._reading() as conn:
        row = conn.execute(store.dialect.sql(f"SELECT events.position FROM events WHERE type = 'match.ended' "
                                             f"ORDER BY {log_order(store)} LIMIT 1 OFFSET ?"), (index - 1,)).fetchone()
    return int(row[0])


def grow(store: SqlStore, log: Transparency, have: int, size: int, kinds: list[Any]) -> None:
    """Add matches from `have` to `size`, sequence and sign the log, ANALYZE (autovacuum is off on this server)."""
    started = time.perf_counter()
    events = load_matches(store, size - have, kinds, first=have)
    copied = time.perf_counter()
    log.catch_up(limit=20_000)
    sequenced = time.perf_counter()
    with store._transaction() as conn:
        conn.execute("ANALYZE")
    db_bytes = database_bytes(store)
    print(f"  grew {have:,} → {size:,} matches (+{events:,} events): COPY {copied - started:.0f} s, sequencing "
          f"{sequenced - copied:.0f} s, ANALYZE {time.perf_counter() - sequenced:.0f} s; database "
          f"{db_bytes / 2**30:.2f} GiB ({load()})", flush=True)


def database_bytes(store: SqlStore) -> int:
    size = "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()" if store.one_writer \
        else "SELECT pg_database_size(current_database())"
    with store._reading() as conn:
        return int(conn.execute(size).fetchone()[0])


def windows(store: SqlStore, size: int, window: int) -> list[tuple[str, int]]:
    return [("start", 0), ("middle", ended_after(store, size // 2)), ("end", ended_after(store, size - window))]


def rates(store: SqlStore, log: Transparency, size: int, window: int, runs: int, key: Path | None) -> None:
    """Records a second for a window read from the start, the middle and the end, in process and over HTTP."""
    exports = Exports(store, Careful(store, log=log))
    with TestClient(create_app(store, log=log)) as client:
        for place, after in windows(store, size, window):
            def in_process(after: int = after) -> int:
                return sum(1 for _ in exports.lines(EVERYTHING, after, window))

            def over_http(after: int = after) -> int:
                with client.stream("GET", "/v1/exports/matches", params={"after": str(after), "limit": window}) as got:
                    return sum(1 for _ in got.iter_lines())

            for how, work in (("in process", in_process), ("over HTTP", over_http)):
                Careful.careful = 0
                count, seconds, cpu, first = best_of(runs, work)
                assert count == window and Careful.careful == 0, (count, Careful.careful)
                print(f"| {size:,} | {place} | {how} | {count / seconds:,.0f} | {count / first:,.0f} | "
                      f"{count / cpu:,.0f} | {load()} |", flush=True)
            spot_check(exports, after, key)


def steps(store: SqlStore, log: Transparency, size: int, window: int) -> None:
    """Milliseconds of each step of one page read (100 matches) at the start, the middle and the end."""
    audit = Audit(store, log=log)
    for place, after in windows(store, size, window):
        page = store.finished_matches(EVERYTHING, after, 100)
        ids, wanted = [f.match.id for f in page], [(f.match.id, f.match.version) for f in page]
        leaves = store.log_leaves_of_streams(ids)
        timed = {
            "matches": lambda: store.finished_matches(EVERYTHING, after, 100),  # noqa: B023
            "events": lambda: store.events_of(ids),  # noqa: B023
            "leaves": lambda: store.log_leaves_of_streams(ids),  # noqa: B023
            "proofs": lambda: log.record_proofs(wanted, leaves),  # noqa: B023
            "check+build": lambda: audit.export_page(audit.read_page(store, [f.match for f in page])),  # noqa: B023
        }
        best = {name: min(_ms(work) for _ in range(5)) for name, work in timed.items()}
        print(f"| {size:,} | {place} | " + " | ".join(f"{ms:.1f}" for ms in best.values()) + f" | {load()} |",
              flush=True)


def _ms(work: Any) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def filtered(store: SqlStore, size: int) -> None:
    """Milliseconds of one filtered request's first page (`Exports.pages`: with a time range, its span read first)
    that finds few or no matches: what a keyset on the log order scans before its page is full (best of three)."""
    last_second = START + timedelta(seconds=size)
    hundredth = max(1, size // 100)
    early, late = START + timedelta(seconds=hundredth), START + timedelta(seconds=size - hundredth)
    with store._reading() as conn:  # the cursor of an export `until=early` at its last line
        row = conn.execute(store.dialect.sql(
            "SELECT events.position FROM events WHERE type = 'match.ended' AND recorded_at < ? "
            f"ORDER BY {log_order(store, descending=True)} LIMIT 1"), (store.dialect.time(early),)).fetchone()
    cases = {
        "until 1 %, its last page": (ExportQuery(until=early), 0 if row is None else int(row[0])),
        "since 99 %, its first page": (ExportQuery(since=late), 0),
        "a player in none": (ExportQuery(player="nobody-plays-here"), 0),
        "a game with none": (ExportQuery(game="terminus"), 0),
        "since after the last": (ExportQuery(since=last_second + timedelta(days=1)), 0),
    }
    exports = Exports(store, Audit(store), page=100)
    for name, (query, after) in cases.items():
        best = min(_ms(lambda: next(exports.pages(query, after, 100), None)) for _ in range(3))  # noqa: B023
        print(f"| {size:,} | {name} | {best:,.1f} ms | {load()} |", flush=True)


def full_export(store: SqlStore, log: Transparency, size: int) -> None:
    """The whole export read once from the start: every record must come out."""
    Careful.careful = 0
    exports = Exports(store, Careful(store, log=log))
    started, cpu = time.perf_counter(), time.process_time()
    count = sum(1 for _ in exports.lines(EVERYTHING, 0, 10**9))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert count == size and Careful.careful == 0, (count, size, Careful.careful)
    print(f"  full export of {size:,}: {seconds:.0f} s, {count / seconds:,.0f} records/s, "
          f"{count / cpu:,.0f} per CPU second ({load()})", flush=True)


def spot_check(exports: Exports, after: int, key: Path | None) -> None:
    """`turnstile verify --key` on the first three records of a window, each as its own record file (the log proof is
    checked per record file): chain, commitments, rules replayed, and the log proof against the signed checkpoint
    (without the log's key, on a store this run did not fill: every check but the log proof's)."""
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for n, line in enumerate(exports.lines(EVERYTHING, after, 3)):
            files.append(Path(folder) / f"{n}.ndjson")
            files[-1].write_text(msgspec.json.decode(line, type=ExportLine).record)
        keyed = [] if key is None else ["--key", str(key)]
        done = subprocess.run([str(Path(sys.executable).parent / "turnstile"), "verify", *map(str, files), *keyed],
                              cwd=ROOT, capture_output=True, text=True)
        proved = done.stdout.count("head event is leaf of the signed tree")
        assert done.returncode == 0 and proved == (0 if key is None else len(files)), \
            done.stdout[-2000:] + done.stderr[-2000:]


@contextmanager
def captured(store: SqlStore) -> Iterator[list[tuple[str, Any]]]:
    """The statements (and parameters) the store's reads run while inside."""
    seen: list[tuple[str, Any]] = []
    reading = store._reading

    class Recorder:
        def __init__(self, conn: Any) -> None:
            self.conn = conn

        def execute(self, sql: Any, params: Any = None) -> Any:
            seen.append((sql, params))
            return self.conn.execute(sql, params)

    @contextmanager
    def recording() -> Iterator[Recorder]:
        with reading() as conn:
            yield Recorder(conn)

    store._reading = recording  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        del store._reading


def explain(store: SqlStore, log: Transparency, size: int, plans: Path) -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of each statement of one page read from the middle of the export."""
    after = ended_after(store, size // 2)
    audit = Audit(store, log=log)
    with captured(store) as seen:
        page = store.finished_matches(EVERYTHING, after, 100)
        audit.read_page(store, [f.match for f in page])
    with plans.open("a") as out, store._reading() as conn:
        for sql, params in seen:
            text = sql if isinstance(sql, str) else sql.as_string(conn)
            rows = conn.execute(f"EXPLAIN (ANALYZE, BUFFERS) {text}", params).fetchall()
            shown = text if len(text) < 400 else text[:400] + " …"
            out.write(f"-- {size:,} matches, {load()}\n{shown}\n" + "\n".join(r[0] for r in rows) + "\n\n")
    print(f"  plans of {len(seen)} statements: {plans}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--window", type=int, default=2000, help="records a timed read")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--templates", type=int, default=40)
    parser.add_argument("--full-at", type=int, nargs="*", default=[], help="sizes to read the whole export at")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE a page read at each size")
    parser.add_argument("--max-gib", type=float, default=28, help="grow no further than this database size")
    parser.add_argument("--plans", type=Path, default=Path(tempfile.gettempdir()) / "export_scale_plans.txt")
    parser.add_argument("--store", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--existing", metavar="URL", help="measure a store already filled by this bench (by a run "
                        "stopped after its last `grew` line), at its size, without growing or dropping it")
    args = parser.parse_args()
    if args.existing:
        store = open_store(args.existing)
        assert isinstance(store, SqlStore)
        try:
            log = Transparency(store, Signer.generate(DEFAULT_ORIGIN))  # serves the stored checkpoints, any key's
            at_size(store, log, args, count_finished(store), None)
        finally:
            store.close()
        return
    with tempfile.TemporaryDirectory() as folder, database(args.store, folder) as url:
        signer = Signer.generate(DEFAULT_ORIGIN)
        key = Path(folder) / "log.key"
        key.write_text(signer.verifier().text())
        store = open_store(url)
        assert isinstance(store, SqlStore)
        try:
            measure(store, Transparency(store, signer, min_interval_s=0), args, key)
        finally:
            store.close()


def count_finished(store: SqlStore) -> int:
    with store._reading() as conn:
        return int(conn.execute("SELECT count(*) FROM events WHERE type = 'match.ended'").fetchone()[0])


@contextmanager
def database(kind: str, folder: str) -> Iterator[str]:
    """A throwaway store: a PostgreSQL database on TURNSTILE_DATABASE_URL's server (dropped after), or a SQLite file."""
    if kind == "sqlite":
        yield f"sqlite:///{folder}/grow42.db"
        return
    server = os.environ.get("TURNSTILE_DATABASE_URL", "")
    assert server.startswith(("postgresql://", "postgres://")), "TURNSTILE_DATABASE_URL: a PostgreSQL server"
    with throwaway_database("turnstile_bench_grow42", server) as url:
        yield url


def measure(store: SqlStore, log: Transparency, args: argparse.Namespace, key: Path) -> None:
    """Grow the store to each size in turn and measure the export there."""
    kinds = templates(args.templates, store)
    have = 0
    for size in sorted(args.sizes):
        if have and database_bytes(store) / have * size > args.max_gib * 2**30:
            print(f"  {size:,} matches would take more than {args.max_gib} GiB: not grown", flush=True)
            return
        grow(store, log, have, size, kinds)
        have = size
        at_size(store, log, args, size, key)


def at_size(store: SqlStore, log: Transparency, args: argparse.Namespace, size: int, key: Path | None) -> None:
    """Every measure of the export on a store of `size` finished matches."""
    print("| matches | where | read | rate | cold rate | cpu rate | load |\n|---|---|---|---|---|---|---|")
    rates(store, log, size, args.window, args.runs, key)
    print("| matches | where | page (ms) | events | leaves | proofs | read + check + build | load |\n"
          "|---|---|---|---|---|---|---|---|")
    steps(store, log, size, args.window)
    print("| matches | filtered page | time | load |\n|---|---|---|---|")
    filtered(store, size)
    if args.explain and not store.one_writer:
        explain(store, log, size, args.plans)
    if size in args.full_at:
        full_export(store, log, size)

if __name__ == "__main__":
    main()
