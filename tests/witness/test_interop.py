"""Cosignatures checked by code this project did not write: aics-tlog (PyPI; an independent Python implementation of
signed-note, tlog-checkpoint and tlog-cosignature, Apache-2.0, depending only on cryptography).

aics-tlog declares Python >= 3.12 and this project runs 3.11, so it cannot be a locked dependency: the test runs
where it is importable and is skipped otherwise. To run it here (its code imports and runs on 3.11):

    pip download aics-tlog==0.2.1 --no-deps --python-version 3.12 --only-binary=:all: -d /tmp/aics
    python -m zipfile -e /tmp/aics/aics_tlog-0.2.1-py3-none-any.whl /tmp/aics/x
    PYTHONPATH=/tmp/aics/x uv run pytest -n 0 tests/witness/test_interop.py
"""

from __future__ import annotations

import pytest

from ledger.cosignature import Cosigner
from ledger.notes import TreeHead
from service.witness import Witness
from tests.witness.conftest import ORIGIN, Log, body

aics_note = pytest.importorskip("aics_tlog.note", reason="aics-tlog not importable (see this module's docstring)")
aics_checkpoint = pytest.importorskip("aics_tlog.checkpoint")
aics_cosign = pytest.importorskip("aics_tlog.cosign")


def test_aics_tlog_verifies_a_served_cosignature(witness: Witness, log: Log, cosigner: Cosigner) -> None:
    note = log.note(5)
    answer = witness.add_checkpoint(body(0, note))
    assert answer.status == 200
    cosigned = note + answer.body
    log_key = aics_note.parse_vkey(log.signer.verifier().text())
    witness_key = aics_note.parse_vkey(cosigner.verifier().text())  # our vkey, type 0x04, its key id checked
    assert witness_key.key_type == 0x04 and witness_key.key_id == cosigner.verifier().key_hash
    result = aics_checkpoint.verify_checkpoint(aics_note.parse_note(cosigned), log_key, [witness_key], quorum=1,
                                               expected_origin=ORIGIN)
    assert result.ok and result.log_ok and result.cosignature_count == 1, result.error
    assert result.witnesses == [cosigner.name] and result.size == 5
    # Its cosignature primitive agrees too, extension line included, and refuses another size.
    head = TreeHead.parse(note.rpartition("\n\n")[0] + "\n")
    line = aics_note.parse_note(cosigned).signatures[-1]
    args = (line.signature, cosigner.name, witness_key.public_key, head.origin)
    assert aics_cosign.verify_cosignature(*args, head.size, head.root, list(head.extensions))
    assert not aics_cosign.verify_cosignature(*args, head.size + 1, head.root, list(head.extensions))


def test_we_verify_a_cosignature_aics_tlog_made(log: Log) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    note = log.note(7)
    head = TreeHead.parse(note.rpartition("\n\n")[0] + "\n")
    blob, line = aics_cosign.sign_cosignature(key, "other.test/w9", 1_800_000_000, head.origin, head.size, head.root,
                                              list(head.extensions))
    theirs = aics_note.Note(note.rpartition("\n\n")[0] + "\n", (line,)).serialise()
    vkey = aics_note.format_vkey(aics_cosign.cosignature_vkey("other.test/w9", key.public_key()))
    from ledger.cosignature import CosignatureVerifier

    text, cosignature = CosignatureVerifier.parse(vkey).open(theirs)
    assert text == head.text() and cosignature.timestamp == 1_800_000_000
