"""Search bots' turns as RQ jobs, when Redis is configured: any worker plays them, no API process searches.

A turn is one job, `workers.jobs.bot_turn_job(match_id, version)`, under the job id `bot-<match id>-<version>`
(enqueued `unique`: RQ refuses a second job of that id atomically, so a turn waits in the queue at most once however
many processes ask). The job plays only while the match is still at that version with a search bot to move, one
search move (then any non-search bots after it), each move a conditional append, so a job run twice, late, or after
the sweep played the turn writes nothing.

Enqueueing has a short socket timeout and a circuit breaker (the projection notifier's settings): it never waits
long, and never on a request's thread. When Redis does not answer, `enqueue` says so and the caller plays the turn
itself (the API process's bot runner, service/matches/bot_runner.py); a job taken by a worker that then crashed is
played by the deadline sweep once the turn has waited `search_grace_s` (settings.py; service/matches/deadlines.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from domain import bots
from service.matches.matches import MatchService
from service.ops.breaker import CircuitBreaker
from settings import Settings

log = logging.getLogger("turnstile.bots")
JOB = "workers.jobs.bot_turn_job"
JOB_TIMEOUT_S = 120  # one search move takes at most a second (bench/README.md); a stuck job is cut off long after


def job_id(match_id: str, version: int) -> str:
    """The id of the job that plays the bot's turn of `match_id` at `version` (one per turn)."""
    return f"bot-{match_id}-{version}"


class BotJobs:
    """Enqueues the search bots' turns on `settings.bot_queue`: from the API's bot runner thread, or from a worker's
    threads (its jobs and its sweep), one at a time (the breaker is not thread-safe)."""

    def __init__(self, settings: Settings) -> None:
        from redis import Redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
        from rq import Queue
        from rq.serializers import JSONSerializer

        if settings.redis_url is None:
            raise ValueError("bot jobs need a Redis URL (TURNSTILE_REDIS_URL)")
        self.redis = Redis.from_url(settings.redis_url, socket_timeout=settings.notify_timeout_s,
                                    socket_connect_timeout=settings.notify_timeout_s, retry=Retry(NoBackoff(), 0))
        self.queue = Queue(settings.bot_queue, connection=self.redis, serializer=JSONSerializer)
        self.breaker = CircuitBreaker(f"bot jobs (queue {settings.bot_queue})", settings.notify_breaker_failures,
                                      settings.notify_breaker_cool_down_s)
        self._lock = threading.Lock()

    def enqueue(self, match_id: str, version: int) -> bool:
        """Queue the job for this turn (or find it queued already): True. False when Redis did not answer or the
        breaker is open: the caller plays the turn, or leaves it to the sweep."""
        from rq.exceptions import DuplicateJobError

        with self._lock:
            if not self.breaker.allow():
                return False
            try:
                self.queue.enqueue(JOB, match_id, version, job_id=job_id(match_id, version), unique=True,
                                   job_timeout=JOB_TIMEOUT_S, result_ttl=60, failure_ttl=86400)
            except DuplicateJobError:  # queued (or played) already: one job a turn
                pass
            except Exception as exc:  # noqa: BLE001  (any failure counts against Redis; the breaker's log names it)
                self.breaker.failed(f"{type(exc).__name__}: {exc}")
                return False
            self.breaker.succeeded()
            return True

    def watcher(self, service: MatchService) -> Callable[[str], None]:
        """A match service watcher for a worker: queue the next turn of a search bot as soon as it is to move (the
        append of a job, the sweep, or a tournament's new match). A failure is logged: the sweep plays the turn."""

        def moved(match_id: str) -> None:
            loaded = service.cache.get(match_id)
            if loaded is None:
                return
            waiting = bots.bot_to_move(loaded.game, loaded.state)
            if waiting is None or not bots.is_search(waiting[1]):
                return
            if not self.enqueue(match_id, loaded.state.version):
                log.warning("match %s: the bot's turn at version %d was not queued (Redis); the sweep plays it",
                            match_id, loaded.state.version)

        return moved

    def close(self) -> None:
        """Close the connection."""
        self.redis.close()
