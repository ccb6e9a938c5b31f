"""The replay and audit endpoints, over each store: state at any version, the record, verification."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from domain import match
from domain.catalog import GAMES, decode_events
from domain.codec import encode
from domain.engine import Game
from domain.match import MatchState
from ledger.records import FORMAT, MEDIA_TYPE, parse_record
from service.matches.matches import MatchService
from store.base import EventStore
from tests.api.conftest import bearer
from tests.api.http_play import create
from tests.audit.conftest import play_moves, small_setup

EVERY_GAME = pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])


def service_of(client: TestClient) -> MatchService:
    """The app's own match service (moves played through it are the app's moves)."""
    return client.app.state.service  # type: ignore[no-any-return]


def start(client: TestClient, app_key: str, game: Game[Any], moves: int, seed: str = "audit-api") -> dict[str, Any]:
    """A match created over HTTP (for its seat tokens), then `moves` random moves played."""
    seats, options = small_setup(game)
    created = create(client, app_key, game.slug, seats, options, seed=seed)
    created["version"] = play_moves(service_of(client), created["id"], game, seed, moves)
    return created


def prefix_states(store: EventStore, game: Game[Any], match_id: str) -> list[tuple[MatchState, bool]]:
    """For each version: the fold of the events up to it, and whether set-up (events without a command) is over."""
    stored = store.read_match(match_id)
    states = []
    state: MatchState | None = None
    for index, event in enumerate(stored):
        state = match.fold(game, decode_events(game, [event.payload]), state)
        set_up = index + 1 == len(stored) or any(e.command is not None for e in stored[:index + 2])
        states.append((state, set_up))
    return states


def sample(latest: int) -> list[int]:
    """Every version of a short match; about forty spread over a long one, with the first and the last."""
    return list(range(1, latest + 1)) if latest <= 80 else sorted({1, 2, 3, *range(1, latest, latest // 40), latest})


def as_json(value: Any) -> Any:
    """A value as it looks after a JSON round trip."""
    return msgspec.json.decode(msgspec.json.encode(value))


def callers(created: dict[str, Any]) -> list[tuple[int | None, dict[str, str]]]:
    """A spectator, then each seat with its token."""
    return [(None, {}), *((s["seat"], bearer(s["token"])) for s in created["seats"])]


def leaked(text: str | bytes, hidden: frozenset[str]) -> list[str]:
    """Hidden tokens that appear, quoted, in a JSON text."""
    raw = text.encode() if isinstance(text, str) else text
    return [token for token in hidden if f'"{token}"'.encode() in raw]


@EVERY_GAME
def test_the_state_at_every_version_of_a_finished_match_is_the_fold_of_that_prefix(
    client: TestClient, app_key: str, store: EventStore, game: Game[Any]
) -> None:
    """After the end the whole state is public at every version; views are each caller's, as the rules say."""
    created = start(client, app_key, game, 20_000)
    latest = created["version"]
    states = prefix_states(store, game, created["id"])
    for version in sample(latest):
        state, set_up = states[version - 1]
        for seat, headers in callers(created):
            body = client.get(f"/v1/matches/{created['id']}/state", params={"version": version},
                              headers=headers).json()
            assert (body["version"], body["latest_version"], body["status"], body["you"]) == (
                version, latest, "finished" if state.finished else "active", seat)
            assert body["game_state"] == as_json(state.game_state)
            assert body["view"] == (as_json(game.view(state.game_state, seat)) if set_up else None)
            assert body["to_move"] == (match.to_move(game, state) if set_up else [])
            assert (body["outcome"] is None) == (state.ended is None)


@EVERY_GAME
def test_before_the_end_no_caller_sees_hidden_state_at_any_version(
    client: TestClient, app_key: str, store: EventStore, game: Game[Any]
) -> None:
    """Each seat sees its own view and a spectator the public one, at every version; nothing hidden shows."""
    created = start(client, app_key, game, 10)
    assert client.get(f"/v1/matches/{created['id']}").json()["status"] == "active"
    for version, (state, set_up) in enumerate(prefix_states(store, game, created["id"]), start=1):
        for seat, headers in callers(created):
            response = client.get(f"/v1/matches/{created['id']}/state", params={"version": version},
                                  headers=headers)
            body = response.json()
            assert body["game_state"] is None and body["status"] == "active"
            if not set_up:
                assert body["view"] is None
                continue
            assert body["view"] == as_json(game.view(state.game_state, seat))
            assert not leaked(response.content, game.hidden_from(state.game_state, seat)), (seat, version)


@EVERY_GAME
def test_the_export_before_the_end_is_redacted_for_the_caller(
    client: TestClient, app_key: str, store: EventStore, game: Game[Any]
) -> None:
    """Redacted like the event log, others' commands withheld, no seed; every hash public, and what the hashes cover
    (each line's public form and commitment) hides everything hidden from a spectator, so the chain verifies whole
    for every caller."""
    created = start(client, app_key, game, 10)
    states = prefix_states(store, game, created["id"])
    for seat, headers in callers(created):
        response = client.get(f"/v1/matches/{created['id']}/export", headers=headers)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith(MEDIA_TYPE)
        record = parse_record(response.content)
        assert record.header.seed is None and record.header.status == "active"
        assert [line.version for line in record.lines] == list(range(1, created["version"] + 1))
        assert record.header.head_hash == client.get(f"/v1/matches/{created['id']}").json()["head_hash"]
        for line in record.lines:
            assert line.command is None or line.seat == seat
            assert line.hash and line.prev_hash and line.commitment, "every hash is public at every moment"
            state = states[line.version - 1][0]
            if state.game_state is not None:
                hidden = game.hidden_from(state.game_state, seat)
                assert not leaked(encode(line.event), hidden), (seat, line.version)
                assert not leaked(encode(line.public_event), game.hidden_from(state.game_state, None))
        verdict = client.post("/v1/verifications", json={"record": response.text}).json()
        assert (verdict["ok"], verdict["code"]) == (True, "verified-so-far"), verdict["message"]
        checks = {c["name"]: c["status"] for c in verdict["checks"]}
        assert checks["chain"] == "passed" and checks["seed"] == checks["commitments"] == "not-revealed"


@EVERY_GAME
def test_the_export_after_the_end_is_the_whole_record_and_verifies(
    client: TestClient, app_key: str, store: EventStore, game: Game[Any]
) -> None:
    """After the end anyone gets every event as recorded, every command and the seed; the record verifies."""
    created = start(client, app_key, game, 20_000)
    detail = client.get(f"/v1/matches/{created['id']}").json()
    stored = store.read_match(created["id"])
    for _, headers in callers(created)[:2]:
        text = client.get(f"/v1/matches/{created['id']}/export", headers=headers).text
        record = parse_record(text)
        header = record.header
        assert (header.record, header.match_id, header.game, header.status) == (FORMAT, created["id"], game.slug,
                                                                                  "finished")
        assert header.seed == "audit-api" and header.head_hash == detail["head_hash"] == stored[-1].hash
        assert header.players == tuple(s["player"] for s in created["seats"])
        assert [(line.event, line.command, line.seat, line.hash, line.prev_hash) for line in record.lines] == [
            (e.payload, e.command, e.seat, e.hash, e.prev_hash) for e in stored]
        verdict = client.post("/v1/verifications", json={"record": text}).json()
        assert (verdict["ok"], verdict["code"], verdict["failed_version"]) == (True, "verified", None)


def test_a_tampered_record_is_refused_with_the_event_named(client: TestClient, app_key: str) -> None:
    """POST /v1/verifications names the first failing event and why."""
    game = GAMES[0]
    created = start(client, app_key, game, 20_000)
    rows = client.get(f"/v1/matches/{created['id']}/export").text.splitlines(keepends=True)
    rows[5] = rows[5].replace('"recorded_at":"2', '"recorded_at":"3')
    verdict = client.post("/v1/verifications", json={"record": "".join(rows)}).json()
    assert (verdict["ok"], verdict["code"], verdict["failed_version"]) == (False, "chain-broken", 5)
    assert "chain" not in verdict["passed"] and "seed" in verdict["passed"]


@pytest.mark.parametrize("text", ["", "hello", '{"record":"turnstile.match-record/1"}'])
def test_a_text_that_is_not_a_record_gets_a_malformed_verdict(client: TestClient, text: str) -> None:
    """Garbage in a well-formed request is a verdict (200), not an error."""
    response = client.post("/v1/verifications", json={"record": text})
    assert response.status_code == 200
    assert (response.json()["ok"], response.json()["code"]) == (False, "malformed-record")


def test_a_malformed_verification_request_is_a_problem(client: TestClient) -> None:
    """The body must be {"record": "..."} and nothing else."""
    for body in ({}, {"record": 3}, {"record": "", "extra": 1}):
        response = client.post("/v1/verifications", json=body)
        assert response.status_code == 400 and response.json()["code"] == "invalid-request"


def test_state_and_export_errors(client: TestClient, app_key: str) -> None:
    """Unknown match or version: 404; a version below 1: 400; a token of another match: 403."""
    game = GAMES[0]
    created = start(client, app_key, game, 2)
    other = start(client, app_key, game, 0, seed="other")
    url = f"/v1/matches/{created['id']}"
    assert client.get("/v1/matches/nope/state").json()["code"] == "unknown-match"
    assert client.get("/v1/matches/nope/export").json()["code"] == "unknown-match"
    beyond = client.get(f"{url}/state", params={"version": created["version"] + 1})
    assert (beyond.status_code, beyond.json()["code"]) == (404, "unknown-version")
    assert beyond.json()["current_version"] == created["version"]
    assert client.get(f"{url}/state", params={"version": 0}).status_code == 400
    stranger = bearer(other["seats"][0]["token"])
    assert client.get(f"{url}/state", headers=stranger).status_code == 403
    assert client.get(f"{url}/export", headers=stranger).status_code == 403
    latest = client.get(f"{url}/state").json()
    assert latest["version"] == latest["latest_version"] == created["version"]
