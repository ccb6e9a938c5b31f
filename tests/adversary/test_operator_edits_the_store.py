"""Issue 28's attacks, performed as a dishonest operator would (direct SQL, immutability triggers switched off), on
every store: each is caught by the server (`record-corrupt`), by a witness or `verify` holding an old checkpoint, or
(a snapshot) set aside. Before the transparency log the first and third went unseen."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.catalog import by_slug
from domain.codec import event_from_builtins
from ledger.chain import GENESIS, link_hash, opened_commitment
from ledger.events import StoredEvent
from ledger.records import parse_record
from ledger.sealing import public_form
from service.log.log_client import LogCheckFailed, LogServer, check_extends, check_record, opened, witness
from service.log.transparency import Transparency
from service.matches import snapshots
from service.matches.matches import MatchService
from service.matches.tokens import new_secret, secret_hash
from service.reads.audit import Audit
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves, play_to_end
from tests.store.conftest import Harness

GAME = "expect-delays"


def sql(harness: Harness, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    return harness.raw(text.replace("?", "%s") if harness.kind == "postgres" else text, params)


def unlock(harness: Harness, *tables: str) -> None:
    """What an operator with the database can do: switch off the immutability triggers."""
    for table in tables:
        if harness.kind == "postgres":
            harness.raw(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        else:
            for trigger, in harness.raw(f"SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = "
                                        f"'{table}'"):
                harness.raw(f"DROP TRIGGER {trigger}")


@pytest.fixture
def served(harness: Harness) -> Iterator[tuple[TestClient, str]]:
    key = new_secret("app")
    harness.store.create_app_key("tests", secret_hash(key))
    with TestClient(create_app(harness.store)) as client:  # type: ignore[arg-type]
        yield client, key


def restarted(harness: Harness) -> TestClient:
    """A server started afresh on the same database: nothing cached."""
    return TestClient(create_app(harness.store))  # type: ignore[arg-type]


def assert_corrupt(harness: Harness, created: dict[str, Any], said: str) -> None:
    with restarted(harness) as fresh:
        for path in ("", "/export"):
            answer = fresh.get(f"/v1/matches/{created['id']}{path}")
            assert (answer.status_code, answer.json()["code"]) == (500, "record-corrupt"), (path, answer.text)
        move = fresh.post(f"/v1/matches/{created['id']}/moves", headers=bearer(created["seats"][0]["token"]),
                          json={"move": {"type": "match.resign"}})
        assert (move.status_code, move.json()["code"]) == (500, "record-corrupt")
    with pytest.raises(Exception, match=said):
        MatchService(harness.store).load(created["id"])


def rewrite(harness: Harness, match_id: str, events: list[StoredEvent], status: str) -> None:
    """Replace a match's stored events from events[0].version on with `events`, resealed (with the seed the row holds)
    and rechained, and its row to match: the forger's whole chain is consistent, commitments included."""
    first = events[0].version
    before = harness.store.read_match(match_id, first - 1, first - 1)
    prev = before[0].hash if before else GENESIS
    row = harness.store.get_match(match_id)
    assert row is not None
    unlock(harness, "events")
    sql(harness, "DELETE FROM events WHERE match_id = ? AND version >= ?", (match_id, first))
    for version, event in enumerate(events, start=first):
        sealed = None if event.commitment is None else opened_commitment(row.seed, version, event.payload,
                                                                         event.command)
        event = msgspec.structs.replace(event, version=version, prev_hash=prev, commitment=sealed)
        event = msgspec.structs.replace(event, hash=link_hash(event))
        prev = event.hash
        sql(harness, "INSERT INTO events (match_id, version, type, payload, public_payload, seat, command, command_id,"
                     " commitment, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, version, event.type, _json(event.payload), _json(event.public_payload), event.seat,
             _json(event.command), None, event.commitment, event.recorded_at, event.prev_hash, event.hash))
    sql(harness, "UPDATE matches SET version = ?, head_hash = ?, status = ? WHERE id = ?",
        (first + len(events) - 1, prev, status, match_id))


def _json(value: Any) -> str | None:
    return None if value is None else msgspec.json.encode(value).decode()


def edited(event: StoredEvent) -> StoredEvent:
    """The event's public form with one more field: what a spectator was shown is not what is stored now."""
    if event.public_payload is not None:
        return msgspec.structs.replace(event, public_payload={**event.public_payload, "forged": 50})
    return msgspec.structs.replace(event, payload={**event.payload, "forged": 50})


def forged(event: StoredEvent) -> StoredEvent:
    """The event with one fact changed (its first list of two or more reversed: a deck's order, a hand) and, as an
    honest server would have sealed it, the public form its redaction for spectators: a forgery only the transparency
    log (or a kept checkpoint) tells from the original, once `rewrite` reseals and rechains it."""
    game = by_slug(GAME)
    assert game is not None
    field = next(k for k, v in event.payload.items() if isinstance(v, list) and len(v) > 1)
    payload = {**event.payload, field: event.payload[field][::-1]}
    public = public_form(game, event_from_builtins(game, payload))
    return msgspec.structs.replace(event, payload=payload, public_payload=None if public == payload else public)


def test_a_finished_matchs_tail_cut_and_its_row_rewritten_is_caught(harness: Harness, served: Any) -> None:
    client, key = served
    created = create(client, key, GAME, 2, {"max_turns": 8})
    play_to_end(client, created, random.Random(4))
    client.app.state.log.catch_up()
    events = harness.store.read_match(created["id"])
    starts = [e for e, before in zip(events[1:], events[:-1], strict=True) if e.command_id != before.command_id]
    last = events[starts[-2].version - 2]  # the last event before the last two moves' appends
    unlock(harness, "events")
    sql(harness, "DELETE FROM events WHERE match_id = ? AND version > ?", (created["id"], last.version))
    sql(harness, "UPDATE matches SET version = ?, head_hash = ?, status = 'active' WHERE id = ?",
        (last.version, last.hash, created["id"]))
    verdict = Audit(harness.store).verify(created["id"])
    assert verdict.ok  # the chain alone cannot tell: a match cut short and rewritten reads like a live one
    assert_corrupt(harness, created, "past the row's version")
    verdict = Audit(harness.store, log=Transparency(harness.store, None)).verify(created["id"])
    assert (verdict.ok, verdict.code) == (False, "log-mismatch")


def test_an_events_public_form_edited_is_caught_before_it_is_even_sequenced(harness: Harness, served: Any) -> None:
    client, key = served
    created = create(client, key, GAME, 2)
    play_moves(client, created, random.Random(5), 6)
    target = harness.store.read_match(created["id"])[4]
    unlock(harness, "events")
    column, value = ("public_payload", edited(target).public_payload) if target.public_payload is not None else (
        "payload", edited(target).payload)
    sql(harness, f"UPDATE events SET {column} = ? WHERE match_id = ? AND version = ?",
        (_json(value), created["id"], target.version))
    assert_corrupt(harness, created, "do not hash")


def test_hashes_spliced_consistently_are_caught_by_the_tree(harness: Harness, served: Any) -> None:
    client, key = served
    created = create(client, key, GAME, 2)
    play_moves(client, created, random.Random(6), 6)
    client.app.state.log.catch_up()
    events = harness.store.read_match(created["id"])
    rewrite(harness, created["id"], [forged(events[3]), *events[4:]], "active")
    verdict = Audit(harness.store).verify(created["id"])
    assert verdict.ok  # every hash recomputes and links: only the log remembers the original
    assert_corrupt(harness, created, "not the one the transparency log holds")
    verdict = Audit(harness.store, log=Transparency(harness.store, None)).verify(created["id"])
    assert (verdict.ok, verdict.code) == (False, "log-mismatch")  # what `turnstile verify --all` says


def test_an_event_inserted_is_caught_by_the_tree(harness: Harness, served: Any) -> None:
    client, key = served
    created = create(client, key, GAME, 2)
    play_moves(client, created, random.Random(7), 6)
    client.app.state.log.catch_up()
    events = harness.store.read_match(created["id"])
    rewrite(harness, created["id"], [forged(events[3]), *events[3:]], "active")
    assert_corrupt(harness, created, "transparency log")


def test_a_snapshot_edited_is_set_aside_and_logged(harness: Harness, monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 5)
    service = MatchService(harness.store)
    created = service.create(GAME, ["ann", "bob"], None)
    match_id = created.record.id
    rng = random.Random(8)
    from domain import match

    while service.load(match_id).record.version < 12:
        loaded = service.load(match_id)
        seat = match.to_move(loaded.game, loaded.state)[0]
        service.play(match_id, seat, rng.choice(match.legal(loaded.game, loaded.state, seat)), expected_version=None,
                     command_id=None)
    saved = harness.store.snapshot(match_id)
    assert saved is not None
    body = msgspec.msgpack.decode(saved.state[snapshots.MAC_SIZE:])
    body[1]["version"] = body[1]["version"]  # the same state...
    body[1]["resigned"] = [0]  # ...but seat 0 resigned: a forger's edit, re-encoded without the key
    forged = saved.state[:snapshots.MAC_SIZE] + msgspec.msgpack.encode(body)
    sql(harness, "UPDATE snapshots SET state = ? WHERE match_id = ?", (forged, match_id))
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="turnstile.service"):
        loaded = MatchService(harness.store).load(match_id)
    assert loaded.state.resigned == service.load(match_id).state.resigned == ()
    assert any("HMAC" in r.getMessage() for r in caplog.records)


def test_the_tree_rewritten_too_is_caught_by_a_witness_and_by_verify_with_a_kept_checkpoint(
        harness: Harness, served: Any, tmp_path: Path) -> None:
    """The operator splices a match and rebuilds the whole log to agree, signing with the log's own key: the server
    now serves the forgery as intact, but whoever kept a checkpoint from before sees that the new tree does not
    extend it."""
    client, key = served
    log = client.app.state.log
    server = LogServer("http://test", fetch=lambda url: client.get(url.removeprefix("http://test")).json())
    verifier = log.verifier
    state = tmp_path / "witness.checkpoint"
    created = create(client, key, GAME, 2)
    play_moves(client, created, random.Random(9), 6)
    log.catch_up()
    assert "first checkpoint kept" in witness(server, verifier, state)
    kept = state.read_text()
    events = harness.store.read_match(created["id"])
    rewrite(harness, created["id"], [forged(events[3]), *events[4:]], "active")
    unlock(harness, "log_leaves", "log_nodes", "log_checkpoints")
    for table in ("log_leaves", "log_nodes", "log_checkpoints"):
        sql(harness, f"DELETE FROM {table}")
    sql(harness, "UPDATE log_state SET size = 0, after_position = 0")
    log.catch_up()
    with restarted(harness) as fresh:
        assert fresh.get(f"/v1/matches/{created['id']}").status_code == 200  # the server itself is fooled now
        record = parse_record(fresh.get(f"/v1/matches/{created['id']}/export").content)
    checkpoint = check_record(record.header, verifier)  # the forged record is in the forged tree...
    with pytest.raises(LogCheckFailed, match="fork"):  # ...which does not extend the checkpoint kept before
        check_extends(opened(kept, verifier, "kept"), checkpoint, server)
    with pytest.raises(LogCheckFailed, match="fork"):
        witness(server, verifier, state)
    assert state.read_text() == kept  # the witness keeps the last good checkpoint
