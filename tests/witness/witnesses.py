"""Witnesses for a log under test: `turnstile witness` apps, each on its own state database, reached in process
through the `post` a `Cosigning` takes (every request goes through the witness's real HTTP app)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from litestar.testing import TestClient

from api.witness_app import create_witness_app
from ledger.cosignature import Cosigner
from ledger.notes import Verifier
from ledger.policy import Policy, parse_policy
from service.log.cosigning import Cosigning, Reply, Witnessed
from service.log.transparency import Transparency
from service.witness import Witness
from store.witness_state import WitnessState
from tests.api.http_play import create, play_moves


class Witnesses:
    """`n` witnesses of one log, `w0`, `w1`...: their keys, states and apps; `down` ones do not answer."""

    def __init__(self, log_key: Verifier, folder: Path, n: int = 3) -> None:
        self.log_key = log_key
        self.folder = folder
        self.cosigners = [Cosigner.generate(f"witness.test/w{i}") for i in range(n)]
        self.down: set[str] = set()
        self.requests: list[tuple[str, int]] = []  # (witness name, status answered)
        self.stack = ExitStack()
        self.clients = {f"w{i}": self.start(i) for i in range(n)}

    def state_url(self, i: int) -> str:
        return f"sqlite:///{self.folder / f'w{i}.db'}"

    def start(self, i: int) -> TestClient:
        """Witness `w<i>`'s app over its state database (a restart keeps the database)."""
        witness = Witness(self.cosigners[i], {self.log_key.name: [self.log_key]}, WitnessState(self.state_url(i)))
        return self.stack.enter_context(TestClient(create_witness_app(witness)))

    def restart(self, i: int) -> None:
        """A new process of witness `w<i>` on the same state database."""
        self.clients[f"w{i}"] = self.start(i)

    def policy_text(self, quorum: str = "group g 2 w0 w1 w2\nquorum g\n") -> str:
        lines = [f"log {self.log_key.text()}\n"]
        lines += [f"witness w{i} {c.verifier().text()} http://w{i}.test/\n" for i, c in enumerate(self.cosigners)]
        return "".join(lines) + quorum

    def policy(self, quorum: str = "group g 2 w0 w1 w2\nquorum g\n") -> Policy:
        return parse_policy(self.policy_text(quorum))

    def post(self, url: str, body: bytes, timeout_s: float) -> Reply:
        """What a witness answers, by its URL's host (`w<i>.test`); no answer from a witness that is down."""
        name = url.split("//", 1)[1].split(".", 1)[0]
        if name in self.down:
            self.requests.append((name, 0))
            return Reply(0, "", "down: connection refused")
        answer = self.clients[name].post("/add-checkpoint", content=body)
        self.requests.append((name, answer.status_code))
        return Reply(answer.status_code, answer.headers.get("content-type", ""), answer.text)

    def close(self) -> None:
        self.stack.close()


GAME = "expect-delays"


@pytest.fixture
def tlog(client: TestClient) -> Transparency:  # noqa: F811
    found: Transparency = client.app.state.log
    found.min_interval_s = 0  # a checkpoint at every catch-up
    return found


@pytest.fixture
def witnesses(tlog: Transparency, tmp_path: Path) -> Iterator[Witnesses]:
    made = Witnesses(tlog.verifier, tmp_path)
    yield made
    made.close()


def grow(client: TestClient, app_key: str, log: Transparency, seed: int) -> int:  # noqa: F811
    """A few moves of a new match, sequenced and signed; the tree's size."""
    play_moves(client, create(client, app_key, GAME, 2), random.Random(seed), 3)
    size = log.catch_up()
    assert size is not None
    return size


def cosigning(log: Transparency, witnesses: Witnesses, quorum: str = "group g 2 w0 w1 w2\nquorum g\n") -> Cosigning:
    log.witnessed = Witnessed(log.store, witnesses.policy(quorum))
    return Cosigning(log.store, log.consistency, log.witnessed.policy, timeout_s=1.0, post=witnesses.post)
