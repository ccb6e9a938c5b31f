"""Configuration: the environment read once into typed settings, one default for each value.

The API, the workers and the command line all read their configuration from `Settings.from_env()`; nothing else
reads the environment. A value comes from `TURNSTILE_<NAME>` (the field's name in capitals), e.g.
`TURNSTILE_DATABASE_URL` or `TURNSTILE_NOTIFY_TIMEOUT_S`; an unset or empty variable keeps the default.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PREFIX = "TURNSTILE_"
YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")
# Search bot moves that POST /v1/verifications re-runs, a random sample (a request is no place for a minute of search:
# up to a second a move at the top level); `turnstile verify` re-runs every one unless told `--bots sample=N`.
VERIFY_BOT_SAMPLE = 8


class SettingsError(ValueError):
    """An environment variable holds a value its setting cannot take."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Everything a Turnstile process is configured with."""

    # The event store: `sqlite:///path.db` (the embedded default, in the working directory) or `postgresql://...`.
    database_url: str = "sqlite:///turnstile.db"
    # Redis for the projection workers' queue; unset: projections fold in-process (the embedded default).
    redis_url: str | None = None
    queue: str = "turnstile-projections"
    # The queue of the search bots' turns (one RQ job a turn, service/matches/bot_jobs.py): workers take from both,
    # the projections' first. Without Redis the API process's own thread plays the bots.
    bot_queue: str = "turnstile-bots"
    # A search bot's turn is the background's (the bot runner, or a worker's job): the deadline sweep plays it only
    # once it has waited this long since the match's last write, so it takes over a lost turn (a crash, a job lost
    # with Redis) and never searches beside the runner or a worker. A top level's move takes at most a second
    # (bench/README.md); raise it where a queue of turns waits longer on busy workers.
    search_grace_s: float = 10.0
    # A PostgreSQL read replica of the store (streaming replication): statistics, leaderboards, match lists, event
    # logs, exports and replays read it; moves, match creation and the match detail read the primary. A replica
    # call slower than `replica_timeout_s` or failing reads the primary instead, for `replica_cool_down_s`; a read
    # asking for a `min_position` the replica has not reached waits `replica_wait_s`, then reads the primary.
    read_database_url: str | None = None
    replica_timeout_s: float = 1.0
    replica_cool_down_s: float = 5.0
    replica_wait_s: float = 0.5
    # How the API reaches Redis after a move: a short timeout per connect and reply, then a circuit breaker.
    notify_timeout_s: float = 0.25
    notify_breaker_failures: int = 3
    notify_breaker_cool_down_s: float = 5.0
    # Projections: events folded per transaction, and how often a catch-up runs even without new moves. Each
    # batch costs a transaction and a read of every document it touches per projection: a rebuild of ~24,000
    # events folded 14,000 events/s in batches of 500 and 26,000/s in batches of 2,000 (bench/README.md).
    projection_batch: int = 2000
    # The in-process runner's batch (no Redis) on SQLite: smaller, because there a batch holds the one write lock
    # that moves wait for, so it bounds how long a move can wait behind a fold (on PostgreSQL: `projection_batch`).
    inprocess_projection_batch: int = 100
    # ... and the least time between two of its catch-ups: appends meanwhile are folded together, so a busy server
    # runs a few catch-ups a second (each a transaction per projection), not one per move.
    inprocess_projection_interval_s: float = 0.2
    sweep_seconds: float = 5.0
    # `/readyz` waits this long for the store to answer, then says not ready (a hung database never holds a probe).
    ready_timeout_s: float = 2.0
    # PostgreSQL: the API's statements are cancelled past this (a lock held elsewhere, a hung query), and the request
    # answered 503 `store-unavailable` with nothing written; 0: no limit. Background work (projection batches,
    # migrations), workers and the command line have none.
    statement_timeout_s: float = 15.0
    # A request that moves a tournament on (start, withdraw, the move ending a match) plays bots' matches for at most
    # this long; the process's background driver plays the rest (a tournament of bots plays itself to the end).
    tournament_drive_budget_s: float = 2.0
    # What one app may ask of the server's tournaments: a tournament whose format plans more matches than
    # `tournament_matches_max` is refused at creation (422 `too-many-matches`; a round robin of 33 entrants plays 528),
    # and a start past `tournaments_running_per_app` tournaments of the app being played (429 `too-many-tournaments`).
    tournament_matches_max: int = 512
    tournaments_running_per_app: int = 10
    # `turnstile serve`: API processes; 0 chooses by store (1 on SQLite, one per CPU on PostgreSQL).
    workers: int = 0
    # Folded matches each API process keeps (≈ 15 KiB each): a match not kept is read and folded whole on its next
    # move (a 500-event match: ≈ 4x a cached move), so keep at least the matches being played at once.
    state_cache_size: int = 2048
    # Open event streams (match streams and feeds) a token, an app or an address may hold at once.
    streams_per_caller: int = 20
    # Rate limits (token buckets): requests a second and burst per app key, per seat token, and per client address
    # for requests with neither (spectators). Shared through Redis when it is configured; 0 a second: no limit.
    # Generous: a person plays a few moves a minute, a bot a few a second; floods are what they stop.
    rate_app_per_s: float = 100.0
    rate_app_burst: int = 2000
    rate_seat_per_s: float = 100.0
    rate_seat_burst: int = 2000
    rate_address_per_s: float = 100.0
    rate_address_burst: int = 2000
    # Bulk exports (GET /v1/exports/...) stream up to thousands of records a request: each caller (app key, seat
    # token or address) also draws on a bucket of its own for them, on top of the one above. 0 a second: no limit.
    rate_export_per_s: float = 0.5
    rate_export_burst: int = 10
    # Where `turnstile dump --month` cuts the monthly dumps and GET /v1/dumps serves them from (None: none served).
    dumps_dir: str | None = None
    # When set, `GET /metrics` answers only `Authorization: Bearer <this>` (401 `metrics-token-required` else): its
    # counters (the log's head, events appended) move when private matches move. Unset: anyone may scrape it.
    metrics_token: str | None = None
    # Where the API processes of `turnstile serve --workers N` (N > 1) keep their metrics' files, so a scrape of
    # any one of them sums all; `turnstile serve` sets it (a fresh temporary folder) when unset.
    metrics_dir: str | None = None
    # Proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` headers are believed (comma-separated IP addresses or
    # CIDR networks, e.g. `10.0.0.5,10.1.0.0/16`); none by default: the client address is the connection's own, so a
    # caller cannot pick the address its requests are limited as. `Forwarded` (RFC 7239) is never read.
    trusted_proxies: str = ""
    # Browser apps on these origins (comma-separated) may call the API (CORS); none by default.
    cors_origins: str = ""
    # Tests only: a pause per folded event, so a worker can be killed in the middle of a batch.
    projection_delay_s: float = 0.0
    # The transparency log's Ed25519 signing key: a file `turnstile log keygen` writes. Unset: a SQLite file store
    # makes one beside its file on first start (`<db>.logkey`, and says so); on PostgreSQL the tree still grows but no
    # checkpoint is signed (set it, to the same file, for every API and worker process). Snapshots' HMAC key is
    # derived from it.
    log_key: str | None = None
    # Witnesses (c2sp.org/tlog-policy): a policy file naming this log, its witnesses with their URLs, and the quorum
    # of cosignatures a checkpoint needs. Set: the API process sends each new checkpoint to every witness of it (at
    # most every `witness_interval_s`, each request given up after `witness_timeout_s`), and GET /v1/log/checkpoint
    # serves the newest checkpoint that meets the quorum, with its cosignatures. Unset: checkpoints as before.
    witness_policy: str | None = None
    witness_interval_s: float = 5.0
    witness_timeout_s: float = 5.0
    # Webhooks. Receivers on private, loopback or link-local addresses are refused unless the operator allows them
    # (`TURNSTILE_WEBHOOK_ALLOW_PRIVATE=1`: tests and receivers on the same private network).
    webhook_allow_private: bool = False
    webhooks_per_app: int = 20
    # One attempt: connect, send and answer within this many seconds, or it failed.
    webhook_timeout_s: float = 5.0
    # A failed delivery is retried after about this long, doubling per failure (with jitter, at most an hour
    # apart), until `webhook_give_up_s` after it was due (a day); then it has failed and its subscription is
    # disabled. `webhook_max_attempts` (0: no limit) gives up sooner.
    webhook_retry_s: float = 10.0
    webhook_give_up_s: float = 86400.0
    webhook_max_attempts: int = 0
    # Deliveries sent at once per process (one per subscription at a time, so a slow receiver holds one sender).
    webhook_senders: int = 4
    # How often a process looks for new events (to derive deliveries) and due deliveries without being woken (its
    # senders take turns: an idle process asks the database this often, not once per sender).
    webhook_poll_s: float = 0.5
    # ... and the least time between two folds: the appends of that time are folded together.
    webhook_fold_interval_s: float = 0.1
    # A sender holds its subscription this long per attempt: a sender killed mid-attempt frees it then.
    webhook_lease_s: float = 30.0

    def __post_init__(self) -> None:
        positive = ("notify_timeout_s", "notify_breaker_failures", "projection_batch", "inprocess_projection_batch",
                    "sweep_seconds", "state_cache_size", "streams_per_caller", "rate_app_burst", "rate_seat_burst",
                    "rate_address_burst", "rate_export_burst", "webhooks_per_app", "webhook_timeout_s",
                    "webhook_retry_s", "webhook_give_up_s", "webhook_senders", "webhook_poll_s", "webhook_lease_s",
                    "replica_timeout_s", "ready_timeout_s", "tournament_matches_max", "tournaments_running_per_app",
                    "witness_interval_s", "witness_timeout_s", "search_grace_s")
        for name in positive:
            if getattr(self, name) <= 0:
                raise SettingsError(f"{PREFIX}{name.upper()} must be positive, not {getattr(self, name)!r}")
        for name in ("notify_breaker_cool_down_s", "projection_delay_s", "workers", "inprocess_projection_interval_s",
                     "rate_app_per_s", "rate_seat_per_s", "rate_address_per_s", "rate_export_per_s",
                     "webhook_max_attempts", "replica_cool_down_s", "replica_wait_s", "webhook_fold_interval_s",
                     "statement_timeout_s", "tournament_drive_budget_s"):
            if getattr(self, name) < 0:
                raise SettingsError(f"{PREFIX}{name.upper()} may not be negative")
        for proxy in self.proxies():
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise SettingsError(f"{PREFIX}TRUSTED_PROXIES: {proxy!r} is not an IP address or network") from None
        if self.webhook_lease_s <= self.webhook_timeout_s:  # else a second attempt could start beside a slow one
            raise SettingsError(f"{PREFIX}WEBHOOK_LEASE_S must be longer than {PREFIX}WEBHOOK_TIMEOUT_S")

    def proxies(self) -> list[str]:
        """The trusted proxies' addresses and networks, one an item (none by default)."""
        return [item.strip() for item in self.trusted_proxies.split(",") if item.strip()]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings named by `env` (the process environment by default)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            name = PREFIX + field.name.upper()
            text = env.get(name)
            if text:
                values[field.name] = _parse(name, text, field.type)
        return cls(**values)


def share_with_children(**variables: str) -> None:
    """Set environment variables for the processes this one starts next (uvicorn's worker processes)."""
    os.environ.update(variables)


def _parse(name: str, text: str, kind: Any) -> Any:
    """The value of one variable, as its field's type (the annotation, a string under postponed evaluation)."""
    if str(kind) == "bool":
        flag = text.strip().lower()
        if flag not in YES + NO:
            raise SettingsError(f"{name}={text!r} is not one of {', '.join(YES + NO)}")
        return flag in YES
    converters = {"int": int, "float": float}
    convert = converters.get(str(kind))
    if convert is None:  # str and str | None
        return text
    try:
        return convert(text)
    except ValueError:
        raise SettingsError(f"{name}={text!r} is not {'an integer' if convert is int else 'a number'}") from None
