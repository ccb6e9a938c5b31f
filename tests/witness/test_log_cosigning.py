"""The log collects its witnesses' cosignatures (service/log/cosigning.py) over each store: proofs from the size each
last cosigned, 409 re-syncs, refusals raise the alarm once, and GET /v1/log/checkpoint, /readyz and /metrics say
what the quorum is."""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from ledger.notes import Checkpoint
from service.log.cosigning import http_post
from service.log.transparency import Transparency
from service.ops import metrics
from tests.api.conftest import app_key  # noqa: F401  (the fixtures, shared)
from tests.transparency.conftest import client  # noqa: F401
from tests.witness.witnesses import Witnesses, cosigning, grow, tlog, witnesses  # noqa: F401


def alarms(witness: str, reason: str) -> float:
    return metrics.WITNESS_ALARMS.labels(witness, reason)._value.get()  # type: ignore[no-any-return]


def test_the_quorum_cosigns_each_new_checkpoint_from_the_size_each_witness_last_cosigned(
        client: TestClient, app_key: str, tlog: Transparency, witnesses: Witnesses) -> None:  # noqa: F811
    first = grow(client, app_key, tlog, 1)
    run = cosigning(tlog, witnesses)
    assert run.round() == {"w0": "cosigned", "w1": "cosigned", "w2": "cosigned"}
    assert tlog.store.witness_sizes() == {"w0": first, "w1": first, "w2": first}
    served = client.get("/v1/log/checkpoint").json()
    assert served["tree_size"] == first
    assert tlog.witnessed is not None
    assert tlog.witnessed.policy.check(served["checkpoint"]).witnesses == {"w0", "w1", "w2"}
    assert client.get("/v1/log/tiles/checkpoint").text == served["checkpoint"]  # a tile client sees the same
    assert run.round() == {"w0": "idle", "w1": "idle", "w2": "idle"}  # nothing new: nothing sent

    second = grow(client, app_key, tlog, 2)
    assert second > first
    witnesses.requests.clear()
    assert set(run.round().values()) == {"cosigned"}  # each witness checked the proof from `first` (else 422)
    assert [status for _, status in witnesses.requests] == [200, 200, 200]
    assert client.get("/v1/log/checkpoint").json()["tree_size"] == second
    ready = client.get("/readyz").json()
    assert (ready["status"], ready["witness_quorum"], ready["cosigned_size"], ready["cosigned_behind"]) == (
        "ready", "met", second, 0)
    scraped = client.get("/metrics").text
    assert "turnstile_witness_quorum_met 1.0" in scraped and f"turnstile_log_cosigned_size {second}.0" in scraped


def test_a_409_re_syncs_to_the_size_the_witness_says(client: TestClient, app_key: str, tlog: Transparency,  # noqa: F811
                                                     witnesses: Witnesses) -> None:  # noqa: F811
    first = grow(client, app_key, tlog, 1)
    run = cosigning(tlog, witnesses)
    run.round()
    second = grow(client, app_key, tlog, 2)
    tlog.store.set_witness_size("w1", 1)  # the log forgot what w1 cosigned (say, its row restored from a backup)
    witnesses.requests.clear()
    assert run.round()["w1"] == "cosigned"
    assert [s for name, s in witnesses.requests if name == "w1"] == [409, 200]  # told `first`, then asked from it
    assert tlog.store.witness_sizes()["w1"] == second > first


def test_a_witness_that_saw_another_history_is_an_alarm_and_is_held(
        client: TestClient, app_key: str, tlog: Transparency, witnesses: Witnesses) -> None:  # noqa: F811
    size = grow(client, app_key, tlog, 1)
    assert tlog.signer is not None
    # w2 cosigned a fork of this very size first (another root, signed by the log's key, shown only to it).
    fork = tlog.signer.sign(Checkpoint(tlog.signer.name, size, bytes(32), "2030-01-01T00:00:00Z").text())
    from tests.witness.conftest import body

    assert witnesses.clients["w2"].post("/add-checkpoint", content=body(0, fork, [])).status_code == 200
    run = cosigning(tlog, witnesses)
    before = alarms("w2", "fork")
    outcomes = run.round()
    assert outcomes == {"w0": "cosigned", "w1": "cosigned", "w2": "fork"}
    assert alarms("w2", "fork") == before + 1
    witnesses.requests.clear()
    assert run.round()["w2"] == "idle" and not [n for n, _ in witnesses.requests if n == "w2"]  # held, not retried
    grow(client, app_key, tlog, 2)
    assert run.round()["w2"] == "fork" and alarms("w2", "fork") == before + 2  # a new checkpoint is tried once
    assert client.get("/readyz").json()["witness_quorum"] == "met"  # w0 and w1 still make the quorum


def test_without_a_quorum_moves_go_on_and_readiness_and_metrics_say_so(
        client: TestClient, app_key: str, tlog: Transparency, witnesses: Witnesses) -> None:  # noqa: F811
    grow(client, app_key, tlog, 1)
    run = cosigning(tlog, witnesses)
    witnesses.down.update({"w0", "w1"})
    assert run.round() == {"w0": "down", "w1": "down", "w2": "cosigned"}
    for path in ("/v1/log/checkpoint", "/v1/log/tiles/checkpoint"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json()["code"] == "log-not-cosigned"
    size = grow(client, app_key, tlog, 2)  # moves are taken all the same
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert (ready.json()["witness_quorum"], ready.json()["cosigned_behind"]) == ("not-met", size)
    assert "turnstile_witness_quorum_met 0.0" in client.get("/metrics").text
    witnesses.down.clear()
    run.round()
    assert client.get("/v1/log/checkpoint").json()["tree_size"] == size


def test_without_a_policy_the_checkpoint_is_as_before(client: TestClient, app_key: str,  # noqa: F811
                                                      tlog: Transparency) -> None:  # noqa: F811
    size = grow(client, app_key, tlog, 1)
    served = client.get("/v1/log/checkpoint").json()
    assert served["tree_size"] == size and served["checkpoint"] == tlog.checkpoint().note
    assert "witness_quorum" not in client.get("/readyz").json()


def test_a_witness_down_or_hung_costs_a_timeout_and_holds_no_other(
        tlog: Transparency, tmp_path: Path, client: TestClient, app_key: str) -> None:  # noqa: F811
    grow(client, app_key, tlog, 1)
    refused = socket.socket()
    refused.bind(("127.0.0.1", 0))
    down_port = refused.getsockname()[1]
    refused.close()  # nothing listens there: connection refused
    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(8)  # accepts connections (the kernel's backlog) and never answers
    try:
        witnesses = Witnesses(tlog.verifier, tmp_path)
        ports = {"w0": down_port, "w1": hung.getsockname()[1]}

        def post(url: str, body: bytes, timeout_s: float) -> object:
            name = url.split("//", 1)[1].split(".", 1)[0]
            if name in ports:
                return http_post(f"http://127.0.0.1:{ports[name]}/add-checkpoint", body, timeout_s)
            return witnesses.post(url, body, timeout_s)

        run = cosigning(tlog, witnesses)
        run.post = post  # type: ignore[assignment]
        run.timeout_s = 0.3
        done: dict[str, str] = {}
        thread = threading.Thread(target=lambda: done.update(run.round()))
        thread.start()
        thread.join(timeout=30)
        assert done == {"w0": "down", "w1": "hung", "w2": "cosigned"}
        witnesses.close()
    finally:
        hung.close()


def test_the_api_process_collects_cosignatures_when_a_policy_is_set(tmp_path: Path) -> None:
    from ledger.notes import Signer
    from service.log.cosigning import PolicyFileError
    from service.log.transparency import write_key
    from service.runtime import Runtime
    from settings import Settings

    key = Signer.generate("turnstile.test/log")
    write_key(tmp_path / "tlog.key", key)
    made = Witnesses(key.verifier(), tmp_path)
    policy = tmp_path / "policy"
    policy.write_text(made.policy_text())
    settings = Settings(database_url=f"sqlite:///{tmp_path / 's.db'}", log_key=str(tmp_path / "tlog.key"),
                        witness_policy=str(policy))
    runtime = Runtime.open(settings, "api")
    try:
        assert "cosigning" in runtime.opened and runtime.log.witnessed is not None
    finally:
        runtime.close()
    other = tmp_path / "other"
    other.write_text(f"log {Signer.generate('elsewhere/log').verifier().text()}\nquorum none\n")  # not this log
    for bad in (other, tmp_path / "missing"):
        with pytest.raises(PolicyFileError):
            Runtime.open(Settings(database_url=settings.database_url, log_key=settings.log_key,
                                  witness_policy=str(bad)), "api")
    made.close()


def test_the_newest_quorum_is_found_behind_pages_of_checkpoints_short_of_it(
        client: TestClient, app_key: str, tlog: Transparency, witnesses: Witnesses,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    from service.log import cosigning as module

    monkeypatch.setattr(module, "PAGE", 2)
    first = grow(client, app_key, tlog, 1)
    run = cosigning(tlog, witnesses)
    run.round()
    witnesses.down.update({"w0", "w1"})
    for seed in range(2, 7):  # five newer checkpoints, each cosigned by w2 alone
        grow(client, app_key, tlog, seed)
        run.round()
    assert len(tlog.store.cosigned_checkpoints(16)) == 6
    assert tlog.witnessed is not None
    tlog.witnessed = module.Witnessed(tlog.store, tlog.witnessed.policy)  # a new process: nothing remembered
    assert client.get("/v1/log/checkpoint").json()["tree_size"] == first
    witnesses.down.clear()
    newest = grow(client, app_key, tlog, 9)
    run.round()
    assert client.get("/v1/log/checkpoint").json()["tree_size"] == newest


def test_one_process_at_a_time_collects_and_another_takes_over_a_lapsed_lease(
        client: TestClient, app_key: str, tlog: Transparency, witnesses: Witnesses) -> None:  # noqa: F811
    grow(client, app_key, tlog, 1)
    now = [1000.0]
    first, second = cosigning(tlog, witnesses), cosigning(tlog, witnesses)
    first.clock = second.clock = lambda: now[0]
    first.lease_s = second.lease_s = 25.0
    assert set(first.round().values()) == {"cosigned"}
    witnesses.requests.clear()
    grow(client, app_key, tlog, 2)
    now[0] += 20
    assert second.round() == {} and not witnesses.requests  # the first holds the lease: the second sends nothing
    assert set(first.round().values()) == {"cosigned"}  # renewed until 1045
    now[0] += 24
    assert second.round() == {}
    now[0] += 2  # the first stopped renewing (its process died): the lease lapses
    grow(client, app_key, tlog, 3)
    assert set(second.round().values()) == {"cosigned"}
    assert first.round() == {}


def test_serve_refuses_a_bad_policy_in_one_line_before_any_worker_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    import cli

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: ran.append(args))
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", f"sqlite:///{tmp_path / 'serve.db'}")
    policy = tmp_path / "policy"
    policy.write_text("log not-a-key\nquorum none\n")
    monkeypatch.setenv("TURNSTILE_WITNESS_POLICY", str(policy))
    assert cli.main(["serve"]) == 2 and ran == []
    err = capsys.readouterr().err
    assert "line 1" in err and len(err.strip().splitlines()) == 1, err
    policy.write_text("quorum none\n")
    assert cli.main(["serve"]) == 2 and "names no log" in capsys.readouterr().err
