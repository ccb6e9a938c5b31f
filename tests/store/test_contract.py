"""The EventStore contract, run against every adapter (see the `harness` fixture in conftest.py)."""

from __future__ import annotations

import itertools
import re
import threading
from datetime import timedelta
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.chain import GENESIS, canonical, committed_event_hash, event_hash, verify_chain
from ledger.events import NewEvent, NewMatch, SeatRecord
from store import migrations
from store.base import (
    AppKeyStore,
    ConflictError,
    EventStore,
    IdempotencyMismatch,
    MatchExists,
    MatchNotFound,
    StoreError,
    match_key,
)
from tests.store.conftest import Harness

ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")
_ids = itertools.count(1)


def ev(type_: str, **fields: Any) -> NewEvent:
    return NewEvent(type_, {"type": type_, **fields})


def record(
    match_id: str | None = None, game: str = "expect-delays", players: tuple[str, ...] = ("ann", "bob")
) -> NewMatch:
    seats = tuple(SeatRecord(i, p, f"hash-{p}") for i, p in enumerate(players))
    return NewMatch(id=match_id or f"m{next(_ids)}", game=game, rules_version="1", seats=seats,
                    options={"rounds": 3}, seed="seed", seed_commitment="commit", scheme=1)


def start(store: EventStore, match_id: str | None = None, **kw: Any) -> str:
    rec = record(match_id, **kw)
    store.create_match(rec, [ev("match.started", seats=len(rec.seats)), ev("deck.shuffled", order=[3, 1, 2])])
    return rec.id


def play(store: EventStore, match_id: str, expected: int, n: int = 1, *, cid: str | None = None, seat: int = 0):
    return store.append(
        match_id,
        expected,
        [ev("line.run", i=i) for i in range(n)],
        seat=seat,
        command={"type": "run", "n": n},
        command_id=cid,
    )


def full_log(store: EventStore) -> list[Any]:
    out, after = [], 0
    while batch := store.read_all(after, limit=100):
        out += batch
        after = batch[-1].position
    return out


# ---- create ---------------------------------------------------------------------------------------


def test_create_match_writes_row_and_first_events(store: EventStore) -> None:
    rec = record("m-create", players=("ann", "bob", "cy"))
    result = store.create_match(rec, [ev("match.started"), ev("deck.shuffled", order=[2, 1])])
    assert not result.duplicate and result.match_id == "m-create" and result.version == 2
    assert [e.version for e in result.events] == [1, 2]
    assert result.events[0].position < result.events[1].position == result.position
    assert result.events[0].prev_hash == GENESIS and verify_chain(result.events) is None
    assert all(e.seat is None and e.command is None and e.command_id is None for e in result.events)
    got = store.get_match("m-create")
    assert got is not None
    assert (got.version, got.status, got.head_hash) == (2, "active", result.events[-1].hash)
    assert got.seats == rec.seats and got.options == {"rounds": 3} and got.game == "expect-delays"
    assert ISO_UTC.match(got.created_at) and got.created_at == got.updated_at == result.events[0].recorded_at
    assert store.read_match("m-create") == list(result.events)


def test_create_match_with_a_taken_id_fails_and_writes_nothing(store: EventStore) -> None:
    start(store, "m-dup")
    head = store.head_position()
    with pytest.raises(MatchExists) as info:
        store.create_match(record("m-dup"), [ev("match.started")])
    assert isinstance(info.value, StoreError)
    assert store.head_position() == head and len(store.read_match("m-dup")) == 2


def test_create_match_under_a_command_id_is_found_as_an_append_is(store: EventStore) -> None:
    """A creation recorded under a command id (an idempotent create): `find_command` gives its events, whose own
    command fields stay empty (the hashed record is as without it); a second creation of the id writes nothing."""
    result = store.create_match(record("m-keyed"), [ev("match.started"), ev("deck.shuffled", order=[2, 1])],
                                command_id="create:digest")
    assert all(e.command is None and e.command_id is None for e in result.events)
    found = store.find_command("m-keyed", "create:digest")
    assert found is not None and found.duplicate and found.events == result.events
    assert store.find_command("m-keyed", "create:other") is None
    with pytest.raises(MatchExists):
        store.create_match(record("m-keyed"), [ev("match.started")], command_id="create:other")
    assert store.find_command("m-keyed", "create:other") is None and len(store.read_match("m-keyed")) == 2


def test_a_match_ending_at_creation_is_finished(store: EventStore) -> None:
    store.create_match(record("m-short"), [ev("match.started"), ev("match.ended", reason="abandoned")])
    got = store.get_match("m-short")
    assert got is not None and got.status == "finished"


def test_get_match_of_unknown_id_is_none(store: EventStore) -> None:
    assert store.get_match("nope") is None


# ---- append ---------------------------------------------------------------------------------------


def test_append_chains_versions_positions_and_updates_the_row(store: EventStore) -> None:
    mid = start(store)
    before = store.get_match(mid)
    result = play(store, mid, 2, n=3, cid="c1", seat=1)
    assert (result.version, result.duplicate) == (5, False)
    assert [e.version for e in result.events] == [3, 4, 5]
    positions = [e.position for e in result.events]
    assert positions == sorted(positions) and len(set(positions)) == 3 and result.position == positions[-1]
    for e in result.events:
        assert (e.seat, e.command, e.command_id) == (1, {"type": "run", "n": 3}, "c1")
        assert e.recorded_at == result.events[0].recorded_at and ISO_UTC.match(e.recorded_at)
    got = store.get_match(mid)
    assert got is not None and before is not None
    assert (got.version, got.status, got.head_hash) == (5, "active", result.events[-1].hash)
    assert got.updated_at == result.events[0].recorded_at and got.created_at == before.created_at
    assert store.read_match(mid, 3) == list(result.events)
    assert verify_chain(store.read_match(mid)) is None


def test_the_exports_read_of_events_is_the_matchs_own(store: EventStore) -> None:
    """`events_of` (the bulk export's read of a page of matches, PostgreSQL writing `recorded_at` in the server) gives
    every event field for field as `read_match` does, timestamps to the character (they are hashed)."""
    a, b = start(store), start(store)
    play(store, a, 2, n=3, cid="c1", seat=1)
    play(store, b, 2, n=1, cid="c2", seat=0)
    assert store.events_of([a, b, "no-such-match"]) == {  # type: ignore[attr-defined]
        a: store.read_match(a), b: store.read_match(b), "no-such-match": []}


@pytest.mark.postgres
def test_postgresql_writes_a_timestamp_as_the_stores_iso_form(pg_clean_url: str) -> None:
    """The server's `to_char` of a timestamptz (the export's events) is `iso` of the same instant: whole seconds,
    one microsecond, a zone other than UTC, a leap day."""
    import psycopg

    from store.base import iso
    from store.postgres import _EXPORT_EVENT_COLUMNS

    written = re.search(r"to_char\(recorded_at AT TIME ZONE 'UTC', '[^']+'\)", _EXPORT_EVENT_COLUMNS)
    assert written is not None
    moments = ["2026-11-28 01:02:03+00", "2026-11-28 01:02:03.000001+00", "2026-11-28 23:59:59.999999-05:30",
               "2028-02-29 12:00:00.5+00", "1999-12-31 23:59:59.123+01"]
    with psycopg.connect(pg_clean_url) as conn:
        conn.execute("SET TIME ZONE 'Asia/Kolkata'")  # the session's zone must not matter
        for moment in moments:
            text, instant = conn.execute(f"SELECT {written.group(0)}, recorded_at FROM (SELECT %s::timestamptz AS "
                                         "recorded_at) AS t", (moment,)).fetchone()  # type: ignore[misc]
            assert text == iso(instant), moment


def test_append_at_a_stale_version_conflicts_and_writes_nothing(store: EventStore) -> None:
    mid = start(store)
    play(store, mid, 2)
    head = store.head_position()
    for expected in (2, 4, 0):
        with pytest.raises(ConflictError) as info:
            play(store, mid, expected)
        assert (info.value.match_id, info.value.expected, info.value.actual) == (mid, expected, 3)
    assert store.head_position() == head
    got = store.get_match(mid)
    assert got is not None and got.version == 3


def test_append_to_an_unknown_match_fails(store: EventStore) -> None:
    with pytest.raises(MatchNotFound):
        play(store, "ghost", 0)


def test_match_ended_finishes_the_match(store: EventStore) -> None:
    mid = start(store)
    store.append(mid, 2, [ev("line.run"), ev("match.ended", reason="won")], seat=0, command=None, command_id=None)
    got = store.get_match(mid)
    assert got is not None and got.status == "finished" and got.version == 4


def test_an_append_is_all_or_nothing_even_when_the_database_fails_midway(harness: Harness) -> None:
    store = harness.store
    mid = start(store)
    harness.make_boom_fail()
    head = store.head_position()
    with pytest.raises(Exception, match="boom"):
        store.append(mid, 2, [ev("line.run"), ev("boom")], seat=0, command={"x": 1}, command_id="c-boom")
    assert store.head_position() == head and len(store.read_match(mid)) == 2
    assert store.find_command(mid, "c-boom") is None
    got = store.get_match(mid)
    assert got is not None and got.version == 2
    assert play(store, mid, 2).version == 3  # the store is still usable afterwards


@pytest.mark.parametrize(
    "events",
    [
        [],
        [NewEvent("a", {"type": "a", "x": float("nan")})],
        [NewEvent("a", {"type": "a"}), NewEvent("b", {"type": "b", "s": "nul\x00"})],
        [NewEvent("a", {"type": "not-a"})],
        [NewEvent("a", {1: "non-string key"})],  # type: ignore[dict-item]
    ],
    ids=["empty", "nan", "nul", "type-mismatch", "int-key"],
)
def test_invalid_events_are_refused_before_writing(store: EventStore, events: list[NewEvent]) -> None:
    mid = start(store)
    head = store.head_position()
    with pytest.raises(ValueError):
        store.append(mid, 2, events, seat=None, command=None, command_id=None)
    assert store.head_position() == head


# ---- idempotency ----------------------------------------------------------------------------------


def test_a_replayed_command_id_returns_the_original_result(store: EventStore) -> None:
    mid = start(store)
    first = play(store, mid, 2, n=2, cid="c1")
    play(store, mid, 4)
    head = store.head_position()
    for expected in (2, 5, 99):  # whatever the expected version
        again = play(store, mid, expected, n=2, cid="c1")
        assert again.duplicate and again.events == first.events
        assert (again.version, again.position) == (first.version, first.position)
    assert store.head_position() == head
    found = store.find_command(mid, "c1")
    assert found is not None and found.duplicate and found.events == first.events
    assert store.find_command(mid, "c-unknown") is None and store.find_command("ghost", "c1") is None


def test_a_command_id_reused_for_another_command_is_refused(store: EventStore) -> None:
    mid = start(store)
    play(store, mid, 2, cid="c1", seat=0)
    head = store.head_position()
    with pytest.raises(IdempotencyMismatch):
        store.append(mid, 3, [ev("line.run")], seat=0, command={"type": "other"}, command_id="c1")
    with pytest.raises(IdempotencyMismatch):
        play(store, mid, 3, cid="c1", seat=1)  # same command, another seat
    assert store.head_position() == head


def test_command_comparison_ignores_key_order_and_integral_floats(store: EventStore) -> None:
    mid = start(store)
    store.append(mid, 2, [ev("x")], seat=0, command={"type": "run", "n": 1, "at": [1, 2]}, command_id="c1")
    again = store.append(mid, 3, [ev("x")], seat=0, command={"at": [1.0, 2], "n": 1, "type": "run"}, command_id="c1")
    assert again.duplicate


def test_command_ids_are_scoped_to_their_match(store: EventStore) -> None:
    a, b = start(store), start(store)
    play(store, a, 2, cid="same")
    result = play(store, b, 2, cid="same")
    assert not result.duplicate and result.match_id == b


def race(store: EventStore, mid: str, expected: int, cid: str, threads: int = 3) -> list[Any]:
    """Start the same append from several threads at once; each outcome is a result or the exception raised."""
    outcomes: list[Any] = []

    def attempt() -> None:
        try:
            outcomes.append(play(store, mid, expected, cid=cid))
        except Exception as exc:  # noqa: BLE001 - returned to the test, which asserts on it
            outcomes.append(exc)

    run_threads(attempt, [() for _ in range(threads)])
    return outcomes


def test_racing_retries_of_one_command_all_get_the_first_answer(store: EventStore) -> None:
    """Simultaneous retries of one command (same id, same expected version): one writes, and every other gets the
    original result, never a conflict: the command-id check is part of the append."""
    mid = start(store)
    for version in range(2, 17):
        outcomes = race(store, mid, version, f"race-{version}")
        assert len(outcomes) == 3
        assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
        assert len([r for r in outcomes if not r.duplicate]) == 1
        assert all(r.events == outcomes[0].events and r.version == version + 1 for r in outcomes)
    events = store.read_match(mid)
    assert len(events) == 17 and verify_chain(events) is None


def test_concurrent_appends_to_one_match_never_overwrite(store: EventStore) -> None:
    """Writers racing on one match: each append wins or conflicts, none is lost or doubled, the chain holds."""
    mid = start(store)
    wins: list[int] = []
    conflicts: list[int] = []

    def writer(n: int) -> None:
        done = 0
        while done < 10:
            current = store.get_match(mid)
            assert current is not None
            try:
                play(store, mid, current.version, n=n)
                done += 1
                wins.append(n)
            except ConflictError:
                conflicts.append(n)

    run_threads(writer, [(1,), (2,), (3,)])
    assert sorted(wins) == [1] * 10 + [2] * 10 + [3] * 10  # exactly ten winning appends per writer
    events = store.read_match(mid)
    assert len(events) == 2 + sum(wins) and [e.version for e in events] == list(range(1, len(events) + 1))
    assert verify_chain(events) is None


def run_threads(target: Any, args: list[tuple[Any, ...]]) -> None:
    """Run `target` in one thread per argument tuple, all at once; re-raise the first failure of any of them."""
    failures: list[BaseException] = []
    barrier = threading.Barrier(len(args))

    def guarded(*a: Any) -> None:
        try:
            barrier.wait()
            target(*a)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread
            failures.append(exc)

    threads = [threading.Thread(target=guarded, args=a) for a in args]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]


# ---- reading --------------------------------------------------------------------------------------


def test_read_match_ranges(store: EventStore) -> None:
    mid = start(store)
    play(store, mid, 2, n=4)
    assert [e.version for e in store.read_match(mid)] == [1, 2, 3, 4, 5, 6]
    assert [e.version for e in store.read_match(mid, 3)] == [3, 4, 5, 6]
    assert [e.version for e in store.read_match(mid, 2, 4)] == [2, 3, 4]
    assert store.read_match(mid, 7) == [] and store.read_match(mid, 4, 3) == []
    assert store.read_match("ghost") == []


def test_read_all_is_the_global_log_in_position_order(store: EventStore) -> None:
    assert store.read_all() == [] and store.head_position() == 0
    a, b = start(store), start(store)
    play(store, a, 2)
    play(store, b, 2, n=2)
    log = store.read_all()
    assert [(e.match_id, e.version) for e in log] == [(a, 1), (a, 2), (b, 1), (b, 2), (a, 3), (b, 3), (b, 4)]
    positions = [e.position for e in log]
    assert positions == sorted(set(positions)) and store.head_position() == positions[-1]
    assert store.read_all(positions[2], limit=2) == log[3:5]
    assert store.read_all(positions[-1]) == []
    assert full_log(store) == log


# ---- JSON fidelity and the chain ------------------------------------------------------------------

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), max_size=8)
)
json_keys = st.text(max_size=6).filter(lambda k: "\x00" not in k)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(json_keys, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=st.dictionaries(json_keys.filter(lambda k: k != "type"), json_values, max_size=5))
def test_payloads_round_trip_and_keep_their_hash(store: EventStore, payload: dict[str, Any]) -> None:
    mid = start(store)
    result = store.append(mid, 2, [NewEvent("t", {"type": "t", **payload})], seat=0, command=payload, command_id="c")
    (stored,) = store.read_match(mid, 3)
    assert stored == result.events[0]
    assert stored.payload == canonical({"type": "t", **payload}) and stored.command == canonical(payload)
    assert verify_chain(store.read_match(mid)) is None


def test_stored_hashes_follow_the_published_formula(store: EventStore) -> None:
    mid = start(store)
    play(store, mid, 2, n=2, cid="c9", seat=1)
    events = store.read_match(mid)
    prev = GENESIS
    for e in events:
        assert e.prev_hash == prev
        assert e.hash == event_hash(prev, mid, e.version, e.type, e.payload, e.seat, e.command, e.recorded_at)
        prev = e.hash
    got = store.get_match(mid)
    assert got is not None and got.head_hash == prev
    tampered = [*events[:2], msgspec.structs.replace(events[2], payload={"type": "line.run", "i": 9}), *events[3:]]
    assert verify_chain(tampered) == 3


# ---- listing matches ------------------------------------------------------------------------------


def test_list_matches_filters_and_pages_newest_first(store: EventStore) -> None:
    ids = [
        start(store, game=g, players=p)
        for g, p in [
            ("expect-delays", ("ann", "bob")),
            ("terminus", ("bob", "cy")),
            ("expect-delays", ("cy", "dee")),
            ("terminus", ("ann",)),
            ("expect-delays", ("ann", "cy")),
        ]
    ]
    store.append(ids[1], 2, [ev("match.ended")], seat=None, command=None, command_id=None)
    newest_first = list(reversed(ids))
    assert [m.id for m in store.list_matches()] == newest_first
    assert [m.id for m in store.list_matches(game="terminus")] == [ids[3], ids[1]]
    assert [m.id for m in store.list_matches(player="ann")] == [ids[4], ids[3], ids[0]]
    assert [m.id for m in store.list_matches(player="ANN")] == [ids[4], ids[3], ids[0]]  # one player, any case
    assert [m.id for m in store.list_matches(status="finished")] == [ids[1]]
    assert [m.id for m in store.list_matches(game="expect-delays", player="cy", status="active")] == [ids[4], ids[2]]
    assert store.list_matches(player="nobody") == []
    pages, after = [], None
    while page := store.list_matches(limit=2, after=after):
        pages.append([m.id for m in page])
        after = match_key(page[-1])
    assert pages == [newest_first[0:2], newest_first[2:4], newest_first[4:]]


def test_list_matches_pages_by_keyset_with_no_lookup(store: EventStore) -> None:
    """`after` is a place in the (created_at, id) order, not a match: a key no match has still pages on."""
    ids = [start(store) for _ in range(3)]
    newest = store.get_match(ids[-1])
    assert newest is not None
    created, _ = match_key(newest)
    assert [m.id for m in store.list_matches(after=(created + timedelta(microseconds=1), ""))] == list(reversed(ids))
    assert [m.id for m in store.list_matches(after=(created, ids[-1]))] == list(reversed(ids[:-1]))
    assert store.list_matches(after=(created - timedelta(days=1), "")) == []


# ---- app keys -------------------------------------------------------------------------------------


def test_app_keys(store: AppKeyStore) -> None:
    assert store.app_key_name("h1") is None
    store.create_app_key("scoreboard", "h1")
    store.create_app_key("scoreboard", "h1")  # harmless
    assert store.app_key_name("h1") == "scoreboard"
    with pytest.raises(StoreError):
        store.create_app_key("intruder", "h1")
    assert store.app_key_name("h1") == "scoreboard"


# ---- immutability and schema ----------------------------------------------------------------------


def test_events_cannot_be_updated_or_deleted(harness: Harness) -> None:
    mid = start(harness.store)
    before = harness.store.read_match(mid)
    forgeries = [
        "UPDATE events SET type = 'forged'",
        "DELETE FROM events",
        "UPDATE events SET seat = 7 WHERE seat IS NULL",
    ]
    if harness.kind == "postgres":
        forgeries.append("TRUNCATE events CASCADE")
    for sql in forgeries:
        with pytest.raises(Exception, match="immutable"):
            harness.raw(sql)
    assert harness.store.read_match(mid) == before


def test_opening_the_same_database_again_is_harmless(harness: Harness) -> None:
    if harness.kind == "sqlite-memory":
        pytest.skip("each :memory: open is a new database")
    mid = start(harness.store)
    again = harness.reopen()
    assert again.read_match(mid) == harness.store.read_match(mid)
    play(again, mid, 2)
    assert harness.store.get_match(mid) == again.get_match(mid)
    numbers = [n for (n,) in harness.raw("SELECT number FROM schema_migrations ORDER BY number")]
    dialect = "postgres" if harness.kind == "postgres" else "sqlite"
    assert numbers == [m.number for m in migrations.load(dialect)] and numbers


# ---- readers never skip a late commit -------------------------------------------------------------


def test_a_tailing_reader_sees_every_event_once_in_order(harness: Harness) -> None:
    """Writers on four matches commit concurrently (with no store-wide lock) while a reader tails the log: the
    reader sees every event exactly once, in the log's own order, never passing over a late commit."""
    store = harness.store
    harness.slow_commits()  # PostgreSQL: widen the window between assigning a position and committing it
    matches = [start(store) for _ in range(4)]
    seen: list[int] = []
    done = threading.Event()

    def writer(mid: str) -> None:
        version = 2
        for i in range(30):
            version = play(store, mid, version, n=1 + i % 3).version

    def reader() -> None:
        last = 0
        while True:
            finished = done.is_set()  # read once more after the writers finished
            batch = store.read_all(last, limit=7)
            seen.extend(e.position for e in batch)
            if batch:
                last = batch[-1].position
            if finished and not batch:
                return

    failures: list[BaseException] = []

    def tail() -> None:
        try:
            reader()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread
            failures.append(exc)

    tailing = threading.Thread(target=tail)
    tailing.start()
    try:
        run_threads(writer, [(m,) for m in matches])
    finally:
        done.set()
        tailing.join()
    assert not failures, failures
    final = [e.position for e in full_log(store)]
    assert len(set(seen)) == len(seen), "an event was read twice"
    assert seen == final  # exactly once each, in the log's order, nothing passed over
    assert len(final) == 4 * (2 + sum(1 + i % 3 for i in range(30)))
    per_match: dict[str, list[int]] = {}
    for event in full_log(store):
        per_match.setdefault(event.match_id, []).append(event.version)
    assert all(v == list(range(1, len(v) + 1)) for v in per_match.values())  # each match in version order
    assert store.head_position() == final[-1] and store.events_after(0) == len(final)
    assert store.events_after(final[-1]) == 0 and store.events_after(final[10]) == len(final) - 11
    assert store.log_reached(final[-1], final[0]) and not store.log_reached(final[0], final[-1])


def test_a_late_commit_is_read_once_and_in_order(harness: Harness) -> None:
    """An append that takes its position first but commits last is not passed over: readers wait for it."""
    if harness.kind != "postgres":
        pytest.skip("SQLite has one writer at a time: positions commit in order")
    import psycopg

    store = harness.store
    a, b = start(store), start(store)
    before = [e.position for e in full_log(store)]
    with psycopg.connect(harness.url) as slow:  # a transaction that inserts an event and does not commit yet
        slow.execute("UPDATE matches SET version = 3 WHERE id = %s", (a,))
        slow.execute("INSERT INTO events (match_id, version, type, payload, recorded_at, prev_hash, hash) "
                     "VALUES (%s, 3, 'late', '{\"type\": \"late\"}', now(), 'x', 'y')", (a,))
        late = play(store, b, 2)  # commits after the slow one took its position
        assert late.position > max(before)
        # Both are invisible while the older transaction runs: a reader cannot pass over the late one.
        assert [e.position for e in full_log(store)] == before
        assert store.head_position() == before[-1]
        # Nor can the transparency log's sequencer: it gives leaves in the same order, below the same horizon.
        assert store.sequence_log()[0] == len(before) and store.sequence_log()[0] == len(before)
        slow.commit()
    assert store.sequence_log()[0] == len(before) + 2
    log = full_log(store)
    assert [e.position for e in log][:len(before)] == before
    tail = [(e.match_id, e.type) for e in log[len(before):]]
    assert sorted(tail) == sorted([(a, "late"), (b, "line.run")]) and len(tail) == 2
    assert store.read_all(before[-1]) == log[len(before):]
    leaves = [store.log_leaf(e.match_id, e.version) for e in log]
    assert [leaf.index if leaf else None for leaf in leaves] == list(range(len(log)))  # leaf i is the log's event i


def test_a_long_transaction_in_another_database_does_not_hold_readers_back(harness: Harness) -> None:
    """Transaction ids are shared by the whole cluster: a write transaction left open in another database must not
    stop readers of this one from seeing events committed since (it can never add one of ours)."""
    if harness.kind != "postgres":
        pytest.skip("a PostgreSQL cluster's databases share one sequence of transaction ids")
    import os

    import psycopg

    other = os.environ.get("TURNSTILE_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    store = harness.store
    mid = start(store)
    with psycopg.connect(other) as elsewhere:
        elsewhere.execute("SELECT pg_current_xact_id()")  # holds a transaction id, and never ends during the test
        result = play(store, mid, 2, n=2)
        assert [e.position for e in full_log(store)][-2:] == [e.position for e in result.events]
        assert store.head_position() == result.position
        elsewhere.rollback()


# ---- record scheme 2 ------------------------------------------------------------------------------


def test_sealed_events_keep_their_public_form_and_commitment(store: EventStore) -> None:
    """A scheme 2 event's hash covers its public form and commitment, not its hidden payload."""
    mid = start(store)
    hidden = NewEvent("deal", {"type": "deal", "hand": ["T03", "T07"]}, public={"type": "deal", "hand": 2},
                      commitment="c" * 64)
    shown = NewEvent("line.run", {"type": "line.run", "i": 1}, public={"type": "line.run", "i": 1},
                     commitment="d" * 64)
    result = store.append(mid, 2, [hidden, shown], seat=0, command={"type": "deal"}, command_id=None)
    stored = store.read_match(mid, 3)
    assert stored == list(result.events)
    deal, run = stored
    assert deal.payload == {"type": "deal", "hand": ["T03", "T07"]} and deal.public == {"type": "deal", "hand": 2}
    assert run.public_payload is None and run.public == run.payload  # kept once where nothing is hidden
    assert deal.hash == committed_event_hash(deal.prev_hash, mid, 3, "deal", {"type": "deal", "hand": 2}, 0,
                                             "c" * 64, deal.recorded_at)
    assert verify_chain(store.read_match(mid)) is None
    forged = msgspec.structs.replace(deal, public_payload={"type": "deal", "hand": 3})
    assert verify_chain([*store.read_match(mid, 1, 2), forged, run]) == 3
    with pytest.raises(ValueError):
        store.append(mid, 4, [NewEvent("x", {"type": "x"}, public={"type": "x"})], seat=0, command=None,
                     command_id=None)


def test_a_match_and_its_events_after_a_version_come_together(store: EventStore) -> None:
    mid = start(store)
    play(store, mid, 2, n=3)
    record, events = store.match_with_events(mid, 3)
    assert record.version == 5 and [e.version for e in events] == [4, 5] and record.head_hash == events[-1].hash
    assert store.match_with_events(mid, 5)[1] == [] and store.match_with_events(mid)[1] == store.read_match(mid)
    with pytest.raises(MatchNotFound):
        store.match_with_events("ghost")
