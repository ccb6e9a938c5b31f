"""What the API reports of Redis and the projection queue (readiness, metrics): asked with short timeouts, so a
dead or hung Redis costs a probe at most `notify_timeout_s` and is reported, never raised."""

from __future__ import annotations

import logging
from typing import Any

from settings import Settings

log = logging.getLogger("turnstile.workers")


class QueueStatus:
    """Redis and the projection queue as seen from an API process."""

    def __init__(self, settings: Settings) -> None:
        from redis import Redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        if settings.redis_url is None:
            raise ValueError("queue status needs a Redis URL (TURNSTILE_REDIS_URL)")
        self.queue_name = settings.queue
        self.bot_queue_name = settings.bot_queue
        self.redis: Any = Redis.from_url(settings.redis_url, socket_timeout=settings.notify_timeout_s,
                                         socket_connect_timeout=settings.notify_timeout_s, retry=Retry(NoBackoff(), 0))

    def ping(self) -> bool:
        """Does Redis answer now?"""
        try:
            return bool(self.redis.ping())
        except Exception as exc:  # noqa: BLE001  (down, hung, refused: all mean "not now")
            log.warning("Redis does not answer (%s: %s)", type(exc).__name__, exc)
            return False

    def depth(self, name: str | None = None) -> tuple[int, int] | None:
        """(jobs waiting, jobs failed) in the projection queue (or the queue `name`); None when Redis does not
        answer."""
        from rq import Queue
        from rq.serializers import JSONSerializer

        try:
            queue = Queue(name or self.queue_name, connection=self.redis, serializer=JSONSerializer)
            return int(queue.count), int(queue.failed_job_registry.count)
        except Exception as exc:  # noqa: BLE001
            log.warning("cannot read the queue's depth (%s: %s)", type(exc).__name__, exc)
            return None

    def bot_depth(self) -> tuple[int, int] | None:
        """(turns waiting, turns failed) in the search bots' queue (settings.bot_queue); None when Redis does not
        answer."""
        return self.depth(self.bot_queue_name)

    def close(self) -> None:
        """Close the connection."""
        self.redis.close()
