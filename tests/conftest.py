"""Service plumbing shared by the whole suite: throwaway PostgreSQL databases/schemas and a Redis URL.

- `pg_url` (session): a fresh database `turnstile_test_<hex>` on the server named by TURNSTILE_DATABASE_URL,
  dropped (WITH (FORCE)) after the session.
- `pg_clean_url` (function): a URL of that database whose search_path is a brand-new, empty schema, so
  each test gets its own tables (events cannot be truncated: they are immutable). Creating a schema and
  migrating it costs a few tens of ms, far less than a database per test.
- `redis_url` (session): TURNSTILE_REDIS_URL with its db number set to 15 (TURNSTILE_REDIS_DB overrides).
  Nothing here flushes it: tests must use their own key prefix and delete only their own keys.

Without the variable, dependent tests are skipped with a loud reason; with TURNSTILE_REQUIRE_SERVICES=1
(CI) they fail instead.
"""

from __future__ import annotations

import gc
import os
import secrets
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import pytest


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """`api.asgi.create` freezes what a served process made to start (gc.freeze); in this one process of tests,
    whatever a test froze goes back to the collector after it."""
    yield
    gc.unfreeze()


PG_HINT = "set TURNSTILE_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_HINT = "set TURNSTILE_REDIS_URL=redis://127.0.0.1:6379/0"


def _missing(what: str, hint: str) -> None:
    if os.environ.get("TURNSTILE_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} tests required (TURNSTILE_REQUIRE_SERVICES=1) but not configured: {hint}")
    pytest.skip(f"{what} tests skipped: {hint}")


def _with_url(url: str, *, path: str | None = None, **query: str) -> str:
    """`url` with its path (database / db number) replaced and query parameters added."""
    parts = urlsplit(url)
    params = dict(parse_qsl(parts.query))
    params.update(query)
    return urlunsplit(
        (parts.scheme, parts.netloc, parts.path if path is None else path, urlencode(params, quote_via=quote), "")
    )


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """URL of a throwaway PostgreSQL database, created for this session and dropped after it."""
    server = os.environ.get("TURNSTILE_DATABASE_URL", "")
    if not server.startswith(("postgresql://", "postgres://")):
        _missing("PostgreSQL", PG_HINT)
    import psycopg

    name = f"turnstile_test_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_url(server, path=f"/{name}")
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_clean_url(pg_url: str) -> str:
    """URL of the session database with search_path set to a new empty schema (dropped with the database)."""
    import psycopg

    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return _with_url(pg_url, options=f"-c search_path={schema}")


@pytest.fixture(scope="session")
def redis_url() -> str:
    """TURNSTILE_REDIS_URL pointed at db 15 (or TURNSTILE_REDIS_DB); never flushed by the fixtures."""
    server = os.environ.get("TURNSTILE_REDIS_URL", "")
    if not server.startswith(("redis://", "rediss://")):
        _missing("Redis", REDIS_HINT)
    url = _with_url(server, path=f"/{os.environ.get('TURNSTILE_REDIS_DB', '15')}")
    import redis

    try:
        with redis.Redis.from_url(url, socket_connect_timeout=5) as client:
            client.ping()
    except redis.RedisError as exc:
        pytest.fail(f"TURNSTILE_REDIS_URL is set but Redis does not answer: {exc}")
    return url


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Any]:
    """A fresh store (events and read models) of each kind: a SQLite file, and a PostgreSQL schema."""
    from store.factory import open_store

    url = f"sqlite:///{tmp_path / 'store.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_clean_url")
    opened = open_store(url)
    yield opened
    opened.close()


def forget_queue(redis_url: str, queue: str) -> None:
    """Delete what RQ keeps in Redis for one queue of a test's own: the queue, its registries, its jobs and its
    workers, and their entries in RQ's shared sets (`rq:queues`, `rq:workers`; Redis drops a set once empty)."""
    import redis

    with redis.Redis.from_url(redis_url) as client:
        workers = set(client.smembers(f"rq:workers:{queue}"))
        workers |= {key for key in client.scan_iter("rq:worker:*")  # a worker gone: its hash lingers a while
                    if client.type(key) == b"hash" and client.hget(key, "queues") == queue.encode()}
        for worker in workers:
            client.delete(worker)
            client.srem("rq:workers", worker)
        for key in client.scan_iter("rq:job:*"):
            if client.type(key) == b"hash" and client.hget(key, "origin") == queue.encode():
                client.delete(key, *client.scan_iter(key + b":*"))
        for pattern in (f"rq:*:{queue}", f"rq:*:{queue}:*"):
            for key in client.scan_iter(pattern):
                client.delete(key)
        client.srem("rq:queues", f"rq:queue:{queue}")


@pytest.fixture
def rq_queue(redis_url: str) -> Iterator[str]:
    """A queue name of this test's own on `redis_url`; everything RQ kept for it is deleted after the test."""
    queue = f"test-{secrets.token_hex(4)}"
    yield queue
    forget_queue(redis_url, queue)
    forget_queue(redis_url, f"{queue}-bots")  # its bot turns' queue, where a test names it so
