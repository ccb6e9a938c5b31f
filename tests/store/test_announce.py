"""Appends are announced after they commit, many at a time, never inside the append (store/announce.py)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import psycopg
import pytest

from service.matches.matches import MatchService
from service.matches.simulate import play_random_moves
from store.announce import Announcer, payloads
from store.factory import open_store
from store.postgres import _APPEND_SQL, CHANNEL

pytestmark = pytest.mark.postgres


def test_payloads_carry_every_id_once_in_order_and_stay_under_the_limit() -> None:
    ids = [f"m{i:05d}" for i in range(3000)]
    sent = payloads(ids, limit=100)
    assert all(len(p.encode()) <= 100 for p in sent)
    assert ",".join(sent).split(",") == ids
    assert payloads([]) == [] and payloads(["one"]) == ["one"]


class Heard:
    """Everything said on the moves channel of a database, from a connection of its own."""

    def __init__(self, url: str) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute(f"LISTEN {CHANNEL}")
        self.notes: list[str] = []

    def until(self, wanted: set[str], timeout_s: float = 10.0) -> set[str]:
        """Collect notifications until every wanted match id was named (or the timeout); the ids heard."""
        deadline = time.monotonic() + timeout_s
        while not wanted <= self.ids() and time.monotonic() < deadline:
            for note in self.conn.notifies(timeout=0.2, stop_after=1):
                self.notes.append(note.payload)
        return self.ids()

    def ids(self) -> set[str]:
        return {i for payload in self.notes for i in payload.split(",")}


def test_moves_are_announced_after_commit_many_matches_to_a_notify(pg_clean_url: str) -> None:
    store = open_store(pg_clean_url)
    heard = Heard(pg_clean_url)
    try:
        service = MatchService(store)
        matches = [service.create("touched-on", ["a", "b"], {}).record.id for _ in range(6)]
        threads = [threading.Thread(target=play_random_moves, args=(MatchService(store), m, random.Random(i), 15))
                   for i, m in enumerate(matches)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert heard.until(set(matches)) >= set(matches)
        appends = 6 + sum(service.load(m).record.version - 1 for m in matches)
        assert store._announcer.sent < appends, "announcements gather the moves made meanwhile"
        assert "pg_notify" not in _APPEND_SQL, "the append's own transaction notifies nobody"
    finally:
        heard.conn.close()
        store.close()


def test_a_hung_announcer_never_holds_a_move_and_what_it_owes_goes_out_when_it_recovers(pg_clean_url: str) -> None:
    """The announcer's database connection hangs, then fails, then comes back: moves go on at full speed, and the
    matches moved meanwhile are announced once it can."""
    store = open_store(pg_clean_url)
    heard = Heard(pg_clean_url)
    release = threading.Event()
    tries: list[float] = []

    def connect() -> Any:
        tries.append(time.monotonic())
        if len(tries) == 1:
            release.wait(10)  # hung, as a connect to an unreachable host hangs
            raise psycopg.OperationalError("connection timed out")
        return psycopg.connect(pg_clean_url, autocommit=True)

    store._announcer.close()
    store._announcer = Announcer(connect, CHANNEL, retry_s=0.1)
    try:
        service = MatchService(store)
        match_id = service.create("touched-on", ["a", "b"], {}).record.id
        began = time.monotonic()
        assert play_random_moves(service, match_id, random.Random(1), 20) == 20
        assert time.monotonic() - began < 5, "moves did not wait on the announcer"
        assert match_id not in heard.until({match_id}, timeout_s=0.5)
        release.set()
        assert match_id in heard.until({match_id})
        assert len(tries) >= 2
    finally:
        release.set()
        heard.conn.close()
        store.close()


def test_closing_the_store_sends_what_is_still_owed(pg_clean_url: str) -> None:
    store = open_store(pg_clean_url)
    heard = Heard(pg_clean_url)
    try:
        store._announcer.close()
        store._announcer = Announcer(lambda: psycopg.connect(pg_clean_url, autocommit=True), CHANNEL, rest_s=5.0)
        service = MatchService(store)
        first = service.create("touched-on", ["a", "b"], {}).record.id
        assert first in heard.until({first})
        second = service.create("touched-on", ["a", "b"], {}).record.id  # waits out the 5 s rest
        store.close()
        assert second in heard.until({second}, timeout_s=2)
    finally:
        heard.conn.close()
