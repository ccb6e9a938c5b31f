"""The transparency log's costs (issue 28): proofs at a million leaves, the sequencer's rate, and the server's own
check of the events it loads.

    uv run python bench/transparency.py                 # all three, SQLite (and PostgreSQL when
                                                        # TURNSTILE_DATABASE_URL names one, for the sequencer)
    uv run python bench/transparency.py --smoke         # tiny sizes: that it runs, not how fast

proofs:   fills a SQLite store's tree with 10^6 leaves directly (no events), then times inclusion and consistency
          proofs as the service answers them (one read of the stored perfect subtrees, then hashing; an HTTP answer
          adds what any small GET costs, see "What a move costs" above).
sequence: appends events (real appends, 2 events each) and times the sequencer catching the tree up with them.
load:     a cold load of a long match (fold from storage) with the new checks (every event rehashed, leaves compared
          with the tree) and without them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger.merkle import appended_nodes, event_leaf, leaf_hash, perfect_parts  # noqa: E402
from ledger.notes import Signer  # noqa: E402
from service.log.transparency import Transparency  # noqa: E402
from store.factory import open_store  # noqa: E402


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, max {ordered[-1] * 1000:.2f} ms"


def timed(call: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        out.append(time.perf_counter() - started)
    return out


def fill(store: Any, leaves: int, batch: int = 1 << 16) -> None:
    """`leaves` leaves straight into the tree tables (matches of 100 events, random hashes), in batches."""
    conn = store._conn  # the SQLite adapter's one connection: a bench may reach in
    edge: dict[tuple[int, int], bytes] = {}
    rng = random.Random(1)
    size = 0
    conn.execute("BEGIN IMMEDIATE")
    while size < leaves:
        count = min(batch, leaves - size)
        rows, hashes = [], []
        for index in range(size, size + count):
            stream, version, chain = f"bench-{index // 100}", index % 100 + 1, rng.randbytes(32).hex()
            rows.append((index, stream, version, chain, index + 1))
            hashes.append(leaf_hash(event_leaf(stream, version, chain)))  # level 0 is derived from the row so
        made = dict(appended_nodes(size, hashes, edge.__getitem__))
        conn.executemany("INSERT INTO log_leaves (idx, match_id, version, hash, position) VALUES (?, ?, ?, ?, ?)",
                         rows)
        conn.executemany("INSERT INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)",
                         [(level, idx, h) for (level, idx), h in made.items() if level])  # level 0: not stored
        size += count
        edge = {part: made.get(part) or edge[part] for part in perfect_parts(0, size)}
    conn.execute("UPDATE log_state SET size = ?, after_position = ? WHERE id = 1", (size, size))
    conn.execute("COMMIT")


def bench_proofs(leaves: int, repeat: int) -> None:
    folder = tempfile.mkdtemp(prefix="turnstile-log-bench-")
    store = open_store(f"sqlite:///{folder}/log.db")
    started = time.perf_counter()
    fill(store, leaves)
    log = Transparency(store, Signer.generate("bench/log"))
    log.catch_up()  # signs the checkpoint of the filled tree
    print(f"proofs: filled {leaves:,} leaves in {time.perf_counter() - started:.1f} s "
          f"({os.path.getsize(f'{folder}/log.db') / 2**20:.0f} MiB)")
    rng = random.Random(2)

    def inclusion() -> None:
        index = rng.randrange(leaves)
        log.inclusion(f"bench-{index // 100}", index % 100 + 1, leaves)

    def consistency() -> None:
        log.consistency(rng.randrange(1, leaves), leaves)

    for name, call in (("inclusion", inclusion), ("consistency", consistency)):
        timed(call, 50)  # warm
        print(f"  {name} (service): {percentiles(timed(call, repeat))}")
    store.close()


def bench_sequence(url: str, events: int) -> None:
    from tests.store.test_contract import play, start

    store = open_store(url)
    log = Transparency(store, Signer.generate("bench/log"))
    log.catch_up()
    before = store.log_size()
    match_id, version = start(store), 2
    appended = 2
    started = time.perf_counter()
    while appended < events:
        play(store, match_id, version, 2)
        version += 2
        appended += 2
        if version > 400:
            match_id, version = start(store), 2
            appended += 2
    append_s = time.perf_counter() - started
    started = time.perf_counter()
    size = log.catch_up()
    took = time.perf_counter() - started
    added = (size or 0) - before
    print(f"sequence ({url.partition(':')[0]}): {added:,} leaves in {took:.2f} s = {added / took:,.0f} leaves/s "
          f"(the appends themselves: {appended / append_s:,.0f} events/s from one client)")
    store.close()


def bench_load(url: str, moves: int, repeat: int) -> None:
    from domain import match as rules
    from ledger.chain import link_hash
    from service.log.transparency import check_against_log
    from service.matches.matches import MatchService

    store = open_store(url)
    service = MatchService(store, use_snapshots=False)
    created = service.create("expect-delays", ["ann", "bob"], {"max_turns": 200}, seed="bench")
    rng = random.Random(3)
    for _ in range(moves):
        loaded = service.cached(created.record.id)
        if loaded.state.finished:
            break
        seat = rules.to_move(loaded.game, loaded.state)[0]
        service.play(created.record.id, seat, rng.choice(rules.legal(loaded.game, loaded.state, seat)),
                     expected_version=None, command_id=None)
    Transparency(store, None).catch_up()
    version = service.load(created.record.id).record.version

    def cold() -> None:
        MatchService(store, use_snapshots=False).load(created.record.id)

    record, events = store.match_with_events(created.record.id)
    rehash = timed(lambda: [link_hash(e) for e in events], repeat)
    against = timed(lambda: check_against_log(store, record.id, record.version, events), repeat)
    loads = timed(cold, repeat)
    extra = statistics.median(rehash) + statistics.median(against)
    print(f"load ({url.partition(':')[0]}, a match of {version} events): a cold load {percentiles(loads)}; of it, "
          f"rehashing every event {percentiles(rehash)} ({statistics.median(rehash) / version * 1e6:.1f} µs/event), "
          f"comparing with the tree's leaves {percentiles(against)}: the checks add {extra * 1000:.2f} ms "
          f"({extra / statistics.median(loads):.0%} of the load)")
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to see that it runs")
    parser.add_argument("--only", default="proofs,sequence,load", help="comma-separated parts to run")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    leaves, repeat, events = (5_000, 50, 200) if args.smoke else (1_000_000, 2_000, 20_000)
    folder = tempfile.mkdtemp(prefix="turnstile-log-bench-")
    urls = [f"sqlite:///{folder}/events.db"]
    pg = os.environ.get("TURNSTILE_DATABASE_URL", "")
    if pg.startswith("postgres"):
        urls.append(_fresh_pg(pg))
    if "proofs" in parts:
        bench_proofs(leaves, repeat)
    for url in urls:
        if "sequence" in parts:
            bench_sequence(url, events)
        if "load" in parts:
            bench_load(url, 60 if args.smoke else 400, 10 if args.smoke else 50)


def _fresh_pg(server: str) -> str:
    """A throwaway schema on the server's database (left for the operator to drop: named turnstile_bench_*)."""
    import psycopg

    schema = f"turnstile_bench_{random.randrange(16**8):08x}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    joiner = "&" if "?" in server else "?"
    return f"{server}{joiner}options=-csearch_path%3D{schema}"


if __name__ == "__main__":
    main()
