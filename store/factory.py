"""Open an event store from a URL: `sqlite:///path`, `sqlite:///:memory:` or `postgresql://...`."""

from __future__ import annotations

from store.base import StoreUnavailable
from store.read_models import Store


def open_store(url: str) -> Store:
    """Open (creating or migrating the schema if needed) the event store named by `url`.

    `sqlite:///relative/path.db`, `sqlite:////absolute/path.db` and `sqlite:///:memory:` open SQLite;
    `postgresql://` or `postgres://` URLs are handed to libpq as they are (so `?options=-csearch_path%3Dx`
    selects a schema).
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

        return PostgresStore(url)
    raise StoreUnavailable(f"unknown store URL scheme {scheme!r} (use sqlite:// or postgresql://)")
