"""Issue 39, holes 2-4: attacks on the outside client of the log (`turnstile verify --url --checkpoint`, `turnstile
log watch`), each performed against a real server behind a fake network (urllib's `urlopen` answered by a litestar
TestClient, HTTP errors raised as urllib raises them, problem+json bodies and all):

2. a rollback (the log's tables restored from a backup) or a fork (a match's tail cut and the whole tree rebuilt and
   re-signed) while the record carries the very checkpoint kept from before: `verify` used to ask the server nothing;
3. a server that refuses proofs (404 `beyond-tree`) up to a size it signed: it used to read as "unreachable" (exit 2,
   and a looping witness retried it forever);
4. a front that keeps serving an old checkpoint while the log grows: it used to be "consistent" forever.
"""

from __future__ import annotations

import io
import random
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from cli import log as log_cli
from cli import main
from ledger.notes import Checkpoint
from service.log import log_client
from service.matches.tokens import new_secret, secret_hash
from tests.adversary.test_operator_edits_the_store import sql, unlock
from tests.api.http_play import create, play_moves, play_to_end

pytestmark = pytest.mark.parametrize("harness", ["sqlite-memory", "postgres"], indirect=True)

GAME = "expect-delays"
BASE = "http://turnstile.test"


class _Answer:
    def __init__(self, body: bytes) -> None:
        self.body = body

    def read(self) -> bytes:
        return self.body

    def __enter__(self) -> _Answer:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class Front:
    """What the client's urllib reaches: the server, unless the network is `down` or the front serves a `frozen`
    checkpoint answer of its own."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.down = False
        self.frozen: dict[str, Any] | None = None

    def urlopen(self, url: str, timeout: float = 10.0) -> _Answer:
        if self.down:
            raise urllib.error.URLError("[Errno 111] Connection refused")
        path = url.removeprefix(BASE)
        if path == "/v1/log/checkpoint" and self.frozen is not None:
            return _Answer(msgspec.json.encode(self.frozen))
        answer = self.client.get(path)
        if answer.status_code != 200:
            raise urllib.error.HTTPError(url, answer.status_code, "error", None,  # type: ignore[arg-type]
                                         io.BytesIO(answer.content))
        return _Answer(answer.content)


class Stop(Exception):
    """A looping witness that has not exited by itself."""


@pytest.fixture
def served(harness: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, str, Front]]:
    key = new_secret("app")
    harness.store.create_app_key("tests", secret_hash(key))
    with TestClient(create_app(harness.store)) as client:
        client.app.state.log.min_interval_s = 0  # a checkpoint at every catch-up
        front = Front(client)
        monkeypatch.setattr(log_client.urllib.request, "urlopen", front.urlopen)
        yield client, key, front


def grown(client: TestClient, key: str, seed: int, moves: int = 4) -> dict[str, Any]:
    """A new match with a few moves, sequenced and signed."""
    created = create(client, key, GAME, 2)
    play_moves(client, created, random.Random(seed), moves)
    client.app.state.log.catch_up()
    return created


def newest(client: TestClient) -> str:
    return str(client.get("/v1/log/checkpoint").json()["checkpoint"])


def roll_back_tree(harness: Any, size: int, *, checkpoints: bool) -> None:
    """The log's tree (and, with `checkpoints`, its signed checkpoints) set back to `size` leaves, as a restore of
    a backup taken then would leave them."""
    unlock(harness, "log_leaves", "log_nodes", "log_checkpoints")
    sql(harness, "DELETE FROM log_leaves WHERE idx >= ?", (size,))
    sql(harness, "DELETE FROM log_nodes WHERE (idx + 1) * (1 << level) > ?", (size,))
    if checkpoints:
        sql(harness, "DELETE FROM log_checkpoints WHERE size > ?", (size,))
    sql(harness, "UPDATE log_state SET size = ?", (size,))


def exported(client: TestClient, created: dict[str, Any], path: Path) -> Path:
    text = client.get(f"/v1/matches/{created['id']}/export").content
    path.write_bytes(text)
    return path


# ---- hole 2: verify --checkpoint asks the server for its current tree -------------------------------------------

def test_verify_with_the_kept_checkpoint_fails_on_a_log_restored_from_a_backup(
        harness: Any, served: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    client, key, _ = served
    grown(client, key, 1)
    backup = harness.store.log_size()
    created = grown(client, key, 2)
    record = exported(client, created, tmp_path / "record.ndjson")
    kept = tmp_path / "kept"
    kept.write_text(newest(client))  # the very checkpoint the record carries
    verify = ["verify", str(record), "--url", BASE, "--checkpoint", str(kept)]
    assert main(verify) == 0
    assert "OK   " in capsys.readouterr().out
    roll_back_tree(harness, backup, checkpoints=True)
    assert client.get("/v1/log/checkpoint").json()["tree_size"] == backup
    assert main(verify) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "rollback" in out, out


def test_verify_with_the_kept_checkpoint_fails_on_a_tail_cut_and_the_tree_rebuilt(
        harness: Any, served: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    client, key, _ = served
    created = create(client, key, GAME, 2, {"max_turns": 8})
    play_to_end(client, created, random.Random(3))
    client.app.state.log.catch_up()
    record = exported(client, created, tmp_path / "record.ndjson")
    kept = tmp_path / "kept"
    kept.write_text(newest(client))
    size = harness.store.log_size()
    verify = ["verify", str(record), "--url", BASE, "--checkpoint", str(kept)]
    assert main(verify) == 0
    events = harness.store.read_match(created["id"])
    last = events[-4]
    unlock(harness, "events", "log_leaves", "log_nodes", "log_checkpoints")
    sql(harness, "DELETE FROM events WHERE match_id = ? AND version > ?", (created["id"], last.version))
    sql(harness, "UPDATE matches SET version = ?, head_hash = ?, status = 'active' WHERE id = ?",
        (last.version, last.hash, created["id"]))
    for table in ("log_leaves", "log_nodes", "log_checkpoints"):
        sql(harness, f"DELETE FROM {table}")
    sql(harness, "UPDATE log_state SET size = 0, after_position = 0")
    client.app.state.log.catch_up()
    other = create(client, key, GAME, 2)
    rng = random.Random(4)
    while harness.store.log_size() <= size:  # the forged tree outgrows the kept one: no rollback to see, a fork
        assert play_moves(client, other, rng, 1) == 1
        client.app.state.log.catch_up()
    capsys.readouterr()
    assert main(verify) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "fork" in out, out


# ---- hole 3: a proof refused up to a signed size is a rollback ----------------------------------------------

@pytest.fixture
def refusing(harness: Any, served: Any, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A witness state and a kept checkpoint of an early tree, a record of a later one, and the tree then set back to
    the early size while the later checkpoint is still served: every proof up to it is refused (404 beyond-tree)."""
    client, key, _ = served
    grown(client, key, 5)
    early = harness.store.log_size()
    kept = tmp_path / "kept"
    kept.write_text(newest(client))
    state = tmp_path / "witness"
    state.write_text(newest(client))
    record = exported(client, grown(client, key, 6), tmp_path / "record.ndjson")
    roll_back_tree(harness, early, checkpoints=False)
    answer = client.get("/v1/log/proofs/consistency", params={"from": early, "to": early + 1})
    assert (answer.status_code, answer.json()["code"]) == (404, "beyond-tree")
    return kept, state, record


def test_verify_names_a_refused_proof_a_rollback(refusing: Any, capsys: pytest.CaptureFixture[str]) -> None:
    kept, _, record = refusing
    assert main(["verify", str(record), "--url", BASE, "--checkpoint", str(kept)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "rollback" in out and "beyond-tree" in out, out


def test_watch_once_names_a_refused_proof_a_rollback(refusing: Any, capsys: pytest.CaptureFixture[str]) -> None:
    _, state, _ = refusing
    seen = state.read_text()
    assert main(["log", "watch", "--url", BASE, "--state", str(state), "--once"]) == 1
    assert "LOG MISBEHAVED: rollback" in capsys.readouterr().err
    assert state.read_text() == seen


def stop_after(monkeypatch: pytest.MonkeyPatch, sleeps: int, between: Any = None) -> list[float]:
    """The looping witness's sleeps, counted (each runs `between` first); Stop after `sleeps` of them."""
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) > sleeps:
            raise Stop
        if between is not None:
            between()

    monkeypatch.setattr(log_cli.time, "sleep", sleep)
    return slept


def test_the_looping_watch_raises_the_alarm_after_refusals_in_a_row(
        refusing: Any, served: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _, state, _ = refusing
    watch = ["log", "watch", "--url", BASE, "--state", str(state), "--interval", "0"]
    slept = stop_after(monkeypatch, 10)
    assert main(watch) == 1  # the default: 3 refusals in a row
    assert len(slept) == 2
    err = capsys.readouterr().err
    assert "1 of 3 in a row" in err and "2 of 3 in a row" in err and "LOG MISBEHAVED: rollback" in err, err
    slept.clear()
    assert main([*watch, "--refusals", "1"]) == 1
    assert slept == []


def test_network_errors_neither_raise_the_alarm_nor_reset_the_refusals(
        refusing: Any, served: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _, state, _ = refusing
    _, _, front = served
    watch = ["log", "watch", "--url", BASE, "--state", str(state), "--interval", "0"]

    def flip() -> None:
        front.down = not front.down

    slept = stop_after(monkeypatch, 10, flip)  # refused, down, refused, down, refused
    assert main(watch) == 1
    assert len(slept) == 4
    assert "Connection refused" in capsys.readouterr().err
    key = state.with_name("log.pub")
    key.write_text(front.client.app.state.log.verifier.text())
    front.down = True
    stop_after(monkeypatch, 10)
    with pytest.raises(Stop):  # down for good: retried, never a misbehaving log
        main([*watch, "--key", str(key)])
    err = capsys.readouterr().err
    assert "Connection refused" in err and "MISBEHAVED" not in err


# ---- hole 4: a stale checkpoint -----------------------------------------------------------------------------

def test_the_witness_warns_of_a_front_serving_an_old_checkpoint_while_the_log_grows(
        harness: Any, served: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    client, key, front = served
    grown(client, key, 7)
    latest = harness.store.latest_checkpoint()
    signer = client.app.state.log.signer
    old = signer.sign(Checkpoint(signer.name, latest.size, latest.root, "2020-01-01T00:00:00Z").text())
    front.frozen = {"checkpoint": old}  # signed long ago, as a front that froze it then would still serve it
    state = tmp_path / "witness"
    watch = ["log", "watch", "--url", BASE, "--state", str(state)]
    assert main([*watch, "--once"]) == 0  # an idle log: its newest checkpoint rightly stops advancing
    assert "STALE" not in capsys.readouterr().err
    grown(client, key, 8)  # the log grows; the front still serves the old checkpoint
    assert main([*watch, "--once"]) == 3
    captured = capsys.readouterr()
    assert f"consistent: {latest.size} -> {latest.size}" in captured.out
    assert "STALE" in captured.err and "grown past it" in captured.err, captured.err
    assert main([*watch, "--once", "--stale-after", str(10**10)]) == 0
    assert "STALE" not in capsys.readouterr().err
    stop_after(monkeypatch, 2)
    with pytest.raises(Stop):  # looping, it warns at each look and goes on watching
        main([*watch, "--interval", "0"])
    assert capsys.readouterr().err.count("STALE") == 3
    front.frozen = None
    assert main([*watch, "--once"]) == 0  # the real, fresh checkpoint
    assert "STALE" not in capsys.readouterr().err
