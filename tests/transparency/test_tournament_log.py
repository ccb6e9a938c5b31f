"""Every stream is in the log (issue 38): a tournament's events are leaves of the same RFC 9162 tree as the matches',
its record carries the inclusion proof of its head, and the dishonest operator's two tournament forgeries are caught
on every store — the tail cut back to a round's pairing (row set back to `running`) and a result rewritten and
re-chained — by the server at load and, once the operator rebuilds the tree too, by `turnstile verify --url
--checkpoint OLD`. Before tournaments joined the log both read as an honest tournament still being played."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from cli import main
from domain.tournaments.commands import CreateTournament, EntryOf
from ledger import tournament_records
from ledger.events import StoredEvent
from ledger.merkle import event_leaf, leaf_hash, tournament_stream
from service.log.log_client import check_record
from service.log.transparency import Transparency
from service.matches.matches import MatchService
from service.matches.tokens import new_secret, secret_hash
from service.reads.audit import Audit
from service.tournaments import records as tournament_exports
from service.tournaments.tournaments import TournamentService
from store.base import RecordCorrupt
from store.sql_tournaments import chained
from tests.adversary.test_operator_edits_the_store import sql, unlock
from tests.api.http_play import create, play_moves

APP = "club"
# One run per kind of database proves the point (the in-memory SQLite adds nothing to the file).
pytestmark = pytest.mark.parametrize("harness", ["sqlite-file", "postgres"], indirect=True)


@pytest.fixture
def app_key(harness: Any) -> str:
    key = new_secret("app")
    harness.store.create_app_key("tests", secret_hash(key))
    return key


@pytest.fixture
def client(harness: Any, app_key: str) -> Iterator[TestClient]:
    """The API over the harness's store (its transparency log at `app.state.log`, sequenced when a test says so)."""
    with TestClient(create_app(harness.store)) as test_client:
        yield test_client


def finished_cup(store: Any) -> str:
    """A knockout of four bots, played to its end in the call that starts it; its id."""
    tournaments = TournamentService(store, MatchService(store))
    bots = tuple(EntryOf(bot="random", name=f"r{i}") for i in range(4))
    created = tournaments.create(APP, CreateTournament(game="expect-delays", format="knockout", entrants=bots, seats=2,
                                                       seed_commitment="", options={"max_turns": 8}))
    loaded = tournaments.start(created.loaded.record.id, APP)
    assert loaded.record.status == "finished"
    return loaded.record.id


def fresh_load(store: Any, tournament_id: str) -> Any:
    """The tournament as a process that never read it loads it."""
    return TournamentService(store, MatchService(store)).load(tournament_id)


def exported(store: Any, log: Transparency, tournament_id: str) -> dict[str, Any]:
    tournaments = TournamentService(store, MatchService(store))  # a process that never read it
    loaded = tournaments.load(tournament_id)
    exported = tournament_exports.export(loaded, Audit(store, log=log), tournaments.revealed_seed(loaded))
    return msgspec.to_builtins(exported)  # type: ignore[no-any-return]


def test_a_tournaments_events_are_leaves_and_its_record_proves_its_head(harness: Any, client: TestClient,
                                                                       over_http: str, tmp_path: Path) -> None:
    log: Transparency = client.app.state.log
    tournament_id = finished_cup(harness.store)
    assert exported(harness.store, log, tournament_id)["header"].get("transparency") is None  # not sequenced yet
    log.catch_up()
    stored = fresh_load(harness.store, tournament_id).stored
    leaves = harness.store.log_leaves_of(tournament_stream(tournament_id))
    assert [(leaf.version, leaf.hash) for leaf in leaves] == [(e.version, e.hash) for e in stored]
    tree = {i: leaf_hash(event_leaf(leaf.match_id, leaf.version, leaf.hash)) for i, leaf in enumerate(leaves)}
    assert all(harness.store.log_nodes([(0, leaf.index)])[(0, leaf.index)] == tree[i] for i, leaf in enumerate(leaves))
    log.catch_up()
    assert len(harness.store.log_leaves_of(tournament_stream(tournament_id))) == len(stored)  # each event once

    document = exported(harness.store, log, tournament_id)
    header = msgspec.convert(document["header"], tournament_records.TournamentHeader)
    assert header.transparency is not None
    assert check_record(header, log.verifier).size == header.transparency.tree_size
    assert tournament_records.verify(document).code == "verified"
    answer = client.post("/v1/tournaments/verifications", json={"record": json.dumps(document)})
    assert (answer.status_code, answer.json()["code"]) == (200, "verified")
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(document))
    assert main(["verify", str(path), "--url", over_http]) == 0
    kept = tmp_path / "kept"
    kept.write_text(client.get("/v1/log/checkpoint").json()["checkpoint"])
    assert main(["verify", str(path), "--url", over_http, "--checkpoint", str(kept)]) == 0
    document["header"]["transparency"]["inclusion"][0] = "00" * 32
    path.write_text(json.dumps(document))
    assert main(["verify", str(path), "--url", over_http]) == 1


def rechain(harness: Any, tournament_id: str, keep: list[StoredEvent], status: str) -> None:
    """What a forger with the database writes: the tournament's stream replaced by `keep` (each re-hashed after the
    one before it) and its row set to match, so the chain alone reads as whole."""
    prev, rewritten = "", []
    for event in keep:
        again = chained(tournament_id, event.version - 1, prev or event.prev_hash, event.recorded_at,
                        [event.payload])[0]
        rewritten.append(again)
        prev = again.hash
    sql(harness, "DELETE FROM tournament_events WHERE tournament_id = ?", (tournament_id,))
    for e in rewritten:
        sql(harness, "INSERT INTO tournament_events (tournament_id, version, type, payload, recorded_at, prev_hash, "
                     "hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tournament_id, e.version, e.type, msgspec.json.encode(e.payload).decode(), e.recorded_at, e.prev_hash,
             e.hash))
    sql(harness, "UPDATE tournaments SET version = ?, head_hash = ?, status = ? WHERE id = ?",
        (rewritten[-1].version, rewritten[-1].hash, status, tournament_id))


def rebuild_tree(harness: Any, log: Transparency) -> None:
    """The operator's next step: the whole tree dropped and sequenced again from the (forged) streams, re-signed."""
    unlock(harness, "log_leaves", "log_nodes", "log_checkpoints")
    for table in ("log_leaves", "log_nodes", "log_checkpoints"):
        sql(harness, f"DELETE FROM {table}")
    sql(harness, "UPDATE log_state SET size = 0, after_position = 0")
    sql(harness, "UPDATE tournaments SET logged_version = 0")
    log.catch_up()


def test_a_tournament_cut_back_to_its_last_pairing_is_caught_at_load_and_by_a_kept_checkpoint(
        harness: Any, client: TestClient, app_key: str, over_http: str, tmp_path: Path) -> None:
    log: Transparency = client.app.state.log
    tournament_id = finished_cup(harness.store)
    log.catch_up()
    kept = tmp_path / "kept"
    kept.write_text(client.get("/v1/log/checkpoint").json()["checkpoint"])
    stored = fresh_load(harness.store, tournament_id).stored
    last_pairing = max(e.version for e in stored if e.type == "tournament.round-paired")
    rechain(harness, tournament_id, stored[:last_pairing], "running")
    loaded_forged = harness.store.tournament_with_events(tournament_id)
    assert loaded_forged[0].version == last_pairing and loaded_forged[0].status == "running"

    with pytest.raises(RecordCorrupt, match="past the row's version"):
        fresh_load(harness.store, tournament_id)
    answer = client.get(f"/v1/tournaments/{tournament_id}")
    assert (answer.status_code, answer.json()["code"]) == (500, "record-corrupt")

    rebuild_tree(harness, log)  # now the server loads it again: its log agrees with the forged stream
    created = create(client, app_key, "expect-delays", 2)
    play_moves(client, created, random.Random(3), 10)
    log.catch_up()  # and the log grows on from the forged tree
    fresh_load(harness.store, tournament_id)
    cut = exported(harness.store, log, tournament_id)
    assert tournament_records.verify(cut).code == "verified-so-far"  # the record alone cannot tell
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(cut))
    assert main(["verify", str(path), "--url", over_http]) == 0  # nor can its proof in the forged tree
    assert main(["verify", str(path), "--url", over_http, "--checkpoint", str(kept)]) == 1  # the kept one can


def test_a_tournament_result_rewritten_and_rechained_is_caught_at_load(harness: Any, client: TestClient) -> None:
    log: Transparency = client.app.state.log
    tournament_id = finished_cup(harness.store)
    log.catch_up()
    stored = fresh_load(harness.store, tournament_id).stored
    result = next(e for e in stored if e.type == "tournament.match-result")
    forged = msgspec.structs.replace(result, payload={**result.payload, "forged": True})
    rechain(harness, tournament_id, [*stored[:result.version - 1], forged, *stored[result.version:]], "finished")
    with pytest.raises(RecordCorrupt, match="not the one the transparency log holds"):
        fresh_load(harness.store, tournament_id)


def test_tournaments_recorded_before_they_joined_the_log_are_sequenced_afterwards(harness: Any,
                                                                                  client: TestClient) -> None:
    """A store upgraded from a release before this one holds tournaments none of whose events are leaves
    (`logged_version` 0): the next sequencer run takes them all, after what the tree held."""
    log: Transparency = client.app.state.log
    tournament_id = finished_cup(harness.store)
    # What such a store holds: a tree of every match event and no tournament's (the sequencer takes the events
    # first, then tournaments with the room left: here none), and the tournament at `logged_version` 0.
    (events,), = harness.raw("SELECT count(*) FROM events")
    harness.store.sequence_log(limit=int(events) - harness.store.log_size())
    size = harness.store.log_size()
    assert size == int(events) and harness.store.log_leaves_of(tournament_stream(tournament_id)) == []
    (count,), = harness.raw(f"SELECT version FROM tournaments WHERE id = '{tournament_id}'")  # an id we made
    assert harness.raw("SELECT logged_version FROM tournaments") == [(0,)]
    other = finished_cup(harness.store)
    log.catch_up()
    again = harness.store.log_leaves_of(tournament_stream(tournament_id))
    assert len(again) == count and all(leaf.index >= size for leaf in again)
    assert all(leaf.index >= size for leaf in harness.store.log_leaves_of(tournament_stream(other)))
