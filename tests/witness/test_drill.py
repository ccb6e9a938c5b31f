"""The drill (issue 40): a log, three witnesses and a `quorum 2` policy. A fork, a rollback (the database restored
from a backup) and a freeze are each refused by the witnesses that saw the truth, never reach the quorum, and are
rejected by `turnstile verify --policy`; a witness restarted keeps its state; a log short of its quorum still takes
moves and says so. One SQLite log (its file is what a backup copies), run once."""

from __future__ import annotations

import base64
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from cli import main
from ledger.notes import Checkpoint, Signer
from ledger.tlog_proof import TlogProof, parse_proof
from service.log import log_client
from service.log.cosigning import Cosigning, Witnessed
from service.log.transparency import Transparency
from service.matches.tokens import new_secret, secret_hash
from store.factory import open_store
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves
from tests.witness.witnesses import GAME, Witnesses

BASE = "http://turnstile.test"


@dataclass
class Log:
    """The log under drill: its app over a SQLite file, its key, and its collector of cosignatures."""

    path: Path
    signer: Signer
    witnesses: Witnesses
    client: TestClient | None = None
    store: Any = None
    key: str = ""
    frozen: str | None = None  # a front serving this checkpoint note instead of the newest
    cosigning: Cosigning | None = None  # the collector of this process

    def start(self) -> None:
        self.store = open_store(f"sqlite:///{self.path}")
        log = Transparency(self.store, self.signer, min_interval_s=0)
        # No grace: a signed checkpoint newer than the cosigned one is a quorum not met.
        log.witnessed = Witnessed(self.store, self.witnesses.policy(), stale_s=0)
        self.client = TestClient(create_app(self.store, log=log))
        self.client.__enter__()
        self.cosigning = Cosigning(self.store, log.consistency, log.witnessed.policy, post=self.witnesses.post)
        self.cosigning.holder = "the drill's log"  # restarted, it takes its own lease back at once
        self.key = new_secret("app")
        self.store.create_app_key("drill", secret_hash(self.key))

    def stop(self) -> None:
        assert self.client is not None
        self.client.__exit__(None, None, None)
        self.store.close()

    @property
    def log(self) -> Transparency:
        assert self.client is not None
        return self.client.app.state.log  # type: ignore[no-any-return]

    def cosign(self) -> dict[str, str]:
        """One round of the collector."""
        assert self.cosigning is not None
        return self.cosigning.round()

    def grow(self, seed: int) -> dict[str, Any]:
        assert self.client is not None
        created = create(self.client, self.key, GAME, 2)
        play_moves(self.client, created, random.Random(seed), 3)
        answer = self.client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(created["seats"][0]["token"]),
                                  json={"move": {"type": "match.resign"}})
        assert answer.status_code == 201, answer.text  # moves never wait for witnesses
        self.log.catch_up()
        return created

    def export(self, created: dict[str, Any], path: Path) -> Path:
        assert self.client is not None
        path.write_bytes(self.client.get(f"/v1/matches/{created['id']}/export").content)
        return path

    def fetch(self, url: str, timeout_s: float = 10.0) -> Any:
        """The log's HTTP endpoints as `turnstile verify --url` reads them (a frozen front serves `frozen`)."""
        assert self.client is not None
        path = url.removeprefix(BASE)
        if path == "/v1/log/checkpoint" and self.frozen is not None:
            return {"checkpoint": self.frozen}
        answer = self.client.get(path)
        if answer.status_code != 200:
            raise log_client.Refused(url, answer.status_code, answer.json().get("code"))
        return answer.json()


@pytest.fixture
def drill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Log]:
    signer = Signer.generate("turnstile.test/log")
    witnesses = Witnesses(signer.verifier(), tmp_path)
    made = Log(tmp_path / "log.db", signer, witnesses)
    made.start()
    monkeypatch.setattr(log_client, "_get", made.fetch)
    (tmp_path / "policy").write_text(witnesses.policy_text())
    yield made
    made.stop()
    witnesses.close()


def backup(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database (the online backup API)."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def verify(*args: str) -> int:
    return main(["verify", *args])


def forged(record: Path, note: str, tmp_path: Path) -> Path:
    """The record with its tlog-proof's checkpoint replaced by `note` (what an operator would hand out)."""
    header, rest = record.read_bytes().split(b"\n", 1)
    decoded = msgspec.json.decode(header)
    proof = parse_proof(decoded["transparency"]["tlog_proof"])
    decoded["transparency"]["tlog_proof"] = TlogProof(proof.index, proof.hashes, note).text()
    out = tmp_path / "forged.ndjson"
    out.write_bytes(msgspec.json.encode(decoded) + b"\n" + rest)
    return out


def test_the_drill(drill: Log, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = str(tmp_path / "policy")
    w = drill.witnesses
    first = drill.grow(1)
    assert set(drill.cosign().values()) == {"cosigned"}
    honest = drill.export(first, tmp_path / "first.ndjson")
    assert verify(str(honest), "--policy", policy) == 0
    size = drill.log.checkpoint().size

    # ---- a fork: two checkpoints of one size with different roots, each shown to a different witness ----------
    second = drill.grow(2)
    grown = drill.log.checkpoint()
    fork_text = Checkpoint(drill.signer.name, grown.size, bytes(32), "2030-01-01T00:00:00Z").text()
    fork = drill.signer.sign(fork_text)  # the operator's key signs it: only witnesses can tell
    proof = drill.log.consistency(size, grown.size)  # the true proof: it does not lead to the fork's root
    body = (f"old {size}\n" + "".join(base64.b64encode(h).decode() + "\n" for h in proof) + "\n" + fork).encode()
    assert w.clients["w2"].post("/add-checkpoint", content=body).status_code == 422  # refused: not consistent
    w.restart(0)  # a witness killed and restarted keeps its state: it still refuses what does not extend it
    assert w.clients["w0"].post("/add-checkpoint", content=body).status_code == 422
    assert drill.cosign() == {"w0": "cosigned", "w1": "cosigned", "w2": "cosigned"}  # the truth is cosigned
    fork_by_w2 = w.clients["w2"].post("/add-checkpoint", content=(
        f"old {grown.size}\n\n" + fork).encode())
    assert fork_by_w2.status_code == 409  # same size, another root: refused by a witness that saw the truth
    record = drill.export(second, tmp_path / "second.ndjson")
    assert verify(str(record), "--policy", policy) == 0
    capsys.readouterr()
    assert verify(str(forged(record, fork, tmp_path)), "--policy", policy) == 1  # the fork has no cosignature
    assert "does not meet the quorum" in capsys.readouterr().out

    # ---- a freeze: a front serving an older cosigned checkpoint while the log grows ------------------------------
    kept = tmp_path / "kept"
    kept.write_text(drill.client.get("/v1/log/checkpoint").json()["checkpoint"])  # type: ignore[union-attr]
    drill.frozen = msgspec.json.decode(honest.read_bytes().split(b"\n", 1)[0])["transparency"]["checkpoint"]
    assert w.clients["w1"].post("/add-checkpoint", content=(f"old {grown.size}\n\n{drill.frozen}").encode()
                                ).status_code == 400  # the witness will not go back to it
    assert w.clients["w1"].post("/add-checkpoint", content=(f"old {size}\n\n{drill.frozen}").encode()
                                ).text.strip() == str(grown.size)  # 409: it last cosigned the newer one
    assert verify(str(honest), "--policy", policy, "--url", BASE, "--checkpoint", str(kept)) == 1
    assert "rollback" in capsys.readouterr().out
    drill.frozen = None
    assert verify(str(honest), "--policy", policy, "--url", BASE, "--checkpoint", str(kept)) == 0

    # ---- a rollback: the database restored from a backup, then grown with another history ----------------------
    backup(drill.path, tmp_path / "backup.db")  # taken now: the witnesses go on to cosign past it
    drill.grow(3)
    assert set(drill.cosign().values()) == {"cosigned"}
    cosigned_size = drill.log.checkpoint().size
    drill.stop()
    backup(tmp_path / "backup.db", drill.path)
    drill.start()
    assert drill.log.checkpoint().size < cosigned_size
    other = drill.grow(4)
    drill.grow(5)
    drill.grow(6)
    assert drill.log.checkpoint().size > cosigned_size  # a longer, other history
    assert set(drill.cosign().values()) == {"fork"}  # each witness re-syncs (409) and refuses the proof (422)
    assert drill.cosign() == {"w0": "idle", "w1": "idle", "w2": "idle"}  # held: not retried blindly
    forked_record = drill.export(other, tmp_path / "other.ndjson")
    capsys.readouterr()
    assert verify(str(forked_record), "--policy", policy) == 1  # no cosigned checkpoint holds it
    assert "no cosigned proof" in capsys.readouterr().out
    assert drill.client.get("/readyz").json()["witness_quorum"] == "not-met"  # type: ignore[union-attr]

    # ---- short of a quorum the log still takes moves and says so ----------------------------------------------
    w.down.update({"w0", "w1"})
    drill.grow(7)
    ready = drill.client.get("/readyz")  # type: ignore[union-attr]
    assert ready.status_code == 200 and ready.json()["witness_quorum"] == "not-met"
    assert "turnstile_witness_quorum_met 0.0" in drill.client.get("/metrics").text  # type: ignore[union-attr]
