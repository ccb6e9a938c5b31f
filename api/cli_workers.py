"""`turnstile worker`, `turnstile simulate` and `turnstile projections`: the background side."""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import threading
import time
from typing import Any

log = logging.getLogger("turnstile.workers")


def notifier_for(store: Any) -> Any:
    """RQ on Redis when TURNSTILE_REDIS_URL is set; else an in-process runner (the embedded default)."""
    from workers.notify import InProcessNotifier, NotifySettings, RQNotifier

    redis_url = os.environ.get("TURNSTILE_REDIS_URL")
    return RQNotifier(redis_url, NotifySettings.from_env()) if redis_url else InProcessNotifier(store)


def cmd_worker(args: argparse.Namespace) -> int:
    """Run an RQ worker for projection jobs, with a sweep that enqueues a catch-up every few seconds."""
    from redis import Redis, RedisError
    from rq import SimpleWorker
    from rq.serializers import JSONSerializer

    from workers.notify import NotifySettings, RQNotifier

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    redis_url = os.environ.get("TURNSTILE_REDIS_URL", "redis://127.0.0.1:6379/0")
    settings = NotifySettings.from_env()
    # The sweep makes a lost or never-sent notification cost a delay only: it asks for a catch-up anyway.
    sweeper = RQNotifier(redis_url, settings)
    stop = threading.Event()

    def sweep() -> None:
        while not stop.wait(args.sweep_seconds):
            sweeper.appended()

    threading.Thread(target=sweep, name="turnstile-sweep", daemon=True).start()
    sweeper.appended()
    # SimpleWorker runs jobs in this process: no fork per job, one store connection pool kept warm.
    while True:
        worker = SimpleWorker([settings.queue], connection=Redis.from_url(redis_url), serializer=JSONSerializer)
        try:
            worker.work(burst=args.burst, with_scheduler=False, max_jobs=None)
            break
        except RedisError as exc:  # Redis went away: wait and start again; the sweep re-enqueues
            log.warning("worker lost Redis (%s); retrying in 2 s", exc)
            time.sleep(2)
    stop.set()
    sweeper.close()
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play N complete random matches (legal moves only) through the match service, then fold statistics."""
    from domain.catalog import by_slug
    from domain.engine import setups
    from service.matches import MatchService
    from service.simulate import play_random_match
    from store.factory import database_url, open_store
    from workers.runner import catch_up

    game = by_slug(args.game)
    if game is None:
        print(f"no game is called {args.game!r}", file=sys.stderr)
        return 2
    store = open_store(database_url())
    service = MatchService(store)
    rng = random.Random(args.seed)
    pool = ["ada", "grace", "alan", "edsger", "barbara", "donald", "frances", "ken"]
    choices = [n for n, _ in setups(game)]
    for number in range(1, args.matches + 1):
        play_random_match(service, game, rng.sample(pool, args.seats or rng.choice(choices)), rng)
        bar = "#" * (30 * number // args.matches)
        print(f"\r[{bar:<30}] {number}/{args.matches} matches", end="", flush=True)
    print()
    catch_up(store)
    print(f"statistics folded: GET /v1/leaderboards/{game.slug}, /v1/games/{game.slug}/stats")
    store.close()
    return 0


def cmd_projections(args: argparse.Namespace) -> int:
    """Catch up, or drop and rebuild, the projections in this process."""
    from projections.catalog import PROJECTIONS, by_name
    from store.factory import database_url, open_store
    from workers.runner import catch_up, rebuild

    store = open_store(database_url())
    chosen = PROJECTIONS if not args.name else tuple(p for p in (by_name(n) for n in args.name) if p)
    if args.rebuild:
        for projection in chosen:
            rebuild(store, projection)
    else:
        catch_up(store, chosen)
    for checkpoint in store.checkpoints():
        print(f"{checkpoint.projection}: position {checkpoint.position}"
              + (f", stopped: {checkpoint.error}" if checkpoint.error else ""))
    store.close()
    return 0


def add_commands(sub: Any) -> None:
    """Register the worker-side sub-commands."""
    worker = sub.add_parser("worker", help="run a projection worker (RQ on TURNSTILE_REDIS_URL)")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--sweep-seconds", type=float, default=5.0, help="how often to enqueue a catch-up anyway")
    worker.set_defaults(run=cmd_worker)
    simulate = sub.add_parser("simulate", help="play random matches so statistics have data")
    simulate.add_argument("--game", required=True)
    simulate.add_argument("--matches", type=int, default=20)
    simulate.add_argument("--seats", type=int, default=None)
    simulate.add_argument("--seed", type=int, default=None)
    simulate.set_defaults(run=cmd_simulate)
    projections = sub.add_parser("projections", help="catch up or rebuild projections in this process")
    projections.add_argument("--rebuild", action="store_true")
    projections.add_argument("name", nargs="*")
    projections.set_defaults(run=cmd_projections)
