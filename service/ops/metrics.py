"""Prometheus metrics: what every process counts, and what is read at scrape time (projections, the queue).

With several API processes (`turnstile serve --workers N`) prometheus-client keeps each process's values in files
under PROMETHEUS_MULTIPROC_DIR (set by `turnstile serve`), and a scrape of any process sums them all. Labels are
bounded: route templates (never paths), game slugs, problem codes, projection names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import REGISTRY, Collector

# Seconds: a move is a few ms; the tail matters up to a second or two.
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

REQUESTS = Counter("turnstile_http_requests", "HTTP requests answered, by method, route template and status",
                   ["method", "route", "status"])
REQUEST_SECONDS = Histogram("turnstile_http_request_seconds", "Time to answer an HTTP request, by route template",
                            ["route"], buckets=FAST)
MOVE_SECONDS = Histogram("turnstile_move_seconds", "Time to decide and record a move, by game", ["game"],
                         buckets=FAST)
APPEND_SECONDS = Histogram("turnstile_store_append_seconds", "Time of one append to the event store", buckets=FAST)
EVENTS_APPENDED = Counter("turnstile_events_appended", "Events written to the log, by game", ["game"])
REFUSALS = Counter("turnstile_refusals", "Problem answers (4xx/5xx), by code", ["code"])
VERSION_CONFLICTS = Counter("turnstile_version_conflicts", "Appends that found the match moved on by another writer")
REPLAYS = Counter("turnstile_idempotent_replays", "Moves and creates answered with the first answer of a retry")
OPEN_STREAMS = Gauge("turnstile_open_streams", "Event streams (match streams and feeds) open now",
                     multiprocess_mode="livesum")
RATE_LIMITED = Counter("turnstile_rate_limited", "Requests refused with 429 by a rate limit, by caller kind",
                       ["kind"])
RATE_LIMIT_FAIL_OPEN = Counter("turnstile_rate_limit_fail_open",
                               "Requests let through unchecked because the rate limit store (Redis) failed")
REPLICA_FALLBACKS = Counter("turnstile_replica_fallbacks",
                            "Reads meant for the read replica answered from the primary, by reason "
                            "(down, failed, hung, behind, min-position)", ["reason"])
WITNESS_REQUESTS = Counter("turnstile_witness_requests", "add-checkpoint requests to the policy's witnesses, by "
                           "witness and outcome (cosigned, idle, conflict, down, hung, http-4xx, ...)",
                           ["witness", "outcome"])
WITNESS_ALARMS = Counter("turnstile_witness_alarms", "Witnesses that refused the log's history (fork: 409 or 422; "
                         "rollback: it cosigned a larger tree; bad-cosignature), by witness and reason",
                         ["witness", "reason"])


class ScrapeCollector(Collector):
    """Metrics read when scraped: `read()` yields metric families (a failing read yields none and says so)."""

    def __init__(self, read: Callable[[], Iterable[Any]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Any]:
        """The families `read` gives now."""
        yield from self.read()


def projection_families(head: int, states: Iterable[tuple[str, int, int]]) -> list[GaugeMetricFamily]:
    """Position and lag of each projection (name, position, lag), and the head of the log."""
    position = GaugeMetricFamily("turnstile_projection_position", "Global log position a projection has folded up to",
                                 labels=["projection"])
    lag = GaugeMetricFamily("turnstile_projection_lag_events", "Events in the log a projection has not folded yet",
                            labels=["projection"])
    for name, at, behind in states:
        position.add_metric([name], at)
        lag.add_metric([name], behind)
    log_head = GaugeMetricFamily("turnstile_log_head_position", "Position of the newest event in the global log")
    log_head.add_metric([], head)
    return [log_head, position, lag]


def replica_families(heads: tuple[int, int] | None) -> list[GaugeMetricFamily]:
    """The read replica's log head and its lag behind the primary's (heads: primary's, replica's);
    `turnstile_replica_up` 0 when it did not answer this scrape."""
    up = "1 when the read replica answered this scrape, else 0"
    return _answered("turnstile_replica_up", up, None if heads is None else [
        ("turnstile_replica_head_position", "Position of the newest event on the read replica", heads[1]),
        ("turnstile_replica_lag_positions", "The primary's log head minus the replica's (0: caught up)",
         max(0, heads[0] - heads[1]))])


def quorum_families(met: bool, cosigned_size: int | None, behind: int) -> list[GaugeMetricFamily]:
    """Whether the witness policy's quorum is being met, the newest checkpoint size cosigned by a quorum, and how many
    leaves the newest signed checkpoint is ahead of it."""
    families = []
    for name, help_text, number in [
            ("turnstile_witness_quorum_met", "1 when the newest checkpoints reach the witness quorum, else 0",
             int(met)),
            ("turnstile_log_cosigned_size", "Tree size of the newest checkpoint cosigned by a quorum (0: none)",
             cosigned_size or 0),
            ("turnstile_log_cosigned_behind_leaves", "Leaves the newest signed checkpoint is ahead of the newest "
                                                     "cosigned by a quorum", behind)]:
        family = GaugeMetricFamily(name, help_text)
        family.add_metric([], number)
        families.append(family)
    return families


def queue_families(depth: tuple[int, int] | None, bots: tuple[int, int] | None = None) -> list[GaugeMetricFamily]:
    """Jobs waiting and failed in the projection queue and in the search bots' queue; `turnstile_queue_up` 0 when
    Redis did not answer."""
    up = "1 when the queue's Redis answered this scrape, else 0"
    return _answered("turnstile_queue_up", up, None if depth is None else [
        ("turnstile_queue_jobs", "Projection jobs waiting in the queue", depth[0]),
        ("turnstile_queue_failed_jobs", "Projection jobs in the failed job registry", depth[1]),
        *([] if bots is None else [
            ("turnstile_bot_queue_jobs", "Search bots' turns waiting in their queue", bots[0]),
            ("turnstile_bot_queue_failed_jobs", "Search bots' turns in their queue's failed job registry", bots[1])])])


def _answered(up_name: str, up_help: str, gauges: list[tuple[str, str, int]] | None) -> list[GaugeMetricFamily]:
    """An `up` gauge (0 when `gauges` is None: its source did not answer), then each gauge with its value."""
    up = GaugeMetricFamily(up_name, up_help)
    up.add_metric([], 0 if gauges is None else 1)
    families = [up]
    for name, help_text, number in gauges or []:
        family = GaugeMetricFamily(name, help_text)
        family.add_metric([], number)
        families.append(family)
    return families


def exposition(multiprocess_dir: str | None, collectors: Iterable[Collector]) -> bytes:
    """The text format of every metric: this process's (or all processes' files) and the scrape-time ones."""
    if multiprocess_dir:
        counted = CollectorRegistry()
        MultiProcessCollector(counted, path=multiprocess_dir)
    else:
        counted = REGISTRY
    scraped = CollectorRegistry(auto_describe=False)
    for collector in collectors:
        scraped.register(collector)
    return generate_latest(counted) + generate_latest(scraped)


def process_exited(multiprocess_dir: str | None, pid: int) -> None:
    """A served process stops: its live gauges (open streams) no longer count."""
    if multiprocess_dir:
        from prometheus_client.multiprocess import mark_process_dead

        mark_process_dead(pid, multiprocess_dir)
