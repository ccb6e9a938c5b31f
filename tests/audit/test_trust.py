"""The record's trust promises, attacked: nobody picks the deal, and a record cut short or spliced is caught.

Each test performs the attack (a caller choosing seeds, an operator deleting or replacing the last appends in the
database) and shows it fail: the match is marked and never counted, or the server refuses to serve or extend the
damaged record and `turnstile verify` names it.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from cli import main
from domain import match
from domain.catalog import by_slug
from domain.rng import mixed_seed, seed_commitment
from ledger.chain import commitment, committed_event_hash, event_salt
from ledger.events import StoredEvent
from ledger.records import parse_record
from service.reads.audit import Audit
from service.reads.runner import catch_up
from store.base import EventStore
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves, play_to_end
from tests.store.conftest import Harness

GAME = "expect-delays"


# ---- the deal ---------------------------------------------------------------------------------------------


def test_by_default_the_seed_is_the_servers_256_bit_secret(client: TestClient, app_key: str) -> None:
    """No seed from anyone: the server's secret, committed at creation and revealed at the end."""
    created = create(client, app_key, GAME, 2, {"max_turns": 8})
    assert (created["seed_source"], created["client_entropy"]) == ("server", None)
    detail = client.get(f"/v1/matches/{created['id']}").json()
    assert detail["seed"] is None and detail["seed_commitment"] == created["seed_commitment"]
    play_to_end(client, created, random.Random(1))
    seed = client.get(f"/v1/matches/{created['id']}").json()["seed"]
    assert len(bytes.fromhex(seed)) == 32 and seed_commitment(seed) == created["seed_commitment"]
    record = client.get(f"/v1/matches/{created['id']}/export").text
    assert client.post("/v1/verifications", json={"record": record}).json()["code"] == "verified"


def test_client_entropy_is_mixed_in_and_checkable_but_chooses_nothing(client: TestClient, app_key: str) -> None:
    """The players' entropy is public from the start; at the end the server's part is revealed and anyone can
    recompute the seed from both. The same entropy twice gives two different deals: it never picks one."""
    body = {"game": GAME, "seats": [{"player": "ann"}, {"player": "bob"}], "options": {"max_turns": 8},
            "client_entropy": "we rolled 3, 5 and 6"}
    first = client.post("/v1/matches", json=body, headers=bearer(app_key)).json()
    second = client.post("/v1/matches", json=body, headers=bearer(app_key)).json()
    assert first["seed_source"] == "server+client" and first["client_entropy"] == "we rolled 3, 5 and 6"
    assert first["seed_commitment"] != second["seed_commitment"]
    started = client.get(f"/v1/matches/{first['id']}/events", params={"limit": 1}).json()["items"][0]["event"]
    assert started["client_entropy"] == "we rolled 3, 5 and 6" and started["seed_source"] == "server+client"
    play_to_end(client, first, random.Random(2))
    detail = client.get(f"/v1/matches/{first['id']}").json()
    assert mixed_seed(detail["server_seed"], "we rolled 3, 5 and 6") == detail["seed"]
    assert seed_commitment(detail["seed"]) == first["seed_commitment"]
    text = client.get(f"/v1/matches/{first['id']}/export").text
    verdict = client.post("/v1/verifications", json={"record": text}).json()
    assert verdict["code"] == "verified"
    seed_check = next(c for c in verdict["checks"] if c["name"] == "seed")
    assert "entropy" in seed_check["detail"]
    forged = text.replace(detail["server_seed"], "0" * 64, 1)
    assert client.post("/v1/verifications", json={"record": forged}).json()["code"] == "seed-mismatch"


def test_a_callers_seed_is_marked_everywhere_and_never_counted(client: TestClient, app_key: str,
                                                               store: EventStore) -> None:
    """A seed chosen by the creator could pick the deal, and reveals every hand to whoever knows it: the match says
    `seed_source: caller` in its answer, view, listing, log and record, and no statistic, rating or leaderboard
    counts it."""
    chosen = create(client, app_key, GAME, 2, {"max_turns": 8}, seed="i-pick-the-deal")
    fair = create(client, app_key, GAME, 2, {"max_turns": 8})
    assert (chosen["seed_source"], fair["seed_source"]) == ("caller", "server")
    for created in (chosen, fair):
        play_to_end(client, created, random.Random(3))
    assert client.get(f"/v1/matches/{chosen['id']}").json()["seed_source"] == "caller"
    listed = {m["id"]: m["seed_source"] for m in client.get("/v1/matches").json()["items"]}
    assert listed == {chosen["id"]: "caller", fair["id"]: "server"}
    started = client.get(f"/v1/matches/{chosen['id']}/events", params={"limit": 1}).json()["items"][0]["event"]
    assert started["seed_source"] == "caller"
    assert parse_record(client.get(f"/v1/matches/{chosen['id']}/export").content).header.seed_source == "caller"
    catch_up(store)
    assert client.get(f"/v1/games/{GAME}/stats").json()["finished"] == 1
    rated = {e["player"]: e["matches"] for e in client.get(f"/v1/leaderboards/{GAME}").json()["items"]}
    assert rated == {"player-0": 1, "player-1": 1}


# ---- a record cut short or spliced --------------------------------------------------------------------------


def delete_last_events(harness: Harness, match_id: str, count: int) -> None:
    """What an operator (or an intruder with the database) could do: remove the last appends of a match."""
    if harness.kind == "postgres":
        harness.raw("ALTER TABLE events DISABLE TRIGGER events_immutable")
    else:
        harness.raw("DROP TRIGGER events_no_delete")
    harness.raw("DELETE FROM events WHERE match_id = ? AND version > (SELECT max(version) FROM events WHERE "
                "match_id = ?) - ?".replace("?", "%s" if harness.kind == "postgres" else "?"),
                (match_id, match_id, count))
    if harness.kind == "postgres":
        harness.raw("ALTER TABLE events ENABLE TRIGGER events_immutable")


@pytest.fixture
def harness_client(harness: Harness) -> Any:
    """An API client over the harness's store (which also gives raw SQL on the same database)."""
    from api.app import create_app
    from service.matches.tokens import new_secret, secret_hash

    key = new_secret("app")
    harness.store.create_app_key("tests", secret_hash(key))
    with TestClient(create_app(harness.store)) as test_client:  # type: ignore[arg-type]
        yield test_client, key


def test_a_finished_match_cut_short_is_reported_and_never_served(harness: Harness, harness_client: Any,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Deleting a finished match's last appends (its match.ended included) leaves a record that stops short of the
    head its row records: verification says `truncated`, and the server answers 500 `record-corrupt`."""
    if harness.kind == "sqlite-memory":
        pytest.skip("the command line opens the store by URL: a :memory: store is not shared")
    client, key = harness_client
    created = create(client, key, GAME, 2, {"max_turns": 8})
    play_to_end(client, created, random.Random(4))
    head = client.get(f"/v1/matches/{created['id']}").json()
    delete_last_events(harness, created["id"], 2)
    verdict = Audit(harness.store).verify(created["id"])
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "truncated", head["version"] - 1)
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", harness.url)
    assert main(["verify", "--all"]) == 1
    assert f"FAIL {created['id']}" in capsys.readouterr().out
    fresh = TestClient(client.app)  # the same app; its cached state is no excuse to serve the damaged record
    for path in ("", "/events", "/export", "/state", "/legal-moves"):
        answer = fresh.get(f"/v1/matches/{created['id']}{path}", headers=bearer(created["seats"][0]["token"]))
        assert (answer.status_code, answer.json()["code"]) == (500, "record-corrupt"), path


def test_a_move_is_never_appended_to_a_chain_cut_short(harness: Harness, harness_client: Any) -> None:
    """An active match whose last move was deleted: the next move is refused (500 record-corrupt), also by a server
    whose cache never saw the damage, and nothing is written."""
    client, key = harness_client
    created = create(client, key, GAME, 2, {"max_turns": 30})
    play_moves(client, created, random.Random(6), 6)
    delete_last_events(harness, created["id"], 1)
    before = harness.store.read_match(created["id"])
    from api.app import create_app

    for app in (client.app, create_app(harness.store)):  # this process (cached) and a restarted one
        with TestClient(app) as other:
            state = other.get(f"/v1/matches/{created['id']}")
            assert (state.status_code, state.json()["code"]) == (500, "record-corrupt")
            seat = created["seats"][0]
            answer = other.post(f"/v1/matches/{created['id']}/moves", headers=bearer(seat["token"]),
                                json={"move": {"type": "match.resign"}})
            assert (answer.status_code, answer.json()["code"]) == (500, "record-corrupt")
    assert harness.store.read_match(created["id"]) == before


def test_a_spliced_last_event_is_a_head_mismatch(harness: Harness, harness_client: Any) -> None:
    """The last event replaced by a forgery sealed and chained like the original (the seed is public after the
    end): the chain no longer ends in the head hash the row records, so verification says `head-mismatch` and the
    server refuses it."""
    client, key = harness_client
    created = create(client, key, GAME, 2, {"max_turns": 8})
    play_to_end(client, created, random.Random(7))
    seed = client.get(f"/v1/matches/{created['id']}").json()["seed"]
    last: StoredEvent = harness.store.read_match(created["id"])[-1]
    delete_last_events(harness, created["id"], 1)
    forged = {**last.payload, "reason": "forged"}
    sealed = commitment(event_salt(seed, last.version), forged, last.command)
    digest = committed_event_hash(last.prev_hash, last.match_id, last.version, last.type, forged, last.seat, sealed,
                                  last.recorded_at)
    param = "%s" if harness.kind == "postgres" else "?"
    harness.raw(f"INSERT INTO events (match_id, version, type, payload, seat, command, commitment, recorded_at, "
                f"prev_hash, hash) VALUES ({', '.join([param] * 10)})",
                (last.match_id, last.version, last.type, msgspec.json.encode(forged).decode(), last.seat,
                 msgspec.json.encode(last.command).decode(), sealed, last.recorded_at, last.prev_hash, digest))
    verdict = Audit(harness.store).verify(created["id"])
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "head-mismatch", last.version)
    answer = TestClient(client.app).get(f"/v1/matches/{created['id']}/export")
    assert (answer.status_code, answer.json()["code"]) == (500, "record-corrupt")


def test_the_cached_state_alone_never_hides_damage(store: EventStore) -> None:
    """A fresh service folds from storage and checks continuity; the check itself names the break."""
    from ledger.chain import GENESIS
    from ledger.events import chain_break
    from service.matches.matches import MatchService

    service = MatchService(store)
    game = by_slug(GAME)
    assert game is not None
    created = service.create(GAME, ["ann", "bob"], {"max_turns": 8})
    loaded = service.load(created.record.id)
    state = loaded.state
    for _ in range(3):
        seat = match.to_move(game, state)[0]
        service.play(created.record.id, seat, match.legal(game, state, seat)[0], expected_version=None,
                     command_id=None)
        state = service.load(created.record.id).state
    record, events = store.match_with_events(created.record.id)
    assert chain_break(record.version, record.head_hash, 0, GENESIS, events) is None
    assert "missing" in (chain_break(record.version, record.head_hash, 0, GENESIS, events[:2] + events[3:]) or "")
    assert "end at version" in (chain_break(record.version, record.head_hash, 0, GENESIS, events[:-1]) or "")
    assert "head hash" in (chain_break(record.version, "f" * 64, 0, GENESIS, events) or "")
