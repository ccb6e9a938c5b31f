"""The composition root of a process: `Runtime.open(settings, role)` opens what that role runs, in order, wired at
construction; `close()` closes it all in reverse.

- "api" (`turnstile serve`, `api.asgi:create`): the store (with its statement timeout), the log with its key, the
  queue status (with Redis), the read replica, the projections' notifier (RQ with Redis, else in-process: then it
  also runs the deadline and tournament sweeps), the webhook dispatcher (without Redis: with it, workers send),
  the sequencer, the match service, the bot runner (plays the search bots' turns; with Redis, queues them as jobs
  for the workers and plays them only when Redis does not answer) and the tournament service; a move tells the
  sequencer, the dispatcher and the bot runner.
- "worker" and "burst" (`turnstile worker`, looping or `--burst`): the log on a store of its own and the sequencer,
  the match service on another store with the RQ notifier and the bot jobs' watcher (a search bot's next turn is
  queued as a job: service/matches/bot_jobs.py), the tournaments; looping, also the webhook dispatcher
  on a third store and the sweep thread (timeouts, a catch-up asked for every `sweep_seconds`). A burst worker
  sequences what is left once its sequencer has stopped.
- "cli": the store, the log and the services, no thread.

The match service's snapshot key is derived from the log's key, so every process of one deployment trusts the
others' snapshots. A failure while opening closes what was already opened; `close()` may be called twice.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Literal, TypeVar

from service.log.cosigning import Cosigning, CosigningThread, PolicyFileError, Witnessed, load_policy
from service.log.transparency import Sequencer, Transparency, open_log
from service.matches import snapshots
from service.matches.bot_jobs import BotJobs
from service.matches.bot_runner import BotRunner
from service.matches.deadlines import sweep as sweep_deadlines
from service.matches.loading import StateCache
from service.matches.matches import MatchService
from service.ops import metrics
from service.ops.queue_status import QueueStatus
from service.outbox.webhook_fold import WebhookDispatcher
from service.outbox.webhooks import Webhooks
from service.reads.notify import InProcessNotifier, NoNotifier, Notifier, RQNotifier, notifier_for
from service.tournaments.tournaments import TournamentService
from settings import Settings
from store.base import StoreUnavailable
from store.factory import open_store
from store.read_models import Store
from store.replica import ReplicaReads

Role = Literal["api", "worker", "burst", "cli"]
ROLES: tuple[Role, ...] = ("api", "worker", "burst", "cli")
T = TypeVar("T")

log = logging.getLogger("turnstile.workers")


class Runtime:
    """Everything one process runs, opened for its role. Use `Runtime.open`; the attributes a role does not open
    stay None."""

    store: Store
    log: Transparency
    service: MatchService
    tournaments: TournamentService

    def __init__(self, settings: Settings, role: Role, *, sweep_seconds: float | None = None) -> None:
        if role not in ROLES:
            raise ValueError(f"no runtime role {role!r} (there are: {', '.join(ROLES)})")
        self.settings = settings
        self.role = role
        self.sweep_seconds = sweep_seconds or settings.sweep_seconds
        self.notifier: Notifier = NoNotifier()
        self.queue: QueueStatus | None = None
        self.replica: ReplicaReads | None = None
        self.sequencer: Sequencer | None = None
        self.cosigning: CosigningThread | None = None  # with a witness policy, the API process's
        self.dispatcher: WebhookDispatcher | None = None
        self.webhooks: Webhooks | None = None
        self.sweep_thread: threading.Thread | None = None  # a looping worker's
        self.bots: BotRunner | None = None  # the API process's: plays the search bots' turns (bot_runner.py)
        self.bot_jobs: BotJobs | None = None  # with Redis: queues those turns for the workers (bot_jobs.py)
        self.opened: list[str] = []  # the names of the parts opened, in order (those with nothing to close too)
        self.closed: list[str] = []  # the names of the parts closed, in order
        self._closers: list[tuple[str, Callable[[], object]]] = []
        self._lock = threading.Lock()

    @classmethod
    def open(cls, settings: Settings, role: Role, *, sweep_seconds: float | None = None) -> Runtime:
        """Open what `role` runs; when a part fails to open, the parts opened before it are closed and the failure
        raised. `sweep_seconds` (a worker's) overrides the setting for the sweep thread alone."""
        runtime = cls(settings, role, sweep_seconds=sweep_seconds)
        try:
            if role == "api":
                runtime._open_api()
            elif role == "cli":
                runtime._open_cli()
            else:
                runtime._open_worker(loop=role == "worker")
        except BaseException:
            runtime.close()
            raise
        return runtime

    def _opened(self, name: str, part: T, close: Callable[[], object] | None = None) -> T:
        """Note `part` open, to be closed (by `close`, when it has one) before anything opened before it."""
        self.opened.append(name)
        if close is not None:
            self._closers.append((name, close))
        return part

    def _store(self, name: str, statement_timeout_s: float = 0.0) -> Store:
        opened = open_store(self.settings.database_url, statement_timeout_s=statement_timeout_s)
        return self._opened(name, opened, opened.close)

    def _log(self, store: Store) -> Transparency:
        return self._opened("log", open_log(store, self.settings.log_key, self.settings.database_url))

    def _open_api(self) -> None:
        settings = self.settings
        self._opened("metrics", None, lambda: metrics.process_exited(settings.metrics_dir, os.getpid()))
        self.store = store = self._store("store", statement_timeout_s=settings.statement_timeout_s)
        self.log = self._log(store)
        if settings.redis_url:
            self.queue = queue = QueueStatus(settings)
            self._opened("queue", queue, queue.close)
        replica = open_replica(settings, store)
        if replica is not None:
            self.replica = self._opened("replica", replica, replica.close)
        self.notifier = notifier = notifier_for(settings, store)
        self._opened("notifier", notifier, notifier.close)
        watchers: list[Callable[[str], None]] = []
        if not settings.redis_url:  # without Redis this process folds and sends webhook deliveries; with it, workers
            self.dispatcher = dispatcher = WebhookDispatcher(store, settings)
            self._opened("dispatcher", dispatcher, dispatcher.close)
            watchers.append(dispatcher.moved)  # only sets a flag: a move never waits on webhooks
        # In every process: one at a time holds the log, the others pass (and take over).
        self.sequencer = sequencer = Sequencer(self.log)
        self._opened("sequencer", sequencer, sequencer.close)
        watchers.insert(0, sequencer.appended)  # only sets a flag
        if settings.witness_policy:
            self._cosign(settings.witness_policy)
        self.service = self._opened("service", MatchService(
            store, cache=StateCache(settings.state_cache_size), notifier=notifier, reads=replica,
            snapshot_key=snapshots.key_from(self.log.signer), watchers=watchers,
            search_grace_s=settings.search_grace_s))
        # Search bots play on this process's own thread, never a request's (a crash's leftovers: the sweep's); with
        # Redis that thread hands each turn to the workers as a job, and plays it only when Redis does not answer.
        jobs = None
        if settings.redis_url:
            self.bot_jobs = jobs = BotJobs(settings)
            self._opened("bot jobs", jobs, jobs.close)
        self.bots = runner = BotRunner(self.service, jobs)
        self._opened("bots", runner, runner.close)
        self.service.watchers.append(runner.moved)
        self.tournaments = self._opened("tournaments", TournamentService(
            store, self.service, budget_s=settings.tournament_drive_budget_s,
            matches_max=settings.tournament_matches_max, running_per_app=settings.tournaments_running_per_app))
        self.webhooks = Webhooks(store, allow_private=settings.webhook_allow_private,
                                 per_app=settings.webhooks_per_app)
        if isinstance(notifier, InProcessNotifier):  # no worker process: this one records the timeouts due
            service = self.service
            notifier.tasks.append(lambda: sweep_deadlines(service))
            notifier.tasks.append(self.tournaments.sweep)  # results a crash left unrecorded

    def _cosign(self, policy_path: str) -> None:
        """Ask the policy's witnesses to cosign, on a thread of its own (moves never wait for it)."""
        settings = self.settings
        if self.log.signer is None:
            raise PolicyFileError("a witness policy needs a log key (TURNSTILE_LOG_KEY): witnesses cosign signed "
                                  "checkpoints")
        policy = load_policy(policy_path, self.log.verifier.text())
        # Past this, a cosigned checkpoint older than the newest signed one means the quorum is not being met.
        stale_s = 3 * settings.witness_interval_s + 2 * settings.witness_timeout_s
        self.log.witnessed = Witnessed(self.store, policy, stale_s)
        cosigning = Cosigning(self.store, self.log.consistency, policy, timeout_s=settings.witness_timeout_s,
                              lease_s=stale_s)
        self.cosigning = thread = CosigningThread(cosigning, settings.witness_interval_s)
        self._opened("cosigning", thread, thread.close)

    def _open_cli(self) -> None:
        self.store = store = self._store("store")
        self.log = self._log(store)
        self.service = self._opened("service", MatchService(store, snapshot_key=snapshots.key_from(self.log.signer),
                                                            search_grace_s=self.settings.search_grace_s))
        self.tournaments = self._opened("tournaments", TournamentService(store, self.service))

    def _open_worker(self, *, loop: bool) -> None:
        settings = self.settings
        if settings.redis_url is None:
            raise ValueError("a worker takes its jobs from Redis: it needs TURNSTILE_REDIS_URL")
        self.log = self._log(self._store("log store"))
        self.sequencer = sequencer = Sequencer(self.log)
        # A burst sequences, once its sequencer has stopped, what its last moments appended.
        self._opened("sequencer", sequencer, sequencer.close if loop else self._sequence_the_rest)
        self.store = store = self._store("store")
        self.notifier = notifier = RQNotifier(settings)
        self._opened("notifier", notifier, notifier.close)
        self.service = self._opened("service", MatchService(store, notifier=notifier,
                                                            snapshot_key=snapshots.key_from(self.log.signer),
                                                            search_grace_s=settings.search_grace_s))
        # The next search bot's turn a job, the sweep or a tournament's new match puts to move: queued at once.
        self.bot_jobs = jobs = BotJobs(settings)
        self._opened("bot jobs", jobs, jobs.close)
        self.service.watchers.append(jobs.watcher(self.service))
        # A match this worker times out may end a tournament's round.
        self.tournaments = self._opened("tournaments", TournamentService(store, self.service))
        if not loop:
            return
        self.dispatcher = dispatcher = WebhookDispatcher(self._store("webhooks store"), settings)
        self._opened("dispatcher", dispatcher, dispatcher.close)
        # The sweep makes a lost or never-sent notification cost a delay only: it asks for a catch-up anyway. Each
        # sweep also records the move deadlines that have passed (a second worker's sweep writes nothing again).
        stop = threading.Event()

        def sweep() -> None:
            while not stop.wait(self.sweep_seconds):
                self.sweep_timeouts()
                notifier.appended()

        def stop_sweeping() -> None:
            stop.set()
            thread.join(timeout=10)  # a sweep under way ends before the stores it reads close

        self.sweep_thread = thread = threading.Thread(target=sweep, name="turnstile-sweep", daemon=True)
        self._opened("sweep", thread, stop_sweeping).start()
        notifier.appended()

    def _sequence_the_rest(self) -> None:
        assert self.sequencer is not None
        self.sequencer.close()
        self.log.catch_up()

    @property
    def closable(self) -> list[str]:
        """The names of the open parts `close()` will close, in the order they were opened."""
        return [name for name, _ in self._closers]

    def sweep_timeouts(self) -> None:
        """Record the move deadlines that have passed and catch up on tournament results a crash left unrecorded
        (each failure logged: the next sweep looks again)."""
        try:
            sweep_deadlines(self.service)
        except Exception:  # logged; the next sweep looks again
            log.exception("deadline sweep failed")
        self.tournaments.sweep()  # each failure is logged

    def close(self) -> None:
        """Close what was opened, the last first; a second call closes nothing. Every part is closed even when one
        fails: the first failure is raised after the rest were closed."""
        failure: BaseException | None = None
        while True:
            with self._lock:
                if not self._closers:
                    break
                name, close = self._closers.pop()
                self.closed.append(name)
            try:
                close()
            except BaseException as exc:  # the rest still close
                log.exception("closing the %s failed", name)
                failure = failure or exc
        if failure is not None:
            raise failure


def open_replica(settings: Settings, primary: Store) -> ReplicaReads | None:
    """Reads of the read replica `settings.read_database_url` names (PostgreSQL only), falling back to `primary`;
    None when there is none. Opening waits for nothing: a replica down now is read around until it answers."""
    url = settings.read_database_url
    if not url:
        return None
    if url.partition("://")[0] not in ("postgresql", "postgres"):
        raise StoreUnavailable(f"a read replica is a PostgreSQL URL, not {url!r}")
    from store.postgres import PostgresStore  # only when asked for: the embedded default loads no PostgreSQL driver

    return ReplicaReads(primary, PostgresStore.read_replica(url, timeout_s=settings.replica_timeout_s),
                        timeout_s=settings.replica_timeout_s, cool_down_s=settings.replica_cool_down_s,
                        on_fallback=lambda reason: metrics.REPLICA_FALLBACKS.labels(reason).inc())
