"""The bulk export's filters at the store (issue 42): a time range read through its span of the log order gives what
walking the whole log gives, settled late or not; SQLite's player and game filters read few matches first."""

from __future__ import annotations

import random
import sqlite3
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.export_scale import captured
from ledger.events import SeatRecord
from service.reads.exports import Exports
from store import sql_exports
from store.base import iso
from store.exports import ExportQuery, Finished
from tests.store.conftest import Harness
from tests.store.test_contract import ev, start

BASE = datetime(2026, 6, 1, tzinfo=UTC)


def finish(store: Any, minute: int | None = None, **kw: Any) -> str:
    """A match started and ended; its `match.ended` event recorded `minute` minutes after BASE when given (the
    appender's clock, which need not follow the log order)."""
    match_id = start(store, **kw)
    clock = sys.modules[type(store).__module__]  # the adapter's own `utc_now`, which stamps its appends
    now = clock.utc_now() if minute is None else BASE + timedelta(minutes=minute)
    with patch.object(clock, "utc_now", lambda: now):
        store.append(match_id, 2, [ev("match.ended", reason="won")], seat=None, command=None, command_id=None)
    return match_id


def walked(store: Any, query: ExportQuery, after: int = 0, page: int = 3) -> list[int]:
    """The positions an export of `query` after `after` gives walking the log page by page, without a span."""
    found: list[int] = []
    while batch := store.finished_matches(query, after, page):
        found += [f.position for f in batch]
        after = batch[-1].position
    return found


def exported(store: Any, query: ExportQuery, after: int = 0, page: int = 3) -> list[int]:
    """The positions of the export's own request (`Exports.pages`: the span read once, then its pages)."""
    return [f.position for batch in Exports(store, None, page=page).pages(query, after, 10**6)  # type: ignore[arg-type]
            for f in batch]


def ended(store: Any, minutes: list[int]) -> list[int]:
    """Matches ending in log order at these minutes; their `match.ended` positions."""
    for minute in minutes:
        finish(store, minute)
    every = walked(store, ExportQuery(), page=1000)
    assert len(every) == len(minutes)
    return every


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(minutes=st.lists(st.integers(0, 30), min_size=1, max_size=14), since=st.none() | st.integers(0, 31),
       until=st.none() | st.integers(0, 31), page=st.integers(1, 4), cursor=st.integers(0, 10**6),
       resumed=st.integers(0, 10**6))
def test_a_time_range_through_its_span_is_the_walked_filter(harness: Harness, minutes: list[int], since: int | None,
                                                           until: int | None, page: int, cursor: int,
                                                           resumed: int) -> None:
    """For end times that do not follow the log order (each example adds matches to the store's log), any range
    and any cursor, the export read through its span gives exactly what walking the whole log with the filter
    gives: the ended events in the range after the cursor, in log order; and resumed from any of its lines, the
    rest of them once."""
    store: Any = harness.store
    for minute in minutes:
        finish(store, minute)
    every = store.finished_matches(ExportQuery(), 0, 10**6)
    query = ExportQuery(since=None if since is None else BASE + timedelta(minutes=since),
                        until=None if until is None else BASE + timedelta(minutes=until))
    after = [0, *[f.position for f in every]][cursor % (len(every) + 1)]
    low, high = (iso(moment) if moment else None for moment in (query.since, query.until))
    expected = [f.position for f in every if f.position > after and (low is None or f.ended_at >= low)
                and (high is None or f.ended_at < high)]
    assert walked(store, query, after, page) == expected
    assert exported(store, query, after, page) == expected
    if expected:
        line = expected[resumed % len(expected)]
        assert exported(store, query, line, page) == [p for p in expected if p > line]


def test_a_match_ending_in_range_after_the_span_is_read_is_still_exported(store: Any) -> None:
    """A match that ends while a request runs, after its span was read, is read by its next pages as it would be
    without a span, even with an end time earlier than the span's last (the appender's clock)."""
    early, late = finish(store, 5), finish(store, 20)
    query = ExportQuery(since=BASE, until=BASE + timedelta(minutes=30))
    pages = Exports(store, None, page=1).pages(query, 0, 10)  # type: ignore[arg-type]
    assert [f.match.id for f in next(pages)] == [early]
    during = finish(store, 10)  # ends (in range, before `late`'s end time) while the request runs
    outside = finish(store, 40)
    assert [f.match.id for batch in pages for f in batch] == [late, during]
    assert outside not in [f.match.id for f in store.finished_matches(query, 0, 10)]


def test_an_empty_range_reads_no_page_of_the_log(store: Any) -> None:
    """A range no settled match ended in gives an empty span and nothing; a match ending in it later is found."""
    for minute in range(6):
        finish(store, minute)
    query = ExportQuery(since=BASE + timedelta(hours=1))
    span = store.export_span(query, 0)
    assert span.last is None and exported(store, query) == []
    assert store.finished_matches(query, span.start, 10, span) == []
    later = finish(store, 90)
    assert [f.match.id for f in store.finished_matches(query, span.start, 10, span)] == [later]


@pytest.mark.postgres
def test_postgresql_span_leaves_a_transaction_in_flight_to_the_pages(pg_clean_url: str) -> None:
    """PostgreSQL: a match that ended in range while an older transaction was still running is above the horizon
    when the span is read (so not in it, and its end time is earlier than the span's last); once the older one
    ends, the request's next page returns it, as a request without a span would."""
    import psycopg

    from store.factory import open_store

    store: Any = open_store(pg_clean_url)
    try:
        first = finish(store, 5)
        with psycopg.connect(pg_clean_url) as older:
            older.execute("SELECT pg_current_xact_id()")  # holds the horizon, as an append in flight does
            late = finish(store, 1)
            query = ExportQuery(until=BASE + timedelta(minutes=30))
            span = store.export_span(query, 0)
            assert (span.start, span.last) == (0, walked(store, ExportQuery())[0])
            assert store.finished_matches(query, span.start, 10, span)[-1].match.id == first
        assert [f.match.id for f in store.finished_matches(query, span.start, 10, span)] == [first, late]
    finally:
        store.close()


def span_statements(store: Any, query: ExportQuery, after: int = 0) -> Iterator[tuple[str, Any]]:
    """The statements (and parameters) one page of an export request with a span runs."""
    with captured(store) as seen:
        next(Exports(store, None).pages(query, after, 100), None)  # type: ignore[arg-type]
    return iter(seen)


def sqlite_steps(store: Any, work: Callable[[], object]) -> int:
    """How many SQLite virtual machine instructions `work` runs on the store's connection: what it reads."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    conn: sqlite3.Connection = store._conn
    conn.set_progress_handler(count, 1)
    try:
        work()
    finally:
        conn.set_progress_handler(None, 0)
    return steps


def test_a_page_of_a_time_range_reads_the_range_not_the_log(harness: Harness) -> None:
    """The span is what the pages use: a request for a range of 3 matches reads as much with 400 matches ended
    before them and 400 after as with 40 (SQLite: its virtual machine instructions), and on PostgreSQL the span is
    read from the `recorded_at` index and the page's index scans read the span (whichever of the ended events'
    indexes the planner takes), not the 450 ended events around it."""
    store: Any = harness.store
    query = ExportQuery(since=BASE + timedelta(minutes=50))
    if store.one_writer:
        positions = ended(store, [1] * 20 + [50, 51, 52] + [1] * 20)
        few = sqlite_steps(store, lambda: exported(store, query, page=100))
        for minute in [1] * 400 + [50, 51, 52] + [1] * 400:
            finish(store, minute)
        after = positions[-1]
        assert len(exported(store, query, after)) == 3
        many = sqlite_steps(store, lambda: exported(store, query, after, page=100))
        assert many < few * 2 + 200, (few, many)
        return
    positions = ended(store, [1] * 400 + [50, 51, 52] + [1] * 50)
    assert exported(store, query) == positions[400:403]
    import json

    plans = []
    with store._transaction() as conn:
        conn.execute("SET LOCAL enable_seqscan = off")  # the plans of a big table on this small one
        for sql, params in span_statements(store, query):
            text = sql if isinstance(sql, str) else sql.as_string(conn)
            plan = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {text}", params).fetchone()[0]
            plans.append(json.dumps(plan))
    span_plan, *page_plans = plans
    assert "events_ended_time_idx" in span_plan
    scans = [node for plan in page_plans for node in _nodes(json.loads(plan)[0]["Plan"])
             if node.get("Index Name") in ("events_ended_log_order_idx", "events_ended_time_idx")]
    assert scans and sum(node["Actual Rows"] + node.get("Rows Removed by Filter", 0) for node in scans) <= 3 + 50


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


# ---- SQLite's player and game filters -------------------------------------------------------------------------


@pytest.mark.parametrize("few", [2000, 0], ids=["read-first", "walked"])
def test_the_player_filter_finds_a_player_seated_at_creation_or_later(store: Any, few: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`player=` (the export's and the matches list's) finds a player seated when the match was created and one
    who took a seat later (an append that writes `seats`), in any case of the handle, and no longer the seat's
    previous player; whether the player's matches are read first or tested one by one."""
    monkeypatch.setattr(sql_exports, "FEW_MATCHES", few)
    created = start(store, players=("Ann", "bob"))
    joined = start(store, players=("ann", "open"))
    store.append(joined, 2, [ev("seat.taken")], seat=1, command=None, command_id=None,
                 seats=(SeatRecord(0, "ann", "hash-ann"), SeatRecord(1, "Dee", "hash-dee")))
    for match_id in (created, joined):
        store.append(match_id, 3 if match_id == joined else 2, [ev("match.ended")], seat=None, command=None,
                     command_id=None)

    def export_of(player: str) -> list[str]:
        return [f.match.id for f in store.finished_matches(ExportQuery(player=player), 0, 10)]

    def listed(player: str) -> list[str]:
        return sorted(m.id for m in store.list_matches(player=player))

    assert export_of("ANN") == [created, joined] and listed("ann") == sorted([created, joined])
    assert export_of("dee") == [joined] and listed("DEE") == [joined]
    assert export_of("open") == [] and listed("open") == []
    assert export_of("nobody") == [] and listed("nobody") == []


@pytest.mark.parametrize("few", [2000, 0], ids=["read-first", "walked"])
def test_the_game_and_player_filters_keep_the_log_order(store: Any, few: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game or player filter gives its matches in the order they ended (not created), after a cursor, with the
    other filters; read first or walked alike."""
    monkeypatch.setattr(sql_exports, "FEW_MATCHES", few)
    rng = random.Random(42)
    made = [start(store, game=rng.choice(["terminus", "expect-delays"]),
                  players=(rng.choice(["ann", "bob", "cy"]), "dee")) for _ in range(12)]
    order = made[:]
    rng.shuffle(order)
    for match_id in order:
        store.append(match_id, 2, [ev("match.ended")], seat=None, command=None, command_id=None)
    every: list[Finished] = store.finished_matches(ExportQuery(), 0, 100)
    assert [f.match.id for f in every] == order
    for query in (ExportQuery(game="terminus"), ExportQuery(player="ann"), ExportQuery(game="touched-on"),
                  ExportQuery(game="terminus", player="bob"), ExportQuery(player="ann", edition="2")):
        expected = [f for f in every if (query.game is None or f.match.game == query.game)
                    and (query.player is None or query.player in [s.player for s in f.match.seats])
                    and (query.edition is None or f.match.rules_version == query.edition)]
        assert store.finished_matches(query, 0, 100) == expected, query
        if len(expected) > 2:
            assert store.finished_matches(query, expected[1].position, 100) == expected[2:], query


def test_sqlite_reads_a_rare_game_or_player_first(harness: Harness) -> None:
    """SQLite: a game or player with no finished match costs a few steps however many matches the log holds (it
    used to walk every ended event: 868 ms and 1.6 s at 10^5), while the common case walks as before."""
    store: Any = harness.store
    if not store.one_writer:
        pytest.skip("PostgreSQL's planner reads a rare game or player first from its own statistics")
    ended(store, [1] * 300)
    common = sqlite_steps(store, lambda: store.finished_matches(ExportQuery(game="expect-delays"), 0, 100))
    for query in (ExportQuery(game="terminus"), ExportQuery(player="nobody")):
        assert sqlite_steps(store, lambda q=query: store.finished_matches(q, 0, 100)) * 20 < common, query  # type: ignore[misc]
    assert sqlite_steps(store, lambda: store.list_matches(player="nobody")) * 20 < \
        sqlite_steps(store, lambda: store.list_matches(game="expect-delays"))
