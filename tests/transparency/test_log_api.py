"""The log over HTTP: checkpoints signed with the published key, proofs that verify, stable codes for bad asks, and
a private match's events proven only to those who may read it."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from litestar.testing import TestClient

from ledger.merkle import event_leaf, leaf_hash, verify_consistency, verify_inclusion
from ledger.notes import Verifier, open_checkpoint
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves

GAME = "expect-delays"


def sequence(client: TestClient) -> int:
    return client.app.state.log.catch_up()


def checkpoint(client: TestClient) -> tuple[dict[str, Any], Any]:
    answer = client.get("/v1/log/checkpoint")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    verifier = Verifier.parse(client.get("/v1/log/key").json()["verifier_key"])
    return body, open_checkpoint(body["checkpoint"], verifier)


def test_checkpoints_are_signed_and_proofs_verify(client: TestClient, app_key: str) -> None:
    assert client.get("/v1/log/checkpoint").json()["code"] == "log-not-signed"
    created = create(client, app_key, GAME, 2)
    play_moves(client, created, random.Random(1), 5)
    size = sequence(client)
    body, first = checkpoint(client)
    assert (first.size, first.root.hex()) == (size, body["root_hash"]) == (body["tree_size"], body["root_hash"])
    key = client.get("/v1/log/key").json()
    assert key["key_id"] == Verifier.parse(key["verifier_key"]).key_id and key["algorithm"] == "ed25519"
    match_id = created["id"]
    events = client.get(f"/v1/matches/{match_id}/events").json()["items"]
    for event in events:
        proof = client.get("/v1/log/proofs/inclusion", params={"match_id": match_id, "version": event["version"]})
        assert proof.status_code == 200, proof.text
        got = proof.json()
        leaf = leaf_hash(event_leaf(match_id, event["version"], event["hash"]))
        assert got["leaf_hash"] == leaf.hex() and got["tree_size"] == first.size
        verify_inclusion(got["leaf_index"], got["tree_size"], leaf, [bytes.fromhex(h) for h in got["audit_path"]],
                         first.root)
    other = create(client, app_key, GAME, 2)
    play_moves(client, other, random.Random(2), 4)
    client.app.state.log.clock = lambda: datetime(2100, 1, 1, tzinfo=UTC)  # later: the next checkpoint is due
    sequence(client)
    _, second = checkpoint(client)
    assert second.size > first.size
    proof = client.get("/v1/log/proofs/consistency", params={"from": first.size, "to": second.size}).json()
    verify_consistency(first.size, second.size, first.root, second.root, [bytes.fromhex(h) for h in proof["proof"]])


def test_bad_asks_have_stable_codes(client: TestClient, app_key: str) -> None:
    created = create(client, app_key, GAME, 2)
    size = sequence(client)
    cases = [
        ("/v1/log/proofs/consistency", {"from": size, "to": size + 1}, 404, "beyond-tree"),
        ("/v1/log/proofs/consistency", {"from": 2, "to": 1}, 422, "bad-proof-range"),
        ("/v1/log/proofs/consistency", {"from": 0, "to": 1}, 400, "invalid-request"),
        ("/v1/log/proofs/inclusion", {"match_id": created["id"], "version": 1, "size": size + 5}, 404, "beyond-tree"),
        ("/v1/log/proofs/inclusion", {"match_id": created["id"], "version": 999}, 404, "unknown-version"),
        ("/v1/log/proofs/inclusion", {"match_id": created["id"], "version": created["version"] + 1}, 404,
         "unknown-version"),
        ("/v1/log/proofs/inclusion", {"match_id": "nope", "version": 1}, 404, "unknown-match"),
    ]
    for path, params, status, code in cases:
        answer = client.get(path, params=params)
        assert (answer.status_code, answer.json()["code"]) == (status, code), (params, answer.text)
    assert client.get("/v1/log/proofs/consistency", params={"from": size, "to": size}).json()["proof"] == []


def test_a_version_the_match_never_reached_is_unknown_and_an_unsequenced_event_is_not_sequenced_yet(
        client: TestClient, app_key: str) -> None:
    """Found: a version past the match's head answered `not-sequenced` ("sequenced within about a second"), inviting
    a retry that can never succeed. An event appended after the last sequencing keeps `not-sequenced`, until it is."""
    created = create(client, app_key, GAME, 2)
    sequence(client)
    play_moves(client, created, random.Random(3), 1)
    head = client.get(f"/v1/matches/{created['id']}").json()["version"]
    assert head > created["version"]

    def ask(version: int, **size: int) -> tuple[int, str | None]:
        answer = client.get("/v1/log/proofs/inclusion", params={"match_id": created["id"], "version": version, **size})
        return answer.status_code, answer.json().get("code")

    assert ask(head) == (404, "not-sequenced")
    unknown = client.get("/v1/log/proofs/inclusion", params={"match_id": created["id"], "version": head + 1}).json()
    assert (unknown["code"], unknown["current_version"]) == ("unknown-version", head)
    size = sequence(client)  # the checkpoint is signed at most once a second: ask of the tree's size
    assert ask(head, size=size)[0] == 200
    assert ask(head + 1, size=size) == (404, "unknown-version")


def test_a_private_matchs_events_are_proven_only_to_its_readers(client: TestClient, app_key: str) -> None:
    body = {"game": GAME, "seats": [{"player": "ann"}, {"player": "bob"}], "visibility": "private"}
    created = client.post("/v1/matches", json=body, headers=bearer(app_key)).json()
    sequence(client)
    params = {"match_id": created["id"], "version": 1}
    assert client.get("/v1/log/proofs/inclusion", params=params).json()["code"] == "unknown-match"
    for secret in (app_key, created["seats"][1]["token"]):
        answer = client.get("/v1/log/proofs/inclusion", params=params, headers=bearer(secret))
        assert answer.status_code == 200, answer.text
