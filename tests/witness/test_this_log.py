"""The witness cosigning this project's own log: checkpoints and consistency proofs as the API serves them."""

from __future__ import annotations

import base64
import random
from pathlib import Path

from litestar.testing import TestClient

from api.witness_app import create_witness_app
from ledger.cosignature import Cosigner
from ledger.notes import TreeHead, Verifier, split_note
from service.witness import Witness, parse_logs
from store.witness_state import WitnessState
from tests.api.conftest import app_key  # noqa: F401  (the fixtures, shared)
from tests.api.http_play import create, play_moves
from tests.transparency.conftest import client  # noqa: F401

GAME = "expect-delays"


def test_the_witness_cosigns_this_logs_checkpoints(client: TestClient, app_key: str,  # noqa: F811
                                                   tmp_path: Path) -> None:
    log = client.app.state.log
    log.min_interval_s = 0  # a checkpoint at every catch-up
    created = create(client, app_key, GAME, 2)
    play_moves(client, created, random.Random(3), 3)
    log.catch_up()
    key = client.get("/v1/log/key").json()["verifier_key"]
    first = client.get("/v1/log/checkpoint").json()
    # The log's checkpoint is a tlog-checkpoint: origin = the key's name, size, root, one extension line (the time).
    text, lines = split_note(first["checkpoint"])
    head = TreeHead.parse(text)
    assert (head.origin, head.size, head.root.hex()) == (first["origin"], first["tree_size"], first["root_hash"])
    assert head.extensions == (first["signed_at"],) and [name for name, _ in lines] == [head.origin]
    assert Verifier.parse(key).open(first["checkpoint"]) == text

    cosigner = Cosigner.generate("witness.test/w1")
    trusted = parse_logs(f"# this log\n{head.origin} {key}\n")
    witness = Witness(cosigner, trusted, WitnessState(f"sqlite:///{tmp_path / 'w.db'}"))
    with TestClient(create_witness_app(witness)) as w:
        answer = w.post("/add-checkpoint", content=f"old 0\n\n{first['checkpoint']}".encode())
        assert answer.status_code == 200, answer.text
        assert cosigner.verifier().open(first["checkpoint"] + answer.text)[0] == text

        play_moves(client, created, random.Random(4), 4)
        log.catch_up()
        second = client.get("/v1/log/checkpoint").json()
        assert second["tree_size"] > first["tree_size"]
        proof = client.get(f"/v1/log/proofs/consistency?from={first['tree_size']}&to={second['tree_size']}").json()
        lines_ = "".join(base64.b64encode(bytes.fromhex(h)).decode() + "\n" for h in proof["proof"])
        request = f"old {first['tree_size']}\n{lines_}\n{second['checkpoint']}"
        answer = w.post("/add-checkpoint", content=request.encode())
        assert answer.status_code == 200, answer.text
        cosigned = second["checkpoint"] + answer.text
        assert Verifier.parse(key).open(cosigned) == cosigner.verifier().open(cosigned)[0]  # both verify together
