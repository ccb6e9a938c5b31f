"""Open an event store from a URL: `sqlite:///path`, `sqlite:///:memory:` or `postgresql://...`."""

from __future__ import annotations

from store.base import StoreUnavailable
from store.read_models import Store


def open_store(url: str, *, statement_timeout_s: float = 0.0) -> Store:
    """Open (creating or migrating the schema if needed) the event store named by `url`.

    `sqlite:///relative/path.db`, `sqlite:////absolute/path.db` and `sqlite:///:memory:` open SQLite;
    `postgresql://` or `postgres://` URLs are handed to libpq as they are (so `?options=-csearch_path%3Dx`
    selects a schema). `statement_timeout_s` > 0 cancels a PostgreSQL statement running longer (SQLite's writers
    wait on its lock for its own busy timeout).
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise StoreUnavailable(f"not a store URL: {url!r} (use sqlite:///path.db or postgresql://...)")
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise StoreUnavailable(f"SQLite URLs look like sqlite:///path or sqlite:///:memory:, got {url!r}")
        from store.sqlite import SqliteStore  # imported here so neither adapter loads the other's driver

        return SqliteStore(rest[1:])
    if scheme in ("postgresql", "postgres"):
        from store.postgres import PostgresStore

        return PostgresStore(url, statement_timeout_s=statement_timeout_s)
    raise StoreUnavailable(f"unknown store URL scheme {scheme!r} (use sqlite:// or postgresql://)")


def unavailable_errors() -> tuple[type[Exception], ...]:
    """What a store raises when its database does not answer: it is down, the connection broke, a statement ran past
    its timeout, or the pool had no connection in time (psycopg's `OperationalError` covers the driver's). Nothing
    was written by the statement that failed; the same request may be tried again."""
    import psycopg

    return (StoreUnavailable, psycopg.OperationalError)
