"""For operators and load balancers: liveness, readiness and Prometheus metrics; cheap, and unauthenticated unless the
operator protects the metrics with a token (TURNSTILE_METRICS_TOKEN)."""

from __future__ import annotations

import hmac
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec
from litestar import Controller, Request, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from prometheus_client import CONTENT_TYPE_LATEST

from api.problems import ApiError
from service.log.cosigning import QuorumStatus
from service.log.transparency import Transparency
from service.ops import metrics
from service.ops.queue_status import QueueStatus
from service.reads.statistics import Statistics
from store.read_models import Store
from store.replica import ReplicaReads

log = logging.getLogger("turnstile.api")
# Where readiness asks the store (Operations): threads of their own, so a hung database never holds a probe.
PROBES = ThreadPoolExecutor(max_workers=4, thread_name_prefix="turnstile-readiness")


class Health(msgspec.Struct, frozen=True):
    """The process answers."""

    status: Literal["ok"]


class Readiness(msgspec.Struct, frozen=True, omit_defaults=True):
    """Whether this process can serve: its store answers with the schema this code expects."""

    status: Literal["ready", "not-ready"]
    store: Literal["ok", "unreachable"]
    migrations: Literal["current", "behind", "ahead", "unknown"]
    redis: Literal["ok", "unreachable", "not-configured"]  # reported, never required: moves do not need it
    # The read replica (TURNSTILE_READ_DATABASE_URL), reported, never required: its reads fall back to the store.
    replica: Literal["ok", "unreachable", "not-configured"] = "not-configured"
    replica_lag: int | None = None  # the store's log head minus the replica's, in positions
    # The witness policy's quorum (TURNSTILE_WITNESS_POLICY), reported, never required: moves never wait for
    # witnesses. `met` while the newest checkpoints are cosigned by the quorum; the newest cosigned checkpoint's size
    # and how many leaves the newest signed checkpoint is ahead of it.
    witness_quorum: Literal["met", "not-met", "not-configured"] = "not-configured"
    cosigned_size: int | None = None
    cosigned_behind: int | None = None
    # The search bots' turns waiting in their queue (TURNSTILE_BOT_QUEUE), reported, never required: a turn not
    # taken is played by the sweep. Present while Redis answers.
    bot_turns_waiting: int | None = None
    detail: str | None = None


@dataclass
class Operations:
    """What the operator endpoints look at.

    Readiness asks the store on a thread of its own and waits `ready_timeout_s` for the answer: a database that
    hangs (the connection open, nothing answering) makes the process not ready within that time, instead of holding
    the load balancer's probe as long as the driver waits. At most one such question is in flight: while one is
    still unanswered, later probes wait on it rather than leave another thread stuck beside it.
    """

    store: Store
    queue: QueueStatus | None = None
    multiprocess_dir: str | None = None  # metrics of several processes, summed at scrape (settings.metrics_dir)
    replica: ReplicaReads | None = None
    ready_timeout_s: float = 2.0
    metrics_token: str | None = None  # settings.metrics_token: /metrics only for the bearer of it
    log: Transparency | None = None  # its witness policy's quorum is reported
    _asking: Future[Any] | None = field(default=None, init=False, repr=False)
    _lock: Any = field(default_factory=threading.Lock, init=False, repr=False)  # Any: Litestar checks the types

    def _ask_store(self) -> tuple[tuple[int, int], tuple[int, int] | None, QuorumStatus | None]:
        return (self.store.schema_status(), self.replica.lag() if self.replica is not None else None,
                self.quorum())

    def quorum(self) -> QuorumStatus | None:
        """The witness quorum's status (reads the store); None without a policy."""
        if self.log is None or self.log.witnessed is None:
            return None
        return self.log.witnessed.status()

    def _store_answer(self) -> tuple[tuple[int, int], tuple[int, int] | None, QuorumStatus | None]:
        """The store's schema status, the replica's lag and the witness quorum's status, within `ready_timeout_s`
        (TimeoutError if not)."""
        with self._lock:
            if self._asking is None or self._asking.done():
                self._asking = PROBES.submit(self._ask_store)
            asking = self._asking
        return asking.result(timeout=self.ready_timeout_s)

    def readiness(self) -> Readiness:
        """Store reachable and migrated; Redis and the read replica answering, when there are ones."""
        redis: Any = "not-configured" if self.queue is None else "ok" if self.queue.ping() else "unreachable"
        bots = self.queue.bot_depth() if self.queue is not None and redis == "ok" else None
        waiting: dict[str, Any] = {} if bots is None else {"bot_turns_waiting": bots[0]}
        try:
            (applied, known), heads, quorum = self._store_answer()
        except TimeoutError:
            log.warning("readiness: the store did not answer within %.1f s", self.ready_timeout_s)
            return Readiness("not-ready", "unreachable", "unknown", redis, **waiting,
                             detail=f"the store did not answer within {self.ready_timeout_s:g} s")
        except Exception as exc:  # noqa: BLE001  (whatever the driver raises, the store is not usable now)
            log.warning("readiness: the store does not answer (%s: %s)", type(exc).__name__, exc)
            return Readiness("not-ready", "unreachable", "unknown", redis, **waiting,
                             detail="the store does not answer")
        replica: Any = "not-configured" if self.replica is None else "ok" if heads else "unreachable"
        lag = max(0, heads[0] - heads[1]) if heads else None
        witnessed: dict[str, Any] = {} if quorum is None else {
            "witness_quorum": "met" if quorum.met else "not-met", "cosigned_size": quorum.cosigned_size,
            "cosigned_behind": quorum.behind}
        if applied == known:
            return Readiness("ready", "ok", "current", redis, replica, lag, **witnessed, **waiting)
        state: Any = "behind" if applied < known else "ahead"
        return Readiness("not-ready", "ok", state, redis, replica, lag, **witnessed, **waiting,
                         detail=f"{applied} migrations applied, this code knows {known}")

    def may_scrape(self, authorization: str | None) -> bool:
        """Whether a scrape showing this Authorization header may read the metrics (anyone, without a token set)."""
        if self.metrics_token is None:
            return True
        scheme, _, secret = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(secret.strip().encode(), self.metrics_token.encode())

    def scraped(self) -> Iterator[Any]:
        """The metrics read at scrape time: projections from the store, the queue from Redis."""
        try:
            head, states = Statistics(self.store).projections()
        except Exception as exc:  # noqa: BLE001
            log.warning("metrics: cannot read the projections (%s: %s)", type(exc).__name__, exc)
        else:
            yield from metrics.projection_families(
                head, [(s.name, s.checkpoint.position if s.checkpoint else 0, s.lag) for s in states])
        if self.queue is not None:
            depth = self.queue.depth()
            yield from metrics.queue_families(depth, None if depth is None else self.queue.bot_depth())
        try:
            quorum = self.quorum()
        except Exception as exc:  # noqa: BLE001
            log.warning("metrics: cannot read the witness quorum (%s: %s)", type(exc).__name__, exc)
        else:
            if quorum is not None:
                yield from metrics.quorum_families(quorum.met, quorum.cosigned_size, quorum.behind)
        if self.replica is not None:
            try:
                yield from metrics.replica_families(self.replica.lag())
            except Exception as exc:  # noqa: BLE001  (the primary's head: logged above already if it fails)
                log.warning("metrics: cannot read the log head (%s: %s)", type(exc).__name__, exc)


Ops = NamedDependency[Operations]


class OperationsController(Controller):
    """Liveness, readiness, metrics."""

    tags = ["service"]

    @get("/healthz", summary="Liveness", operation_id="getHealth", sync_to_thread=False)
    def health(self) -> Health:
        """The process answers (nothing else is checked: a load balancer restarts what fails this)."""
        return Health(status="ok")

    @get("/health", sync_to_thread=False, include_in_schema=False)
    def health_alias(self) -> Health:
        """The first name of /healthz, kept for existing checks."""
        return Health(status="ok")

    @get("/readyz", summary="Readiness", operation_id="getReadiness", sync_to_thread=True,
         responses={503: ResponseSpec(data_container=Readiness, description="Not ready: the store does not answer "
                                                                           "or its schema is not this code's")})
    def ready(self, ops: Ops) -> Response[Readiness]:
        """Ready to serve: the store answers and its migrations are current. Redis is reported, not required."""
        readiness = ops.readiness()
        return Response(readiness, status_code=200 if readiness.status == "ready" else 503)

    @get("/metrics", summary="Prometheus metrics", operation_id="getMetrics", sync_to_thread=True,
         include_in_schema=False)
    def metrics(self, request: Request[Any, Any, Any], ops: Ops) -> Response[bytes]:
        """Every metric in Prometheus's text format (see the README for what each means); with TURNSTILE_METRICS_TOKEN
        set, only for `Authorization: Bearer <it>`."""
        if not ops.may_scrape(request.headers.get("authorization")):
            raise ApiError(401, "metrics-token-required", "the metrics need the operator's token "
                                                          "(Authorization: Bearer <TURNSTILE_METRICS_TOKEN>)")
        body = metrics.exposition(ops.multiprocess_dir, [metrics.ScrapeCollector(ops.scraped)])
        return Response(body, media_type=CONTENT_TYPE_LATEST)
