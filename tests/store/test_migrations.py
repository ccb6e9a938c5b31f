"""Schema creation on open: numbered, recorded, idempotent, safe when several processes open at once."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from store import migrations
from store.base import EventStore
from store.factory import open_store


@pytest.fixture(params=["sqlite-file", pytest.param("postgres", marks=pytest.mark.postgres)])
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database nobody has opened yet."""
    if request.param == "sqlite-file":
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    return str(request.getfixturevalue("pg_clean_url"))


def test_migrations_are_numbered_from_one_without_repeats() -> None:
    for dialect in ("postgres", "sqlite"):
        steps = migrations.load(dialect)
        numbers = [m.number for m in steps]
        assert numbers[0] == 1 and numbers == sorted(set(numbers)) and steps


def test_concurrent_first_opens_migrate_once(fresh_url: str) -> None:
    opened: list[EventStore] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def open_one() -> None:
        barrier.wait()
        try:
            opened.append(open_store(fresh_url))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert not errors, errors
        assert len(opened) == 4
        assert all(s.head_position() == 0 for s in opened)
        # and a fifth open later is harmless too
        open_store(fresh_url).close()
    finally:
        for s in opened:
            s.close()
