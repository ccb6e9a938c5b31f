"""open_store picks the adapter from the URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from store.base import StoreUnavailable
from store.factory import open_store
from store.sqlite import SqliteStore


def test_sqlite_urls(tmp_path: Path) -> None:
    memory = open_store("sqlite:///:memory:")
    assert isinstance(memory, SqliteStore)
    memory.close()
    path = tmp_path / "x.db"
    on_disk = open_store(f"sqlite:///{path}")  # an absolute path gives four slashes
    on_disk.close()
    assert path.exists()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "mysql://x/y", "events.db", "redis://localhost"])
def test_bad_urls_are_refused(url: str) -> None:
    with pytest.raises(StoreUnavailable):
        open_store(url)


@pytest.mark.postgres
def test_a_missing_postgresql_database_is_said_at_once(pg_url: str) -> None:
    """Not a pool that retries for its whole timeout and then raises PoolTimeout: the server's own reason."""
    with pytest.raises(StoreUnavailable, match='database "no_such_db_here" does not exist'):
        open_store(pg_url.rsplit("/", 1)[0] + "/no_such_db_here")
