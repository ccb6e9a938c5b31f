"""Concurrent retries of one move (same Idempotency-Key, same body) all get the first answer, on both stores.

The attack: a client whose connection dropped retries at once, several times, while the first request is still in
flight. Before the command-id check was part of the append, a retry could be answered 409 `version-conflict` or
422 `card-not-in-hand`. Now every retry is answered with the first answer and nothing is written twice.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

import pytest
from litestar.testing import TestClient

from domain import match
from domain.catalog import by_slug
from domain.engine import Command
from service.matches.idempotent import CreateKey
from service.matches.matches import MatchService
from service.matches.model import OpenedMatch, Played
from store.base import EventStore
from tests.api.conftest import bearer
from tests.api.http_play import create

GAME = "expect-delays"
TRIALS = 12


def at_once(calls: list[Any]) -> list[Any]:
    """Run the calls in threads released together; each outcome is a result or the exception raised."""
    outcomes: list[Any] = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = calls[index]()
        except Exception as exc:  # noqa: BLE001 - returned to the test, which asserts on it
            outcomes[index] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def a_move(service: MatchService, match_id: str) -> tuple[int, Command, int]:
    """(seat, a legal move of it, the version) of the match now."""
    game = by_slug(GAME)
    assert game is not None
    state = service.load(match_id).state
    seat = match.to_move(game, state)[0]
    # The last listed move of a seat: for Expect Delays usually one that plays cards from the hand, so a retry
    # decided after the first landed would be refused (the cards are gone) if it were decided again.
    return seat, match.legal(game, state, seat)[-1], state.version


@pytest.mark.parametrize("expected", [True, False], ids=["expected-version", "no-expected-version"])
@pytest.mark.parametrize("processes", [1, 3], ids=["one-process", "three-processes"])
def test_simultaneous_retries_of_a_move_all_get_the_first_answer(store: EventStore, expected: bool,
                                                                 processes: int) -> None:
    """Three threads send one command with one command id at once, in one service or in three (each with its own
    cache, as three API processes would be): one writes, all three answer with the same events."""
    services = [MatchService(store) for _ in range(processes)]
    for trial in range(TRIALS):
        match_id = services[0].create(GAME, ["ann", "bob"], {"max_turns": 30}).record.id
        for other in services[1:]:
            other.load(match_id)  # every process has the match cached, as after earlier reads
        seat, command, version = a_move(services[0], match_id)

        retry = partial(play, match_id=match_id, seat=seat, command=command,
                        expected_version=version if expected else None, command_id=f"key:{seat}:retry-{trial}")
        outcomes = at_once([partial(retry, services[i % processes]) for i in range(3)])
        # Later retries too, each decided on a state that already holds the move (its cards are gone, its version
        # passed): the refusal and the version conflict they would meet are answered with the first answer.
        outcomes += [retry(service) for service in services]
        assert all(isinstance(o, Played) for o in outcomes), outcomes
        results = [o.result for o in outcomes]
        assert len([r for r in results if not r.duplicate]) == 1
        assert all(r.events == results[0].events and r.version == results[0].version for r in results)
        assert len(store.read_match(match_id)) == results[0].version  # written once


def test_simultaneous_http_retries_with_one_idempotency_key_get_one_answer(client: TestClient, app_key: str,
                                                                           store: EventStore) -> None:
    """The same over HTTP: three POSTs with one Idempotency-Key and body at once all answer 201 with the same
    version, position and events."""
    service: MatchService = client.app.state.service
    for trial in range(TRIALS // 2):
        created = create(client, app_key, GAME, 2, {"max_turns": 30})
        seat, command, version = a_move(service, created["id"])
        token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
        body = {"move": match_move(command), "expected_version": version}
        headers = {**bearer(token), "Idempotency-Key": f"http-{trial}"}
        post = partial(client.post, f"/v1/matches/{created['id']}/moves", json=body, headers=headers)
        answers = at_once([post] * 3)
        assert [a.status_code for a in answers] == [201, 201, 201], [a.text for a in answers]
        firsts = [{k: v for k, v in a.json().items() if k in ("version", "position", "events")} for a in answers]
        assert firsts[0] == firsts[1] == firsts[2]
        assert sorted(a.json()["duplicate"] for a in answers) == [False, True, True]
        assert len(store.read_match(created["id"])) == firsts[0]["version"]


def play(service: MatchService, *, match_id: str, seat: int, command: Command, expected_version: int | None,
         command_id: str) -> Played:
    """One retry of the move, through one service (one API process)."""
    return service.play(match_id, seat, command, expected_version=expected_version, command_id=command_id)


def match_move(command: Command) -> Any:
    """A command as JSON."""
    from domain.codec import to_builtins

    return to_builtins(command)


CREATE = {"game": GAME, "seats": [{"player": "ada"}, {"open": True}], "options": {"max_turns": 30}}


def mine(client: TestClient, app_key: str) -> list[str]:
    """The ids of the calling app's matches."""
    return [m["id"] for m in client.get("/v1/matches?mine=true", headers=bearer(app_key)).json()["items"]]


def test_a_retried_create_answers_the_first_answer_and_opens_no_second_match(client: TestClient,
                                                                              app_key: str) -> None:
    """POST /v1/matches again with its Idempotency-Key and body: the first answer (same id, status code, seat
    tokens and join codes), even after the open seat was joined and moves were played, and still one match."""
    headers = {**bearer(app_key), "Idempotency-Key": "create-1"}
    first = client.post("/v1/matches", json=CREATE, headers=headers)
    assert first.status_code == 201, first.text
    created = first.json()
    code = created["seats"][1]["join_code"]
    joined = client.post(f"/v1/matches/{created['id']}/join", json={"code": code, "player": "grace"})
    assert joined.status_code == 201, joined.text
    again = client.post("/v1/matches", json=CREATE, headers=headers)
    assert (again.status_code, again.json(), again.headers["location"]) == (201, created, first.headers["location"])
    assert mine(client, app_key) == [created["id"]]
    token = created["seats"][0]["token"]  # the token told again is the seat's
    assert client.get(f"/v1/matches/{created['id']}", headers=bearer(token)).json()["you"] == 0


def test_a_create_with_a_used_key_and_another_body_is_refused(client: TestClient, app_key: str) -> None:
    """The same Idempotency-Key with another body: 422 `idempotency-key-reused`, and nothing is opened."""
    headers = {**bearer(app_key), "Idempotency-Key": "create-2"}
    assert client.post("/v1/matches", json=CREATE, headers=headers).status_code == 201
    other = {**CREATE, "options": {"max_turns": 31}}
    refused = client.post("/v1/matches", json=other, headers=headers)
    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["code"] == "idempotency-key-reused"
    assert len(mine(client, app_key)) == 1


def test_create_keys_are_scoped_to_the_app_key(client: TestClient, app_key: str, other_key: str) -> None:
    """Two apps sending one Idempotency-Key each open their own match."""
    ids = {client.post("/v1/matches", json=CREATE, headers={**bearer(key), "Idempotency-Key": "shared"}).json()["id"]
           for key in (app_key, other_key)}
    assert len(ids) == 2
    assert len(mine(client, app_key)) == len(mine(client, other_key)) == 1


def test_simultaneous_creates_with_one_idempotency_key_open_one_match(client: TestClient, app_key: str,
                                                                      store: EventStore) -> None:
    """Three POSTs of one create with one Idempotency-Key at once: all 201 with the same answer, one match."""
    for trial in range(TRIALS // 2):
        headers = {**bearer(app_key), "Idempotency-Key": f"at-once-{trial}"}
        answers = at_once([partial(client.post, "/v1/matches", json=CREATE, headers=headers)] * 3)
        assert [a.status_code for a in answers] == [201, 201, 201], [a.text for a in answers]
        assert answers[0].json() == answers[1].json() == answers[2].json()
    assert len(mine(client, app_key)) == TRIALS // 2
    assert len(store.list_matches(owner="tests")) == TRIALS // 2


def test_simultaneous_creates_in_three_processes_open_one_match(store: EventStore, app_key: str) -> None:
    """The same through three services (three API processes): one writes, the others answer its answer."""
    services = [MatchService(store) for _ in range(3)]
    retry = CreateKey(app_key, "three-processes")
    outcomes = at_once([partial(s.create, GAME, ["ada", None], {"max_turns": 30}, owner="tests", retry=retry)
                        for s in services])
    assert all(isinstance(o, OpenedMatch) for o in outcomes), outcomes
    assert all((o.record, o.tokens, o.join_codes) == (outcomes[0].record, outcomes[0].tokens, outcomes[0].join_codes)
               for o in outcomes)
    assert sorted(o.result.duplicate for o in outcomes) == [False, True, True]
    assert [m.id for m in store.list_matches(owner="tests")] == [outcomes[0].record.id]
