"""The cost of a cold load of a long match: a fresh match service loading a match of about `--events` events from
storage (no cache, no snapshot), which checks the chain, every event's hash, the transparency log's leaves and every
commitment, then folds.

    uv run python bench/cold_load.py [--events 500] [--repeat 30] [--url sqlite:///:memory:]

Random legal moves of expect-delays (2 seats, max_turns 100000) until the match holds `--events` events; then the
median of `--repeat` cold loads, and (when the ledger has it) the commitment check alone over the stored events.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from domain import match
from service.matches.matches import MatchService
from store.factory import open_store


def main() -> None:
    """Print the medians."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--url", default="sqlite:///:memory:")
    args = parser.parse_args()
    store = open_store(args.url)
    service = MatchService(store, use_snapshots=False)
    match_id = service.create("expect-delays", ["ann", "bob"], {"max_turns": 100_000},
                              seed="bench-cold-load").record.id
    rng = random.Random(1)
    loaded = service.load(match_id)
    while loaded.record.version < args.events:
        assert loaded.record.status != "finished", "the match ended first: ask for fewer events"
        seat = match.to_move(loaded.game, loaded.state)[0]
        service.play(match_id, seat, rng.choice(match.legal(loaded.game, loaded.state, seat)), expected_version=None,
                     command_id=None)
        loaded = service.load(match_id)
    stored = store.read_match(match_id)
    timings = []
    for _ in range(args.repeat):
        fresh = MatchService(store, use_snapshots=False)
        started = time.perf_counter()
        fresh.load(match_id)
        timings.append(time.perf_counter() - started)
    print(f"{len(stored)} events: cold load median {statistics.median(timings) * 1e3:.2f} ms "
          f"(min {min(timings) * 1e3:.2f} ms)")
    try:
        from ledger.chain import unopened, verify_chain
    except ImportError:
        return
    for name, check in (("hashes", lambda: verify_chain(stored)),
                        ("commitments", lambda: unopened(loaded.record.seed, stored))):
        alone = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            check()
            alone.append(time.perf_counter() - started)
        print(f"  {name} alone: median {statistics.median(alone) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
