"""`turnstile log watch` and `turnstile verify` against a server that rolls its log back or forks it, and records
that carry the log's proof (and old ones that do not) verifying as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from cli import main
from ledger.records import encode_record, parse_record
from ledger.verify import verify_text
from service.log import log_client
from tests.adversary.test_operator_edits_the_store import sql, unlock
from tests.api.http_play import create, play_moves, play_to_end

GAME = "expect-delays"


def test_the_witness_exits_non_zero_on_a_rollback(harness: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from api.app import create_app
    from ledger.notes import Checkpoint
    from service.matches.tokens import new_secret, secret_hash

    key = new_secret("app")
    harness.store.create_app_key("t", secret_hash(key))
    over_http = "http://turnstile.test"
    with TestClient(create_app(harness.store)) as client:
        monkeypatch.setattr(log_client, "_get", lambda url, timeout_s=10.0: client.get(
            url.removeprefix(over_http)).json())
        state = tmp_path / "seen"
        created = create(client, key, GAME, 2)
        play_moves(client, created, random.Random(1), 4)
        client.app.state.log.catch_up()
        watch = ["log", "watch", "--url", over_http, "--state", str(state), "--once"]
        assert main(watch) == 0
        seen = state.read_text()
        unlock(harness, "log_checkpoints")
        newest = harness.store.latest_checkpoint()
        signer = client.app.state.log.signer
        smaller = signer.sign(Checkpoint(signer.name, newest.size - 1, newest.root, "2030-01-01T00:00:00Z").text())
        sql(harness, "DELETE FROM log_checkpoints")
        sql(harness, "INSERT INTO log_checkpoints (size, root, note, signed_at) VALUES (?, ?, ?, ?)",
            (newest.size - 1, newest.root, smaller, newest.signed_at))
        capsys.readouterr()
        assert main(watch) == 1
        assert "LOG MISBEHAVED: rollback" in capsys.readouterr().err
        assert state.read_text() == seen


def test_records_carry_the_proof_and_verify_with_and_without_a_key(client: TestClient, app_key: str, over_http: str,
                                                                  tmp_path: Path) -> None:
    created = create(client, app_key, GAME, 2, {"max_turns": 6})
    play_to_end(client, created, random.Random(2))
    before = client.get(f"/v1/matches/{created['id']}/export").content
    assert parse_record(before).header.transparency is None  # not sequenced yet: no proof, verifies as ever
    assert verify_text(before).code == "verified"
    client.app.state.log.catch_up()
    text = client.get(f"/v1/matches/{created['id']}/export").content
    record = parse_record(text)
    assert record.header.transparency is not None and encode_record(record) == text  # the header round-trips
    assert verify_text(text).code == "verified"
    path = tmp_path / "record.ndjson"
    path.write_bytes(text)
    assert main(["verify", str(path)]) == 0
    assert main(["verify", str(path), "--url", over_http]) == 0
    kept = tmp_path / "kept"
    kept.write_text(client.get("/v1/log/checkpoint").json()["checkpoint"])
    assert main(["verify", str(path), "--url", over_http, "--checkpoint", str(kept)]) == 0
    forged = text.replace(record.header.transparency.inclusion[0].encode(), b"0" * 64)
    path.write_bytes(forged)
    assert main(["verify", str(path), "--url", over_http]) == 1
    old = tmp_path / "old.ndjson"
    old.write_bytes(before)
    assert main(["verify", str(old), "--url", over_http]) == 1  # asked for a log check, it has no proof to check
