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
from service.matches.matches import MatchService
from service.matches.model import Played
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
