"""`POST /add-checkpoint` over HTTP (the witness's own Litestar app), every answer of c2sp.org/tlog-witness, over
SQLite and PostgreSQL state; the compare-and-swap under a race; the state across a restart."""

from __future__ import annotations

import base64
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.witness_app import create_witness_app
from ledger.cosignature import Cosigner
from ledger.merkle import root, verify_consistency
from ledger.notes import Signer
from service.witness import Witness, parse_logs
from store.witness_state import WitnessState
from tests.witness.conftest import LEAVES, ORIGIN, Log, body, proof


@pytest.fixture
def http(witness: Witness) -> Iterator[TestClient[Any]]:
    with TestClient(create_witness_app(witness)) as client:
        yield client


def post(http: TestClient[Any], data: bytes, path: str = "/add-checkpoint") -> Any:
    return http.post(path, content=data)


def test_the_proofs_made_here_verify_with_the_ledgers_verifier() -> None:
    for m in range(1, 18):
        for n in range(m, 18):
            verify_consistency(m, n, root(LEAVES[:m]), root(LEAVES[:n]), proof(m, n))


def test_200_answers_a_cosignature_that_verifies_and_moves_the_state(http: TestClient[Any], log: Log,
                                                                     cosigner: Cosigner, witness: Witness) -> None:
    note = log.note(5)
    answer = post(http, body(0, note))
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    assert answer.text.startswith("— witness.test/w1 ") and answer.text.endswith("\n")
    text, cosignature = cosigner.verifier().open(note + answer.text)  # the spec: concatenate, verify as a note
    assert text == note.rpartition("\n\n")[0] + "\n" and cosignature.timestamp > 1_700_000_000
    stored = witness.state.latest(ORIGIN)
    assert stored is not None and (stored.size, stored.root) == (5, root(LEAVES[:5]))
    assert stored.note == note + answer.text  # the cosigned checkpoint is kept whole
    for old, new in ((5, 8), (8, 8), (8, 13), (13, 64)):  # onwards with proofs, and the same checkpoint again
        answer = post(http, body(old, log.note(new)))
        assert answer.status_code == 200, answer.text
        cosigner.verifier().open(log.note(new) + answer.text)
    assert witness.state.latest(ORIGIN).size == 64  # type: ignore[union-attr]


def test_an_empty_tree_is_cosigned_then_extended_without_a_proof(http: TestClient[Any], log: Log) -> None:
    assert post(http, body(0, log.note(0))).status_code == 200
    assert post(http, body(0, log.note(3))).status_code == 200


def test_404_for_an_origin_the_witness_does_not_trust(http: TestClient[Any]) -> None:
    answer = post(http, body(0, Log("elsewhere.test/log").note(5)))
    assert answer.status_code == 404


def test_403_without_a_valid_signature_of_a_trusted_key(http: TestClient[Any], log: Log, witness: Witness) -> None:
    impostor = Log(ORIGIN)  # the same origin, another key
    assert post(http, body(0, impostor.note(5))).status_code == 403
    altered = log.note(5).replace("\n5\n", "\n6\n", 1)  # the trusted key's signature no longer verifies
    assert post(http, body(0, altered)).status_code == 403
    # A trusted signature beside a failing one of a trusted key: the note is refused (signed-note's SHOULD).
    other = Signer(log.signer.name, log.signer.seed)
    good = log.note(5)
    bad_line = other.sign(log.note(6).rpartition("\n\n")[0] + "\n").rpartition("\n\n")[2]
    assert post(http, body(0, good + bad_line)).status_code == 403
    assert witness.state.latest(ORIGIN) is None


def test_unknown_signatures_are_ignored(http: TestClient[Any], log: Log) -> None:
    foreign = Signer.generate("someone.else/key").sign(log.note(5).rpartition("\n\n")[0] + "\n")
    note = log.note(5) + foreign.rpartition("\n\n")[2]
    assert post(http, body(0, note)).status_code == 200


def test_400_when_old_is_above_the_checkpoints_size(http: TestClient[Any], log: Log) -> None:
    assert post(http, body(0, log.note(5))).status_code == 200
    answer = post(http, body(6, log.note(5), hashes=[]))
    assert answer.status_code == 400 and "above" in answer.text


@pytest.mark.parametrize("data", [
    b"", b"old 0\n", b"old 0", b"new 0\n\nx\n", b"old 00\n\n", b"old -1\n\n", b"old 0x1\n\n", b"old  0\n\n",
    b"old 0\nnot base64!\n\n", b"old 0\nAAAA\n\n", b"\xff\xfe", b"old 0\n\nplain text, no signature\n",
    b"old 0\n\norigin\n5\nnot-a-root\n\n\xe2\x80\x94 origin AAAA\n", b"old 0\r\n\r\n",
    b"old 99999999999999999999\n\n",
])
def test_400_for_malformed_bodies(http: TestClient[Any], data: bytes) -> None:
    assert post(http, data).status_code == 400


def test_400_for_more_than_63_proof_lines(http: TestClient[Any], log: Log) -> None:
    assert post(http, body(0, log.note(5), hashes=[bytes(32)] * 64)).status_code == 400


def test_409_says_the_size_last_cosigned(http: TestClient[Any], log: Log, witness: Witness) -> None:
    answer = post(http, body(3, log.note(5)))  # never cosigned: the size is 0
    assert answer.status_code == 409 and answer.headers["content-type"] == "text/x.tlog.size"
    assert answer.content == b"0\n"
    assert post(http, body(0, log.note(5))).status_code == 200
    for old in (0, 3, 4):  # a log that lost track asks with old 0 and learns 5
        answer = post(http, body(old, log.note(8)))
        assert (answer.status_code, answer.headers["content-type"], answer.content) == (
            409, "text/x.tlog.size", b"5\n")
    assert witness.state.latest(ORIGIN).size == 5  # type: ignore[union-attr]


def test_409_for_the_same_size_with_another_root(http: TestClient[Any], log: Log, witness: Witness) -> None:
    """The spec: old = checkpoint size = size last cosigned, root hashes differ: 409 (a fork; not a size answer)."""
    assert post(http, body(0, log.note(5))).status_code == 200
    answer = post(http, body(5, log.note(5, root_hash=bytes(32))))
    assert answer.status_code == 409 and not answer.headers["content-type"].startswith("text/x.tlog.size")
    assert witness.state.latest(ORIGIN).root == root(LEAVES[:5])  # type: ignore[union-attr]


def test_422_for_a_consistency_proof_that_does_not_verify(http: TestClient[Any], log: Log, witness: Witness) -> None:
    assert post(http, body(0, log.note(5))).status_code == 200
    bad = proof(5, 8)
    bad[0] = bytes(32)
    assert post(http, body(5, log.note(8), hashes=bad)).status_code == 422
    assert post(http, body(5, log.note(8), hashes=[])).status_code == 422  # no proof at all
    assert post(http, body(5, log.note(8), hashes=proof(5, 8) + [bytes(32)])).status_code == 422  # too long
    forked = [leaf_ for leaf_ in LEAVES[:8]]
    forked[6] = bytes(32)  # a tree of 8 that is not an extension of the 5 cosigned
    assert post(http, body(5, log.note(8, root_hash=root(forked)))).status_code == 422
    assert post(http, body(5, log.note(5), hashes=[bytes(32)])).status_code == 422  # equal sizes: empty proof
    assert witness.state.latest(ORIGIN).size == 5  # type: ignore[union-attr]


def test_422_for_a_proof_from_size_0_or_a_non_empty_empty_tree(http: TestClient[Any], log: Log) -> None:
    assert post(http, body(0, log.note(5), hashes=[bytes(32)])).status_code == 422
    assert post(http, body(0, log.note(0, root_hash=bytes(32)))).status_code == 422


def test_the_prefix_is_the_routes(witness: Witness, log: Log) -> None:
    with TestClient(create_witness_app(witness, "/w/sub/")) as client:
        assert post(client, body(0, log.note(5)), "/w/sub/add-checkpoint").status_code == 200
        assert post(client, body(5, log.note(6)), "/add-checkpoint").status_code == 404
        assert client.get("/w/sub/add-checkpoint").status_code == 405


def race(witness: Witness, log: Log, base: int, sizes: tuple[int, int]) -> dict[int, Any]:
    """Two add-checkpoint requests from `base` to each of `sizes`, in two threads, each reading the state only once
    the other has read it too (so both pass every check before either writes)."""
    both_read = threading.Barrier(2)
    reads = threading.local()
    latest = witness.state.latest

    def read_then_wait(origin: str) -> Any:
        seen = latest(origin)
        if not getattr(reads, "done", False):  # the first read of each request: wait for the other's
            reads.done = True
            both_read.wait(timeout=10)
        return seen

    answers: dict[int, Any] = {}

    def submit(size: int) -> None:
        answers[size] = witness.add_checkpoint(body(base, log.note(size)))

    witness.state.latest = read_then_wait  # type: ignore[method-assign]
    try:
        threads = [threading.Thread(target=submit, args=(size,)) for size in sizes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        witness.state.latest = latest  # type: ignore[method-assign]
    return answers


def test_two_racing_requests_never_roll_the_state_back(witness: Witness, log: Log) -> None:
    """Both read the same size, then both try to store theirs: the compare-and-swap lets one through; the other is
    told the winner's size, whichever order they write in, and the state never goes back."""
    assert witness.add_checkpoint(body(0, log.note(5))).status == 200
    for round_ in range(4):
        base = witness.state.latest(ORIGIN).size  # type: ignore[union-attr]
        answers = race(witness, log, base, (base + 3, base + 7))
        statuses = sorted(answer.status for answer in answers.values())
        assert statuses == [200, 409], (round_, answers)
        winner = next(size for size, answer in answers.items() if answer.status == 200)
        loser = next(answer for answer in answers.values() if answer.status == 409)
        assert loser.content_type == "text/x.tlog.size" and loser.body == f"{winner}\n"
        assert witness.state.latest(ORIGIN).size == winner  # type: ignore[union-attr]


def test_the_state_swaps_only_from_what_was_read(state_url: str) -> None:
    from store.witness_state import Cosigned

    state = WitnessState(state_url)
    first = Cosigned(5, b"r" * 32, "note", 1)
    assert state.advance("o", None, first)
    assert not state.advance("o", None, Cosigned(3, b"s" * 32, "note", 2))  # a second "first"
    assert state.advance("o", first, Cosigned(9, b"t" * 32, "note", 3))
    assert not state.advance("o", first, Cosigned(7, b"u" * 32, "note", 4))  # read before the 9: refused
    assert state.latest("o") == Cosigned(9, b"t" * 32, "note", 3)


def test_the_state_survives_a_restart(state_url: str, cosigner: Cosigner, log: Log) -> None:
    trusted = {ORIGIN: [log.signer.verifier()]}
    with TestClient(create_witness_app(Witness(cosigner, trusted, WitnessState(state_url)))) as client:
        assert post(client, body(0, log.note(5))).status_code == 200
        assert post(client, body(5, log.note(9))).status_code == 200
    # A new process: a new app and witness on the same state.
    with TestClient(create_witness_app(Witness(cosigner, trusted, WitnessState(state_url)))) as client:
        answer = post(client, body(0, log.note(12)))
        assert (answer.status_code, answer.content) == (409, b"9\n")
        assert post(client, body(9, log.note(12))).status_code == 200


def test_the_logs_file() -> None:
    a, b = Signer.generate("a.test/log"), Signer.generate("b.test/log")
    logs = parse_logs(f"# trusted logs\n\na.test/log {a.verifier().text()}\n"
                      f"  b.test/log   {b.verifier().text()}  \nb.test/log {a.verifier().text()}\n")
    assert logs == {"a.test/log": [a.verifier()], "b.test/log": [b.verifier(), a.verifier()]}
    for bad in ("a.test/log", f"a.test/log {a.verifier().text()} extra", "a.test/log not-a-key"):
        with pytest.raises(ValueError, match="line 1"):
            parse_logs(bad)
    assert base64  # (imported for the bodies' sake elsewhere)
