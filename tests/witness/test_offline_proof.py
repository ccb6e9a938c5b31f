"""Offline proofs (c2sp.org/tlog-proof) in exported records, and `turnstile verify --policy` checking them with no
network: the leaf from the record, the log's signature, the quorum of cosignatures, the inclusion."""

from __future__ import annotations

import base64
import random
import urllib.request
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from cli import main
from ledger.tlog_proof import HEADER, ProofFileError, TlogProof, parse_proof
from service.log.transparency import Transparency
from tests.api.conftest import app_key, bearer  # noqa: F401  (the fixtures, shared)
from tests.api.http_play import create, play_moves
from tests.transparency.conftest import client  # noqa: F401
from tests.witness.witnesses import GAME, Witnesses, cosigning, tlog, witnesses  # noqa: F401

NOTE = "example.com/log\n3\n" + base64.b64encode(bytes(32)).decode() + "\n\n— example.com/log AAAA\n"


def test_a_tlog_proof_round_trips() -> None:
    proof = TlogProof(5, (bytes(32), bytes(range(32))), NOTE, extra=b"entry")
    text = proof.text()
    assert text.startswith(f"{HEADER}\nextra ZW50cnk=\nindex 5\n") and text.endswith("\n\n" + NOTE)
    assert parse_proof(text) == proof
    assert parse_proof(TlogProof(0, (), NOTE).text()) == TlogProof(0, (), NOTE)


@pytest.mark.parametrize("text", [
    "c2sp.org/tlog-proof@v2\nindex 1\n\n" + NOTE,
    f"{HEADER}\n\n" + NOTE,
    f"{HEADER}\nindex 01\n\n" + NOTE,
    f"{HEADER}\nindex 1\nnot base64!\n\n" + NOTE,
    f"{HEADER}\nindex 1\n" + base64.b64encode(bytes(31)).decode() + "\n\n" + NOTE,
    f"{HEADER}\nindex 1\n" + NOTE,
    f"{HEADER}\nindex 1\n\nexample.com/log\n3\n",
])
def test_a_text_that_is_not_a_tlog_proof_is_refused(text: str) -> None:
    with pytest.raises(ProofFileError):
        parse_proof(text)


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network: any HTTP request fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("verify --policy asked the network")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)


def finished(client: TestClient, app_key: str) -> dict[str, Any]:  # noqa: F811
    created = create(client, app_key, GAME, 2)
    play_moves(client, created, random.Random(7), 4)
    for seat in created["seats"][:1]:  # one of two resigns: the match ends
        answer = client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(seat["token"]),
                             json={"move": {"type": "match.resign"}})
        assert answer.status_code == 201, answer.text
    assert client.get(f"/v1/matches/{created['id']}").json()["status"] == "finished"
    return created


def export(client: TestClient, created: dict[str, Any], path: Path) -> Path:  # noqa: F811
    path.write_bytes(client.get(f"/v1/matches/{created['id']}/export").content)
    return path


def transparency_of(path: Path) -> dict[str, Any]:
    return msgspec.json.decode(path.read_bytes().split(b"\n", 1)[0])["transparency"]  # type: ignore[no-any-return]


def test_a_finished_matchs_export_verifies_offline_under_a_quorum_2_policy(
        client: TestClient, app_key: str, tlog: Transparency, witnesses: Witnesses, tmp_path: Path,  # noqa: F811
        offline: None, capsys: pytest.CaptureFixture[str]) -> None:
    created = finished(client, app_key)
    tlog.catch_up()
    run = cosigning(tlog, witnesses)
    witnesses.down.add("w1")
    run.round()  # w0 and w2: two of three
    record = export(client, created, tmp_path / "record.ndjson")
    proof = transparency_of(record)
    assert proof["tlog_proof"].startswith(HEADER) and proof["checkpoint"].count("\n— ") == 3  # log, w0, w2
    policy = tmp_path / "policy"
    policy.write_text(witnesses.policy_text())
    assert main(["verify", str(record), "--policy", str(policy)]) == 0
    out = capsys.readouterr().out
    assert "OK   " in out and "cosigned by the policy's quorum" in out, out
    # A policy asking for all three is not met by this proof.
    policy.write_text(witnesses.policy_text("group g all w0 w1 w2\nquorum g\n"))
    assert main(["verify", str(record), "--policy", str(policy)]) == 1
    assert "does not meet the quorum" in capsys.readouterr().out


def test_verify_policy_refuses_a_record_without_a_quorum_or_with_a_proof_altered(
        client: TestClient, app_key: str, tlog: Transparency, witnesses: Witnesses, tmp_path: Path,  # noqa: F811
        offline: None, capsys: pytest.CaptureFixture[str]) -> None:
    created = finished(client, app_key)
    tlog.catch_up()
    run = cosigning(tlog, witnesses)
    witnesses.down.update({"w0", "w1"})
    run.round()  # w2 alone: no quorum, so the record carries the signed checkpoint and no tlog-proof
    policy = tmp_path / "policy"
    policy.write_text(witnesses.policy_text())
    lone = export(client, created, tmp_path / "lone.ndjson")
    assert "tlog_proof" not in transparency_of(lone)
    assert main(["verify", str(lone), "--policy", str(policy)]) == 1
    assert "no cosigned proof" in capsys.readouterr().out

    witnesses.down.clear()
    run.round()
    record = export(client, created, tmp_path / "record.ndjson")
    header, rest = record.read_bytes().split(b"\n", 1)
    decoded = msgspec.json.decode(header)
    text = decoded["transparency"]["tlog_proof"]
    lines = text.split("\n")
    cosignatures = [line for line in lines if line.startswith("— witness.test/")]
    for altered, why in [
            (text.replace(cosignatures[0] + "\n", "").replace(cosignatures[1] + "\n", ""), "does not meet the quorum"),
            (text.replace("\nindex ", "\nindex 1"), "not in the signed tree"),
    ]:
        decoded["transparency"]["tlog_proof"] = altered
        bad = tmp_path / "bad.ndjson"
        bad.write_bytes(msgspec.json.encode(decoded) + b"\n" + rest)
        assert main(["verify", str(bad), "--policy", str(policy)]) == 1
        assert why in capsys.readouterr().out


def test_an_old_record_keeps_verifying_and_says_it_has_no_cosigned_proof(
        tmp_path: Path, offline: None, capsys: pytest.CaptureFixture[str]) -> None:
    from ledger.notes import Signer

    with_log = Path(__file__).resolve().parents[1] / "corpus" / "expect-delays.ndjson"  # written by a past release
    assert main(["verify", str(with_log)]) == 0
    policy = tmp_path / "policy"
    policy.write_text(f"log {Signer.generate('turnstile.local/log').verifier().text()}\nquorum none\n")
    capsys.readouterr()
    assert main(["verify", str(with_log), "--policy", str(policy)]) == 1
    assert "no cosigned proof" in capsys.readouterr().out


def test_a_finished_tournaments_record_verifies_offline_under_the_policy(
        tlog: Transparency, witnesses: Witnesses, tmp_path: Path, offline: None) -> None:  # noqa: F811
    import json

    from tests.transparency.test_tournament_log import exported, finished_cup

    tournament_id = finished_cup(tlog.store)
    tlog.catch_up()
    assert set(cosigning(tlog, witnesses).round().values()) == {"cosigned"}
    document = exported(tlog.store, tlog, tournament_id)
    assert document["header"]["transparency"]["tlog_proof"].startswith(HEADER)
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(document))
    policy = tmp_path / "policy"
    policy.write_text(witnesses.policy_text())
    assert main(["verify", str(path), "--policy", str(policy)]) == 0
    document["header"]["head_hash"] = "00" * 32  # another head: its leaf is not the one the proof includes
    path.write_text(json.dumps(document))
    assert main(["verify", str(path), "--policy", str(policy)]) == 1
