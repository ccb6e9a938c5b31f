"""Snapshots (service/matches/snapshots.py): a cold load of a long match folds only the events after its snapshot, gives
the state a fold from the first event gives, and a snapshot that does not fit (tampered, stale, of another match,
of other rules code) is set aside, never trusted over the events nor taken for damage. Run on every adapter."""

from __future__ import annotations

import logging
import random
from typing import Any

import msgspec
import pytest

from domain import match
from domain.catalog import EDITIONS, GAMES, by_slug, decode_events
from domain.engine import Game, setups
from domain.match import MatchState
from service.matches import snapshots
from service.matches.matches import MatchService
from service.matches.simulate import play_random_moves
from store.base import EventStore, RecordCorrupt, Snapshot
from tests.audit.test_trust import delete_last_events
from tests.store.conftest import Harness

LONG = "expect-delays"  # default options: up to 300 turns, so a match passes version 300


def sql(harness: Harness, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Raw SQL with `?` placeholders on the harness's database."""
    return harness.raw(text.replace("?", "%s") if harness.kind == "postgres" else text, params)


def open_match(service: MatchService, game: Game[Any], seed: str = "snap") -> str:
    seats, options = setups(game)[0]
    return service.create(game.slug, [f"p{i}" for i in range(seats)], options, seed=seed).record.id


def play_to(service: MatchService, match_id: str, version: int, rng: random.Random) -> int:
    """Random legal moves until the match reaches `version` or ends; its version then."""
    while (loaded := service.load(match_id)).record.version < version:
        if play_random_moves(service, match_id, rng, 1) == 0:
            break
    return loaded.record.version


def full_fold(store: EventStore, match_id: str) -> MatchState:
    """The state from the first event, as a verification computes it (no service, no snapshot)."""
    record = store.get_match(match_id)
    assert record is not None
    game = by_slug(record.game)
    assert game is not None
    return match.fold(game, decode_events(game, [e.payload for e in store.read_match(match_id)]))


def long_match(store: EventStore, version: int = 250) -> tuple[str, int]:
    """A match of LONG past `version` with a snapshot in its band, played by a service now gone; (id, version)."""
    game = by_slug(LONG)
    assert game is not None
    service = MatchService(store)
    match_id = open_match(service, game)
    reached = play_to(service, match_id, version, random.Random(7))
    assert reached >= version
    return match_id, reached


def reads_of(store: EventStore, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int]]:
    """(method, first version, events returned) of every read of a match with its events from now on."""
    calls: list[tuple[str, int, int]] = []
    with_events, with_snapshot = store.match_with_events, store.match_with_snapshot

    def events(match_id: str, after_version: int = 0) -> Any:
        found = with_events(match_id, after_version)
        calls.append(("events", found[1][0].version if found[1] else 0, len(found[1])))
        return found

    def snapshot(match_id: str, fingerprint: str) -> Any:
        found = with_snapshot(match_id, fingerprint)
        calls.append(("snapshot", found[2][0].version if found[2] else 0, len(found[2])))
        return found

    monkeypatch.setattr(store, "match_with_events", events)
    monkeypatch.setattr(store, "match_with_snapshot", snapshot)
    return calls


# ---- the encoding -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
def test_every_state_of_a_random_match_round_trips_through_the_snapshot_bytes(game: Game[Any]) -> None:
    from store.factory import open_store

    store = open_store("sqlite:///:memory:")
    try:
        match_id = open_match(MatchService(store, use_snapshots=False), game)
        play_random_moves(MatchService(store, use_snapshots=False), match_id, random.Random(3), 400)
        state = None
        for event in decode_events(game, [e.payload for e in store.read_match(match_id)]):
            state = match.fold(game, [event], state)
            blob = snapshots.encode(game, match_id, state)
            assert blob is not None
            assert snapshots.decode(blob) == (match_id, game, state)
    finally:
        store.close()


def test_bytes_that_are_not_a_snapshot_are_unfit() -> None:
    for blob in (b"", b"garbage", msgspec.msgpack.encode(("m", {"game": "chess"}, None))):
        with pytest.raises(snapshots.Unfit):
            snapshots.decode(blob)


def test_the_fingerprint_covers_the_rules_code_and_data() -> None:
    assert len(snapshots.FINGERPRINT) == 64 and snapshots._fingerprint() == snapshots.FINGERPRINT
    assert all(snapshots.state_type(game) is not None for game in GAMES)


# ---- loads ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
def test_a_fresh_service_loads_from_a_snapshot_what_a_full_fold_gives(store: EventStore, game: Game[Any],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game, through its whole match: each time a snapshot is saved, a service that never saw the match
    loads it from there to the state the events give. (Snapshots every 25 versions: mass transit ends before
    version 100.)"""
    monkeypatch.setattr(snapshots, "EVERY", 25)
    service = MatchService(store)
    match_id = open_match(service, game)
    rng, seen = random.Random(11), set()
    while play_random_moves(service, match_id, rng, 1):
        saved = store.snapshot(match_id)
        if saved is None or saved.version in seen:
            continue
        seen.add(saved.version)
        version = service.load(match_id).record.version
        assert saved.version // 25 == version // 25 and saved.fingerprint == snapshots.FINGERPRINT
        fresh = MatchService(store).load(match_id)
        assert fresh.state == full_fold(store, match_id) and fresh.record.version == version
    assert len(seen) >= 2


def test_a_cold_load_folds_only_the_events_after_the_snapshot(store: EventStore,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, version = long_match(store)
    saved = store.snapshot(match_id)
    assert saved is not None and saved.version // snapshots.EVERY == version // snapshots.EVERY
    calls = reads_of(store, monkeypatch)
    loaded = MatchService(store).load(match_id)
    assert calls == [("snapshot", saved.version, version - saved.version + 1)]  # its own event, then the rest
    assert loaded.state == full_fold(store, match_id)


def test_without_a_snapshot_a_long_cold_load_folds_everything_then_saves_one(harness: Harness,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    store = harness.store
    match_id, version = long_match(store)
    sql(harness, "DELETE FROM snapshots")
    calls = reads_of(store, monkeypatch)
    assert MatchService(store).load(match_id).state == full_fold(store, match_id)
    assert calls == [("snapshot", 1, version)]
    saved = store.snapshot(match_id)
    assert saved is not None and saved.version == version
    assert MatchService(store).load(match_id).state == full_fold(store, match_id)
    assert calls[-1] == ("snapshot", version, 1)


def test_services_taking_turns_across_the_bands_agree_with_the_events(harness: Harness) -> None:
    """Two processes (their own store connections and caches) take turns on one match, past several bands."""
    game = by_slug(LONG)
    assert game is not None
    same = harness.kind == "sqlite-memory"  # exists only inside its one connection
    one, two = MatchService(harness.store), MatchService(harness.store if same else harness.reopen())
    match_id = open_match(one, game)
    rng = random.Random(5)
    for turn in range(400):
        if not play_random_moves((one, two)[turn % 2], match_id, rng, 1):
            break
    version = one.load(match_id).record.version
    assert version >= 300
    assert one.load(match_id).state == two.load(match_id).state == full_fold(harness.store, match_id)
    saved = harness.store.snapshot(match_id)
    assert saved is not None and saved.version // snapshots.EVERY == version // snapshots.EVERY
    third = MatchService(harness.store if same else harness.reopen())
    assert third.load(match_id).state == full_fold(harness.store, match_id)


# ---- snapshots that do not fit ----------------------------------------------------------------------------


def ignored(harness: Harness, match_id: str, caplog: pytest.LogCaptureFixture, warned: bool = True) -> None:
    """A fresh service sets the snapshot aside (warning of it), loads the full fold, and saves a fitting one."""
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="turnstile.service"):
        loaded = MatchService(harness.store).load(match_id)
    assert loaded.state == full_fold(harness.store, match_id)
    said = [r for r in caplog.records if r.name == "turnstile.service" and "snapshot" in r.getMessage()]
    assert [r.levelno for r in said] == ([logging.WARNING] if warned else [])
    saved = harness.store.snapshot(match_id)
    assert saved is not None and saved.fingerprint == snapshots.FINGERPRINT
    assert (saved.version, saved.head_hash) == (loaded.record.version, loaded.record.head_hash)


def test_a_snapshot_naming_another_head_hash_is_ignored(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    match_id, _ = long_match(harness.store)
    sql(harness, "UPDATE snapshots SET head_hash = ? WHERE match_id = ?", ("f" * 64, match_id))
    ignored(harness, match_id, caplog)


def test_a_snapshot_past_the_row_is_not_read(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """(As one saved by another process between the reads of the row and the snapshot would be.)"""
    store = harness.store
    match_id, version = long_match(store)
    sql(harness, "UPDATE snapshots SET version = ? WHERE match_id = ?", (version + 100, match_id))
    calls = reads_of(store, monkeypatch)
    assert MatchService(store).load(match_id).state == full_fold(store, match_id)
    assert calls == [("snapshot", 1, version)]


def test_a_snapshot_without_its_event_is_ignored(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    match_id, version = long_match(harness.store)
    sql(harness, "UPDATE snapshots SET version = ? WHERE match_id = ?", (version - 1, match_id))
    ignored(harness, match_id, caplog)


def test_snapshot_bytes_that_are_garbage_are_ignored(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    match_id, _ = long_match(harness.store)
    sql(harness, "UPDATE snapshots SET state = ? WHERE match_id = ?", (b"\x93garbage", match_id))
    ignored(harness, match_id, caplog)


def test_another_matchs_snapshot_is_ignored(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """Its state bytes under this match's head hash (or its whole row): the bytes name their match."""
    store = harness.store
    ours, _ = long_match(store)
    theirs, _ = long_match(store)  # the same game, seed and moves: only the match id differs
    other = store.snapshot(theirs)
    assert other is not None
    sql(harness, "UPDATE snapshots SET state = ? WHERE match_id = ?", (other.state, ours))
    ignored(harness, ours, caplog)
    store.save_snapshot(ours, other, replace=True)
    ignored(harness, ours, caplog)


def test_a_snapshot_of_other_rules_code_is_ignored(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    match_id, _ = long_match(harness.store)
    sql(harness, "UPDATE snapshots SET fingerprint = ? WHERE match_id = ?", ("0" * 64, match_id))
    ignored(harness, match_id, caplog, warned=False)  # expected after every change of rules code: not a warning


def test_a_snapshot_of_another_rules_edition_is_ignored(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """Snapshots never mix editions: a state folded under edition 1 (its switches and its number), saved for a match
    played under edition 2, is set aside and the match folded from its events under its own edition."""
    match_id, _ = long_match(harness.store)
    saved = harness.store.snapshot(match_id)
    assert saved is not None
    owner, game, state = snapshots.decode(saved.state)
    assert game.rules_version == "2"
    old = EDITIONS[LONG]["1"]
    forged = msgspec.structs.replace(state, rules_version="1",
                                     game_state=msgspec.structs.replace(state.game_state, rules=old.rules))
    blob = snapshots.encode(old, owner, forged)
    assert blob is not None and snapshots.decode(blob)[1] is old
    sql(harness, "UPDATE snapshots SET state = ? WHERE match_id = ?", (blob, match_id))
    ignored(harness, match_id, caplog)
    assert MatchService(harness.store).load(match_id).state.game_state.rules == game.rules


def test_events_cut_after_the_snapshot_still_make_the_record_corrupt(harness: Harness) -> None:
    store = harness.store
    match_id, version = long_match(store)
    saved = store.snapshot(match_id)
    assert saved is not None and saved.version < version - 2
    delete_last_events(harness, match_id, 2)
    with pytest.raises(RecordCorrupt, match="end at version"):
        MatchService(store).load(match_id)
    assert store.snapshot(match_id) == saved


def test_the_event_at_the_snapshot_replaced_makes_the_record_corrupt(harness: Harness) -> None:
    """The snapshot no longer fits and is set aside; the fold from the first event finds the splice."""
    store = harness.store
    match_id, _ = long_match(store)
    saved = store.snapshot(match_id)
    assert saved is not None
    if harness.kind == "postgres":
        harness.raw("ALTER TABLE events DISABLE TRIGGER events_immutable")
    else:
        harness.raw("DROP TRIGGER events_no_update")
    sql(harness, "UPDATE events SET hash = ? WHERE match_id = ? AND version = ?", ("e" * 64, match_id, saved.version))
    with pytest.raises(RecordCorrupt, match="does not link"):
        MatchService(store).load(match_id)


def test_a_snapshot_that_cannot_be_saved_fails_no_move(harness: Harness, monkeypatch: pytest.MonkeyPatch,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    store = harness.store

    def down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(store, "save_snapshot", down)
    with caplog.at_level(logging.WARNING, logger="turnstile.service"):
        match_id, version = long_match(store)
    assert store.snapshot(match_id) is None
    assert any("could not save a snapshot" in r.getMessage() for r in caplog.records)
    assert MatchService(store).load(match_id).state == full_fold(store, match_id)


def test_services_without_snapshots_neither_read_nor_save_them(store: EventStore) -> None:
    game = by_slug(LONG)
    assert game is not None
    service = MatchService(store, use_snapshots=False)
    match_id = open_match(service, game)
    assert play_to(service, match_id, 150, random.Random(2)) >= 150
    assert store.snapshot(match_id) is None


# ---- the store --------------------------------------------------------------------------------------------


def test_save_snapshot_keeps_the_newer_of_one_fingerprint_and_replaces_another(store: EventStore) -> None:
    game = by_slug(LONG)
    assert game is not None
    match_id = open_match(MatchService(store, use_snapshots=False), game)
    assert store.snapshot(match_id) is None
    newer = Snapshot(200, "a" * 64, "h200", b"\x00state200")
    store.save_snapshot(match_id, newer)
    assert store.snapshot(match_id) == newer
    for older in (Snapshot(100, "a" * 64, "h100", b"s100"), Snapshot(200, "a" * 64, "other", b"s200")):
        store.save_snapshot(match_id, older)  # as old or older, same code: kept out
        assert store.snapshot(match_id) == newer
    other_code = Snapshot(100, "b" * 64, "h100", b"s100")
    store.save_snapshot(match_id, other_code)
    assert store.snapshot(match_id) == other_code
    newest = Snapshot(300, "b" * 64, "h300", b"s300")
    store.save_snapshot(match_id, newest)
    assert store.snapshot(match_id) == newest
    unfit = Snapshot(100, "b" * 64, "h100", b"s100")
    store.save_snapshot(match_id, unfit, replace=True)
    assert store.snapshot(match_id) == unfit


def test_match_with_snapshot_reads_from_a_snapshot_of_its_fingerprint_only(store: EventStore) -> None:
    game = by_slug(LONG)
    assert game is not None
    match_id = open_match(MatchService(store, use_snapshots=False), game)
    record, saved, events = store.match_with_snapshot(match_id, "a" * 64)
    assert saved is None and [e.version for e in events] == list(range(1, record.version + 1))
    ours = Snapshot(2, "a" * 64, events[1].hash, b"s")
    store.save_snapshot(match_id, ours)
    assert store.match_with_snapshot(match_id, "a" * 64)[1:] == (ours, events[1:])
    assert store.match_with_snapshot(match_id, "b" * 64)[1:] == (None, events)
    store.save_snapshot(match_id, Snapshot(record.version + 5, "a" * 64, "h", b"s"))  # past the row: not read
    assert store.match_with_snapshot(match_id, "a" * 64)[1:] == (None, events)


def test_a_snapshot_needs_its_match(store: EventStore) -> None:
    with pytest.raises(Exception):  # noqa: B017  (each driver's foreign key violation)
        store.save_snapshot("no-such-match", Snapshot(100, "a" * 64, "h", b"s"))
