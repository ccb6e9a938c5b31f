"""Open an event store from a URL: `sqlite:///path`, `sqlite:///:memory:` or `postgresql://...`."""

from __future__ import annotations

import os

from store.read_models import Store

DEFAULT_DATABASE_URL = "sqlite:///turnstile.db"


def database_url() -> str:
    """The store to use: TURNSTILE_DATABASE_URL, or a SQLite file in the working directory."""
    return os.environ.get("TURNSTILE_DATABASE_URL") or DEFAULT_DATABASE_URL


def open_store(url: str) -> Store:
    """Open (creating or migrating the schema if needed) the event store named by `url`.

    `sqlite:///relative/path.db`, `sqlite:////absolute/path.db` and `sqlite:///:memory:` open SQLite;
    `postgresql://` or `postgres://` URLs are handed to libpq as they are (so `?options=-csearch_path%3Dx`
    selects a schema).
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a store URL: {url!r}")
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise ValueError(f"SQLite URLs look like sqlite:///path or sqlite:///:memory:, got {url!r}")
        from store.sqlite import SqliteStore  # imported here so neither adapter loads the other's driver

        return SqliteStore(rest[1:])
    if scheme in ("postgresql", "postgres"):
        from store.postgres import PostgresStore

        return PostgresStore(url)
    raise ValueError(f"unknown store URL scheme {scheme!r} (use sqlite:// or postgresql://)")
