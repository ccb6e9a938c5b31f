"""`turnstile worker`, `turnstile simulate` and `turnstile projections`: the background side."""

from __future__ import annotations

import argparse
import logging
import random
import time
from typing import Any

from cli.errors import UserError
from cli.help import Defaults
from domain.catalog import GAMES

log = logging.getLogger("turnstile.workers")
DEFAULTS = Defaults


def cmd_worker(args: argparse.Namespace) -> int:
    """Run an RQ worker for projection jobs and search bots' turns, with a sweep that enqueues a catch-up every few
    seconds, and the webhook dispatcher (folding and sending deliveries on threads of its own); with --burst, catch
    up once and drain the queues, then exit (a one-shot catch-up, e.g. from cron or after a deploy)."""
    from service.ops.logs import configure
    from service.runtime import Runtime
    from settings import Settings
    from workers.jobs import catch_up_job, use_matches

    configure()
    settings = Settings.from_env()
    if settings.redis_url is None:
        raise UserError("a worker takes its jobs from Redis: set TURNSTILE_REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
    runtime = Runtime.open(settings, "burst" if args.burst else "worker", sweep_seconds=args.sweep_seconds)
    use_matches(runtime.service)  # bot turns are played with it (its watcher queues each next one)
    try:
        if args.burst:
            runtime.sweep_timeouts()
            folded = catch_up_job()  # here and now: a burst worker must not exit before a sweep's job arrives
            log.info("burst: %d positions folded; draining the queue", folded)
        run_worker(settings, burst=args.burst)
    finally:
        use_matches(None)
        runtime.close()
    return 0


def run_worker(settings: Any, burst: bool) -> None:
    """Work the queues (the projections' first, then the bots' turns) until stopped (SIGTERM: the job in progress
    finishes its batch) or, in a burst, until empty."""
    from redis import Redis, RedisError
    from rq import SimpleWorker
    from rq.serializers import JSONSerializer

    from workers.jobs import STOPPING

    class Worker(SimpleWorker):
        """SimpleWorker runs jobs in this process: no fork per job, one store connection pool kept warm."""

        def request_stop(self, signum: Any, frame: Any) -> None:
            STOPPING.set()  # the running catch-up ends after its current batch, then RQ's warm shutdown exits
            super().request_stop(signum, frame)

    while not STOPPING.is_set():
        worker = Worker([settings.queue, settings.bot_queue], connection=Redis.from_url(settings.redis_url),
                        serializer=JSONSerializer)
        try:
            worker.work(burst=burst, with_scheduler=False, max_jobs=None)
            return
        except RedisError as exc:  # Redis went away: wait and start again; the sweep re-enqueues
            log.warning("worker lost Redis (%s); retrying in 2 s", exc)
            time.sleep(2)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play N complete random matches (legal moves only) through the match service, then fold statistics."""
    from domain.catalog import by_slug
    from domain.engine import setups
    from service.matches.matches import MatchService
    from service.matches.simulate import play_random_match
    from service.reads.runner import catch_up
    from settings import Settings
    from store.factory import open_store

    game = by_slug(args.game)
    assert game is not None  # argparse's choices
    store = open_store(Settings.from_env().database_url)
    try:
        service = MatchService(store)
        rng = random.Random(args.seed)
        # Under `sim:`, which no person's handle can hold (no colon), so made-up history never mixes with people's.
        pool = [f"sim:{name}" for name in ("ada", "grace", "alan", "edsger", "barbara", "donald", "frances", "ken")]
        choices = [n for n, _ in setups(game)]
        for number in range(1, args.matches + 1):
            play_random_match(service, game, rng.sample(pool, args.seats or rng.choice(choices)), rng)
            bar = "#" * (30 * number // args.matches)
            print(f"\r[{bar:<30}] {number}/{args.matches} matches", end="", flush=True)
        print()
        catch_up(store)
    finally:
        store.close()
    print(f"statistics folded: GET /v1/leaderboards/{game.slug}, /v1/games/{game.slug}/stats")
    return 0


def cmd_projections(args: argparse.Namespace) -> int:
    """Catch up, or drop and rebuild, the projections in this process."""
    from projections.catalog import PROJECTIONS, by_name
    from service.reads.runner import catch_up, rebuild_all
    from settings import Settings
    from store.factory import open_store

    unknown = [name for name in args.name if by_name(name) is None]
    if unknown:
        raise UserError(f"no projection is called {', '.join(unknown)} (there are: "
                        f"{', '.join(p.name for p in PROJECTIONS)})")
    settings = Settings.from_env()
    store = open_store(settings.database_url)
    try:
        chosen = PROJECTIONS if not args.name else tuple(p for p in (by_name(n) for n in args.name) if p)
        if args.rebuild:
            rebuild_all(store, chosen, settings.projection_batch)
        else:
            catch_up(store, chosen, settings.projection_batch)
        for checkpoint in store.checkpoints():
            print(f"{checkpoint.projection}: position {checkpoint.position}"
                  + (f", stopped: {checkpoint.error}" if checkpoint.error else ""))
    finally:
        store.close()
    return 0


def register(sub: Any) -> None:
    """Add `worker`, `simulate` and `projections`."""
    from projections.catalog import PROJECTIONS

    worker = sub.add_parser("worker", formatter_class=DEFAULTS,
                            help="run a worker: projections and search bots' turns (RQ on TURNSTILE_REDIS_URL)")
    worker.add_argument("--burst", action="store_true", help="catch up once, drain the queues, then exit")
    worker.add_argument("--sweep-seconds", type=float, default=None,
                        help="how often to enqueue a catch-up anyway (default: TURNSTILE_SWEEP_SECONDS, 5)")
    worker.set_defaults(run=cmd_worker)
    simulate = sub.add_parser("simulate", help="play random matches so statistics have data", formatter_class=DEFAULTS)
    simulate.add_argument("--game", required=True, choices=[g.slug for g in GAMES], help="the game to play")
    simulate.add_argument("--matches", type=int, default=20, help="how many complete matches")
    simulate.add_argument("--seats", type=int, default=None,
                          help="seats per match (default: each of the game's sample seat counts at random)")
    simulate.add_argument("--seed", type=int, default=None, help="seed the choice of moves (not the deals)")
    simulate.set_defaults(run=cmd_simulate)
    projections = sub.add_parser("projections", help="catch up or rebuild projections in this process",
                                 formatter_class=DEFAULTS)
    projections.add_argument("--rebuild", action="store_true", help="drop the read models and fold from position 0")
    projections.add_argument("name", nargs="*", help=f"projections to run: {', '.join(p.name for p in PROJECTIONS)} "
                                                     "(default: all)")
    projections.set_defaults(run=cmd_projections)
