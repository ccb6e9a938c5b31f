"""Schema creation on open: numbered, recorded, idempotent, safe when several processes open at once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from ledger.events import NewEvent, NewMatch, SeatRecord
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


def test_the_seat_identities_migration_gives_earlier_seats_theirs(fresh_url: str) -> None:
    """A match stored before the seats held their players' identities is found by `player=` in any case once the
    migration has run (it is run again here on seats written as they were before it)."""
    store: Any = open_store(fresh_url)
    step = next(m for m in migrations.load(store.schema_folder) if m.name == "seat_identities")
    seats = (SeatRecord(0, "Ann", "h0"), SeatRecord(1, "BOB", "h1"))
    old = NewMatch(id="m-old", game="expect-delays", rules_version="1", options={}, seed="s", seed_commitment="c",
                   seats=seats)
    store.create_match(old, [NewEvent("match.started", {"type": "match.started"})])
    before = [{"seat": 0, "player": "Ann", "token_hash": "h0"}, {"seat": 1, "player": "BOB", "token_hash": "h1"}]
    sql = store.dialect.sql
    with store._transaction() as conn:
        conn.execute(sql("UPDATE matches SET seats = ? WHERE id = 'm-old'"), (store.dialect.encode(before),))
        conn.execute(sql("DELETE FROM schema_migrations WHERE number = ?"), (step.number,))
    assert store.list_matches(player="ann") == []
    store.close()
    reopened = open_store(fresh_url)
    try:
        assert [m.id for m in reopened.list_matches(player="ann")] == ["m-old"]
        assert [m.id for m in reopened.list_matches(player="Bob")] == ["m-old"]
        assert reopened.get_match("m-old").seats == seats  # type: ignore[union-attr]
    finally:
        reopened.close()
