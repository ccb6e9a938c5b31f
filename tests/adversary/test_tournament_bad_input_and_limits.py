"""Tournaments' bad input and limits (issue 39, hole 6): a record nested thousands of levels deep is a malformed
record to the API and the CLI, never a 500 nor a traceback; a private tournament's join with a wrong code is the
same 404 as an unknown id (no existence oracle)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from cli import main
from ledger.notes import Signer
from service.log.transparency import write_key
from tests.api.conftest import bearer

DEEP = 2_000


def nested_record() -> str:
    """A tournament record whose first event holds 2,000 nested arrays."""
    event = "[" * DEEP + "]" * DEEP
    return ('{"header": {"record": "turnstile.tournament-record/1", "tournament_id": "t", "game": "metro-x", '
            '"format": "knockout", "visibility": "public", "status": "finished", "version": 1, "head_hash": "x", '
            f'"created_at": "2024-01-01T00:00:00Z"}}, "events": [{{"version": 1, "event": {{"deep": {event}}}, '
            '"recorded_at": "2024-01-01T00:00:00Z", "prev_hash": "x", "hash": "x"}], "matches": []}')


def test_a_deeply_nested_tournament_record_is_a_malformed_record_not_a_500(client: TestClient) -> None:
    """The attack: 2,000 nested brackets inside the record to verify. The match verifier answers such a record with
    its verdict `malformed-record`; the tournament verifier does the same."""
    answer = client.post("/v1/tournaments/verifications", json={"record": nested_record()})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["ok"] is False and body["code"] == "malformed-record", body
    assert "nests deeper than" in body["message"]


def test_the_cli_verifies_a_deeply_nested_tournament_record_to_a_failure_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`turnstile verify` on the nested record: one FAIL line and exit status 1, no traceback; with --key (the log
    proof reads the record's header) the same."""
    path = tmp_path / "deep.json"
    path.write_text(nested_record())
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr()
    assert "FAIL" in out.out and "malformed-record" in out.out and "Traceback" not in out.err
    key = tmp_path / "log.key"
    write_key(key, Signer.generate("turnstile.test/log"))
    assert main(["verify", str(path), "--key", str(key)]) == 1
    out = capsys.readouterr()
    assert "FAIL" in out.out and "(transparency log): not a tournament record" in out.out, out


def private_tournament(client: TestClient, key: str) -> dict[str, Any]:
    created = client.post("/v1/tournaments", headers=bearer(key), json={
        "game": "expect-delays", "format": "round-robin", "visibility": "private",
        "players": ["ann", {"open": True}]})
    assert created.status_code == 201, created.text
    return created.json()  # type: ignore[no-any-return]


def test_a_wrong_join_code_of_a_private_tournament_is_the_404_of_an_unknown_id(client: TestClient,
                                                                              app_key: str) -> None:
    """The attack: probe ids with a wrong code. A private tournament answers exactly as an id nobody has (same
    status, same body but the id); a public one still says the code is wrong; the right code still joins."""
    created = private_tournament(client, app_key)
    unknown = "00000000-0000-4000-8000-000000000000"
    probes = {tid: client.post(f"/v1/tournaments/{tid}/join", json={"code": "join_wrong", "player": "eve"})
              for tid in (created["id"], unknown)}
    for answer in probes.values():
        assert answer.status_code == 404, answer.text
        assert answer.headers["content-type"].startswith("application/problem+json")
    bodies = [json.loads(answer.text.replace(tid, "ID")) for tid, answer in probes.items()]
    assert bodies[0] == bodies[1] and bodies[0]["code"] == "unknown-tournament"
    assert client.get(f"/v1/tournaments/{created['id']}", headers=bearer(app_key)).json()["version"] == 1
    public = client.post("/v1/tournaments", headers=bearer(app_key), json={
        "game": "expect-delays", "format": "round-robin", "players": ["ann", {"open": True}]}).json()
    wrong = client.post(f"/v1/tournaments/{public['id']}/join", json={"code": "join_wrong", "player": "eve"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong-place-code"
    code = created["join_codes"][0]["code"]
    joined = client.post(f"/v1/tournaments/{created['id']}/join", json={"code": code, "player": "eve"})
    assert joined.status_code == 200, joined.text


def test_a_tournament_planning_more_matches_than_the_cap_is_refused_and_nothing_is_written(
        client: TestClient, app_key: str) -> None:
    """The attack: one request for a round robin of 64 bots (2,016 matches). Past `TURNSTILE_TOURNAMENT_MATCHES_MAX`
    (512) it is 422 `too-many-matches` and no tournament exists; 32 bots (496 matches) is still taken."""
    bots = [{"bot": "random", "name": f"r{i}"} for i in range(64)]
    answer = client.post("/v1/tournaments", headers=bearer(app_key),
                         json={"game": "expect-delays", "format": "round-robin", "players": bots})
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == "too-many-matches" and "2016" in answer.json()["detail"]
    assert client.get("/v1/tournaments?mine=true", headers=bearer(app_key)).json()["items"] == []
    fits = client.post("/v1/tournaments", headers=bearer(app_key),
                       json={"game": "expect-delays", "format": "round-robin", "players": bots[:32]})
    assert fits.status_code == 201, fits.text


def test_a_start_past_the_apps_running_tournaments_is_refused_and_nothing_is_written(store: Any, app_key: str,
                                                                                      other_key: str) -> None:
    """The attack: start one tournament after another. With `TURNSTILE_TOURNAMENTS_RUNNING_PER_APP` 1, the app's
    second start while its first is running is 429 `too-many-tournaments` and the second stays open, unwritten;
    another app still starts its own; once the first has finished, the second starts."""
    from api.app import create_app

    with TestClient(create_app(store, tournaments_running_per_app=1)) as client:
        def people(key: str) -> str:
            created = client.post("/v1/tournaments", headers=bearer(key), json={
                "game": "expect-delays", "format": "round-robin", "players": ["ann", "bob"],
                "options": {"max_turns": 8}})
            assert created.status_code == 201, created.text
            return created.json()["id"]  # type: ignore[no-any-return]

        first, second, theirs = people(app_key), people(app_key), people(other_key)
        assert client.post(f"/v1/tournaments/{first}/start", headers=bearer(app_key)).json()["status"] == "running"
        refused = client.post(f"/v1/tournaments/{second}/start", headers=bearer(app_key))
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "too-many-tournaments"
        body = client.get(f"/v1/tournaments/{second}", headers=bearer(app_key)).json()
        assert body["status"] == "open" and body["version"] == 1
        assert client.post(f"/v1/tournaments/{theirs}/start", headers=bearer(other_key)).status_code == 200
        again = client.post(f"/v1/tournaments/{first}/start", headers=bearer(app_key))
        assert again.status_code == 409 and again.json()["code"] == "already-started"
        assert client.post(f"/v1/tournaments/{first}/withdraw", headers=bearer(app_key),
                           json={"entrant": 0}).json()["status"] == "finished"
        assert client.post(f"/v1/tournaments/{second}/start", headers=bearer(app_key)).status_code == 200


def test_the_tournament_caps_are_settings() -> None:
    from settings import Settings, SettingsError

    settings = Settings.from_env({"TURNSTILE_TOURNAMENT_MATCHES_MAX": "100",
                                  "TURNSTILE_TOURNAMENTS_RUNNING_PER_APP": "3"})
    assert (settings.tournament_matches_max, settings.tournaments_running_per_app) == (100, 3)
    assert (Settings().tournament_matches_max, Settings().tournaments_running_per_app) == (512, 10)
    with pytest.raises(SettingsError):
        Settings.from_env({"TURNSTILE_TOURNAMENTS_RUNNING_PER_APP": "0"})


def test_concurrent_starts_at_the_cap_let_exactly_one_through(store: Any) -> None:
    """The attack: an organiser one tournament below its cap fires six starts at once. Each start's count of the
    app's running tournaments must be the one its own append commits under: every start is held at its append until
    all six have counted (so a count taken apart from the append lets all six through), and exactly one starts while
    the other five are `too-many-tournaments` and stay open, unwritten."""
    from domain.tournaments.commands import CreateTournament
    from service.matches.matches import MatchService
    from service.tournaments.tournaments import TooManyTournaments, TournamentService

    cap, racing = 3, 6
    tournaments = TournamentService(store, MatchService(store), running_per_app=cap)
    command = CreateTournament(game="expect-delays", format="round-robin", entrants=("ann", "bob"), seats=2,
                               seed_commitment="", options={"max_turns": 8})
    ids = [tournaments.create("club", command).loaded.record.id for _ in range(cap - 1 + racing)]
    for running in ids[:cap - 1]:
        tournaments.start(running, "club")
    appended, barrier = store.append_tournament, threading.Barrier(racing, timeout=20)

    def held(tournament_id: str, expected_version: int, payloads: Any, **cap_of: Any) -> Any:
        if any(p["type"] == "tournament.started" for p in payloads):
            barrier.wait()  # every racer has counted by now (or counts under its append)
        return appended(tournament_id, expected_version, payloads, **cap_of)

    store.append_tournament = held
    outcomes: dict[str, str] = {}

    def start(tournament_id: str) -> None:
        try:
            tournaments.start(tournament_id, "club")
            outcomes[tournament_id] = "started"
        except TooManyTournaments:
            outcomes[tournament_id] = "too-many-tournaments"

    threads = [threading.Thread(target=start, args=(t,)) for t in ids[cap - 1:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes.values()) == ["started"] + ["too-many-tournaments"] * (racing - 1), outcomes
    refused = [t for t, outcome in outcomes.items() if outcome != "started"]
    assert all(store.get_tournament(t).status == "open" and store.get_tournament(t).version == 1 for t in refused)
    assert len(store.list_tournaments(reader="club", mine=True, status="running")) == cap
