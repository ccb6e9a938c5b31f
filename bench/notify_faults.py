"""Move latency with Redis well, hung or dead, against no Redis at all: the notifier must not show.

    uv run python bench/notify_faults.py                      # SQLite file
    TURNSTILE_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres uv run python bench/notify_faults.py

In-process: random legal Expect Delays moves through `MatchService.play`, timed one by one. "Redis up" is a
redis-server of the bench's own (no worker: the queue holds one waiting job); "hung" a local socket that accepts
and never answers; "dead" the port of a redis-server that has been stopped. The notifier has its default
settings (0.25 s timeouts, breaker 3 failures / 5 s). The modes take turns move by move, each turn starting
with the next mode, so drift in the machine's load (it is shared) falls on all of them alike. PostgreSQL runs
in a throwaway database.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from collections.abc import Callable
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import throwaway_database  # noqa: E402
from domain.catalog import by_slug  # noqa: E402
from service.matches.matches import MatchService
from service.matches.simulate import timed_moves  # noqa: E402
from service.reads.notify import NoNotifier, Notifier, RQNotifier  # noqa: E402
from settings import Settings  # noqa: E402
from store.factory import open_store  # noqa: E402
from tests.workers.processes import HungListener, RedisServer  # noqa: E402

MODES = ("no Redis", "no Redis, again", "Redis up", "Redis hung", "Redis dead")  # the repeat shows the noise


def notifiers(workdir: Path) -> tuple[dict[str, Notifier], Callable[[], None]]:
    """One notifier per mode, and how to stop what they point at."""
    def settings(url: str) -> Settings:
        return Settings(redis_url=url, queue="bench-notify")

    up, dead, hung = RedisServer(workdir / "up"), RedisServer(workdir / "dead"), HungListener()
    for server in (up, dead):
        server.workdir.mkdir()
        server.start()
    dead.stop()
    made: dict[str, Notifier] = {
        "no Redis": NoNotifier(), "no Redis, again": NoNotifier(), "Redis up": RQNotifier(settings(up.url)),
        "Redis hung": RQNotifier(settings(hung.url)), "Redis dead": RQNotifier(settings(dead.url)),
    }

    def stop() -> None:
        for notifier in made.values():
            notifier.close()
        up.stop()
        hung.close()

    return made, stop


def measure(label: str, url: str, moves: int) -> None:
    """Print one Markdown row per mode for the store at `url`."""
    game = by_slug("expect-delays")
    assert game is not None
    store = open_store(url)
    seconds: dict[str, list[float]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        made, stop = notifiers(Path(tmp))
        try:
            players = {mode: timed_moves(MatchService(store, notifier=made[mode]), game, ["ada", "bob"],
                                         random.Random(1)) for mode in MODES}
            for player in players.values():
                list(islice(player, 20))  # warm-up, not counted
            for turn in range(moves):
                for mode in MODES[turn % len(MODES):] + MODES[:turn % len(MODES)]:
                    seconds[mode].append(next(players[mode]))
            states = {mode: getattr(made[mode], "breaker", None) for mode in MODES}
        finally:
            stop()
            store.close()
    base = statistics.median(seconds["no Redis"])
    for mode in MODES:
        times = sorted(seconds[mode])
        median, p90 = statistics.median(times), times[int(0.9 * len(times))]
        breaker = states[mode].state if states[mode] is not None else "-"
        print(f"| {label} | {mode} | {len(times)} | {median * 1000:.2f} ms | {p90 * 1000:.2f} ms "
              f"| {times[-1] * 1000:.1f} ms | {median / base:.2f} | {breaker} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=500, help="moves per mode")
    parser.add_argument("--pg", default=os.environ.get("TURNSTILE_DATABASE_URL", ""), help="PostgreSQL server URL")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    print("| store | Redis | moves | median | p90 | max | median / no Redis | breaker at the end |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        measure("SQLite file", f"sqlite:///{tmp}/bench.db", args.moves)
    if args.pg:
        with throwaway_database(server=args.pg) as url:
            measure("PostgreSQL", url, args.moves)
    else:
        print("(PostgreSQL skipped: set TURNSTILE_DATABASE_URL or --pg)", file=sys.stderr)
    print(f"load average after: {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
