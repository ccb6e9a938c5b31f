"""Rate limits: a token bucket per app key, per seat token, and per client address for requests with neither.

A bulk export (`/v1/exports/...`) also takes a token of the caller's export bucket (`TURNSTILE_RATE_EXPORT_*`).

A bearer credential that is not a known app key or seat token (a made-up one) counts against its caller's address.

A caller at its limit gets 429 `rate-limited` with `Retry-After` and nothing happens. Buckets live in Redis when
it is configured, so every API process draws on one budget, else in the process's memory. Redis is never in a
move's way: each check has a short timeout and goes through a circuit breaker, and when Redis fails the request
goes through unchecked (fail open), with a log line and `turnstile_rate_limit_fail_open`.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from litestar.types import ASGIApp, Receive, Scope, Send

from api.credentials import Credentials, Kind
from service.ops.breaker import CircuitBreaker
from service.ops.metrics import RATE_LIMIT_FAIL_OPEN, RATE_LIMITED
from settings import Settings

log = logging.getLogger("turnstile.ratelimit")
LIMITED_PREFIX = "/v1/"  # health, readiness, metrics and the docs are never limited
EXPORTS_PREFIX = "/v1/exports/"  # bulk exports: a bucket of their own per caller, on top of the caller's own


class RateLimited(Exception):
    """A caller spent its bucket: retry after `wait_s` seconds."""

    def __init__(self, kind: str, wait_s: float) -> None:
        super().__init__(f"too many requests for this {kind}; retry in {math.ceil(wait_s)} s")
        self.kind = kind
        self.wait_s = wait_s


@dataclass(frozen=True)
class Limit:
    """A bucket of `burst` requests refilled at `per_s` a second; `per_s` 0 means no limit."""

    per_s: float
    burst: int


@dataclass(frozen=True)
class Limits:
    """The limit of each kind of caller."""

    app: Limit = Limit(100.0, 2000)  # the defaults of settings.py
    seat: Limit = Limit(100.0, 2000)
    address: Limit = Limit(100.0, 2000)
    export: Limit = Limit(0.5, 10)

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        """The limits the settings name (TURNSTILE_RATE_<KIND>_PER_S and _BURST)."""
        return cls(app=Limit(settings.rate_app_per_s, settings.rate_app_burst),
                   seat=Limit(settings.rate_seat_per_s, settings.rate_seat_burst),
                   address=Limit(settings.rate_address_per_s, settings.rate_address_burst),
                   export=Limit(settings.rate_export_per_s, settings.rate_export_burst))


class Buckets(Protocol):
    """Where buckets are kept."""

    async def take(self, key: str, limit: Limit) -> float:
        """Take one token from the bucket `key`: 0 when there was one, else the seconds until there is."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


class MemoryBuckets:
    """Buckets in this process (the embedded default): each API process has its own budget."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000) -> None:
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    async def take(self, key: str, limit: Limit) -> float:
        """Refill by the time passed, then take one token if there is one."""
        now = self.clock()
        tokens, then = self.buckets.get(key, (float(limit.burst), now))
        tokens = min(float(limit.burst), tokens + (now - then) * limit.per_s)
        if len(self.buckets) >= self.max_keys and key not in self.buckets:
            self.buckets.clear()  # forgetting every bucket only forgives; it never refuses anyone wrongly
        if tokens >= 1:
            self.buckets[key] = (tokens - 1, now)
            return 0.0
        self.buckets[key] = (tokens, now)
        return (1 - tokens) / limit.per_s

    async def close(self) -> None:
        """Nothing to release."""


# One round trip: refill by Redis's own clock (every API host agrees on it), take a token, expire idle buckets.
TAKE = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = math.min(burst, (tonumber(held[1]) or burst) + math.max(0, now - (tonumber(held[2]) or now)) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return tostring(wait)
"""


class RedisBuckets:
    """Buckets in Redis, shared by every API process; a failing Redis lets requests through (fail open)."""

    def __init__(self, settings: Settings, prefix: str = "turnstile:rate:") -> None:
        from redis.asyncio import Redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        if settings.redis_url is None:
            raise ValueError("Redis buckets need a Redis URL (TURNSTILE_REDIS_URL)")
        self.prefix = prefix
        self.redis: Any = Redis.from_url(settings.redis_url, socket_timeout=settings.notify_timeout_s,
                                         socket_connect_timeout=settings.notify_timeout_s, retry=Retry(NoBackoff(), 0))
        self.script = self.redis.register_script(TAKE)
        self.breaker = CircuitBreaker("rate limits (Redis)", settings.notify_breaker_failures,
                                      settings.notify_breaker_cool_down_s)

    async def take(self, key: str, limit: Limit) -> float:
        """Take a token in Redis; 0 (let through) when Redis fails or the breaker is open."""
        if not self.breaker.allow():
            RATE_LIMIT_FAIL_OPEN.inc()
            return 0.0
        try:
            wait = float(await self.script(keys=[self.prefix + key], args=[limit.per_s, limit.burst]))
        except Exception as exc:  # noqa: BLE001  (down, hung, refused: the request goes through unchecked)
            if self.breaker.failed_in_a_row == 0 and self.breaker.state == "closed":
                log.warning("rate limits: Redis failed (%s: %s); letting requests through", type(exc).__name__, exc)
            self.breaker.failed(f"{type(exc).__name__}: {exc}")
            RATE_LIMIT_FAIL_OPEN.inc()
            return 0.0
        self.breaker.succeeded()
        return wait

    async def close(self) -> None:
        """Close the connections."""
        await self.redis.aclose()


def bearer_secret(scope: Scope) -> bytes | None:
    """The bearer secret of the request, if it shows one."""
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            scheme, _, secret = value.partition(b" ")
            secret = secret.strip()
            if scheme.lower() == b"bearer" and secret:
                return secret
    return None


def address_key(scope: Scope) -> str:
    """The bucket key of the request's client address (as the server saw it, or the trusted proxy said)."""
    client = scope.get("client")
    return f"address:{client[0] if client else 'unknown'}"


def secret_key(kind: Kind, secret: bytes) -> str:
    """The bucket key of a known credential: its hash, never the secret."""
    return f"{kind}:{hashlib.sha256(secret).hexdigest()[:32]}"


class RateLimiter:
    """Decides, per request, whether its caller may go on."""

    def __init__(self, limits: Limits | None = None, buckets: Buckets | None = None) -> None:
        self.limits = limits or Limits()
        self.buckets: Buckets = buckets or MemoryBuckets()

    async def check(self, scope: Scope, credentials: Credentials | None = None) -> None:
        """RateLimited when the request's caller has no token left. A bearer credential draws on its own bucket once
        `credentials` know it for an app key or a seat token; until then (a made-up one: always) the address pays,
        before the credential is looked up."""
        if not scope["path"].startswith(LIMITED_PREFIX):
            return
        secret = bearer_secret(scope)
        found, kind = ((False, None) if secret is None or credentials is None
                       else credentials.remembered(secret, scope["path"]))
        if secret is not None and kind is not None:
            key = secret_key(kind, secret)
            await self.take(kind, key)
        else:
            key = address_key(scope)
            await self.take("address", key)
            if secret is not None and credentials is not None and not found:
                await credentials.look_up(secret, scope["path"])
        if scope["path"].startswith(EXPORTS_PREFIX):
            await self.take("export", f"export:{key}")

    async def take(self, kind: str, key: str) -> None:
        """Take a token of `key`'s bucket, limited as `kind` callers are; RateLimited when there is none."""
        limit: Limit = getattr(self.limits, kind)
        if limit.per_s <= 0:
            return
        wait = await self.buckets.take(key, limit)
        if wait > 0:
            RATE_LIMITED.labels(kind).inc()
            names = {"app": "app key", "seat": "seat token", "export": "caller's exports"}
            raise RateLimited(names.get(kind, kind), wait)

    def middleware(self, credentials: Credentials | None = None) -> Callable[[ASGIApp], ASGIApp]:
        """Litestar middleware: 429 (through the exception handlers) before the handler runs; `credentials` tell
        real bearer credentials from made-up ones."""

        def wrap(app: ASGIApp) -> ASGIApp:
            async def limited(scope: Scope, receive: Receive, send: Send) -> None:
                if scope["type"] == "http":
                    await self.check(scope, credentials)
                await app(scope, receive, send)

            return limited

        return wrap
