"""ledger/cosignature.py against c2sp.org/tlog-cosignature: the spec's bytes where it gives them, round trips and
tampering otherwise; and this log's checkpoints read by the tlog-checkpoint rules."""

from __future__ import annotations

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.cosignature import ALG_COSIGNATURE_V1, CosignatureVerifier, Cosigner, signed_message
from ledger.notes import Checkpoint, NoteError, Signer, TreeHead, Verifier, split_note

# The spec's example checkpoint (tlog-checkpoint, tlog-cosignature), its log signature and a cosignature.
SPEC_BODY = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
SPEC_NOTE = (SPEC_BODY + "\n"
             "— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nT"
             "o+zyWE+xeMcTOAYQ8=\n"
             "— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5"
             "nNo0xUe+mbIUBkBIfZ+qnA==\n")
# The spec's "Ed25519 signed message" example, byte for byte.
SPEC_MESSAGE = ("cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\n"
                "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n")
BODY = "turnstile.test/log\n7\n" + base64.b64encode(bytes(range(32))).decode() + "\n2030-01-01T00:00:00Z\n"


def test_the_signed_message_is_the_specs_example() -> None:
    assert signed_message(SPEC_BODY, 1679315147) == SPEC_MESSAGE.encode()


def test_the_specs_cosignature_line_reads_as_key_id_timestamp_signature() -> None:
    """The example cosignature's blob is 4 + 8 + 64 bytes and its timestamp is the one of the spec's example
    message (1679315147): the layout `key id ‖ u64 big-endian time ‖ Ed25519 signature` this module writes."""
    text, lines = split_note(SPEC_NOTE)
    assert text == SPEC_BODY
    name, sig = lines[1]
    blob = base64.b64decode(sig)
    assert name == "witness.example.com/w1" and len(blob) == 76
    assert int.from_bytes(blob[4:12], "big") == 1679315147
    head = TreeHead.parse(text)
    assert (head.origin, head.size, head.extensions) == ("example.com/behind-the-sofa", 20852163, ())


def test_key_id_is_sha256_of_name_newline_0x04_key() -> None:
    cosigner = Cosigner.generate("witness.test/w1")
    public = cosigner.verifier().public
    assert cosigner.verifier().key_hash == hashlib.sha256(b"witness.test/w1\n\x04" + public).digest()[:4]
    assert cosigner.verifier().key_hash != Signer(cosigner.name, cosigner.seed).verifier().key_hash  # not 0x01's


def test_a_cosignature_round_trips_and_carries_its_timestamp() -> None:
    cosigner = Cosigner.generate("witness.test/w1")
    line = cosigner.cosign(BODY, 1_700_000_000)
    assert line.startswith("— witness.test/w1 ") and line.endswith("\n")
    blob = base64.b64decode(line.split(" ")[2])
    assert blob[4:12] == (1_700_000_000).to_bytes(8, "big")
    # The signature is plain Ed25519 over the spec's message, checked with the primitive alone.
    Ed25519PrivateKey.from_private_bytes(cosigner.seed).public_key().verify(
        blob[12:], f"cosignature/v1\ntime 1700000000\n{BODY}".encode())
    log = Signer.generate("turnstile.test/log")
    note = log.sign(BODY) + line  # the client appends the witness's lines to the log's note
    text, cosignature = cosigner.verifier().open(note)
    assert text == BODY and cosignature.timestamp == 1_700_000_000 and cosignature.name == "witness.test/w1"
    assert log.verifier().open(note) == BODY  # the log's signature still verifies beside the cosignature


@pytest.mark.parametrize("change", [
    lambda note: note.replace("\n7\n", "\n8\n"),  # another size
    lambda note: note.replace("2030", "2031"),  # an extension line is signed too
])
def test_a_tampered_checkpoint_fails(change: object) -> None:
    cosigner = Cosigner.generate("witness.test/w1")
    note = BODY + "\n" + cosigner.cosign(BODY, 1_700_000_000)
    assert cosigner.verifier().open(note)[0] == BODY
    with pytest.raises(NoteError, match="does not verify"):
        cosigner.verifier().open(change(note))  # type: ignore[operator]


def test_a_tampered_timestamp_fails() -> None:
    cosigner = Cosigner.generate("witness.test/w1")
    blob = bytearray(base64.b64decode(cosigner.cosign(BODY, 1_700_000_000).split(" ")[2]))
    blob[11] ^= 1
    with pytest.raises(NoteError, match="does not verify"):
        cosigner.verifier().verify(BODY, base64.b64encode(bytes(blob)).decode())


def test_other_keys_are_ignored_and_their_absence_fails() -> None:
    cosigner, other = Cosigner.generate("witness.test/w1"), Cosigner.generate("witness.test/w1")
    note = Signer.generate("witness.test/w1").sign(BODY) + other.cosign(BODY, 1)  # same name, other key ids
    with pytest.raises(NoteError, match="no cosignature"):
        cosigner.verifier().open(note)
    assert cosigner.verifier().open(note + cosigner.cosign(BODY, 2))[1].timestamp == 2
    # A log verifier ignores cosignatures (another key id) and a cosignature verifier ignores the log's 0x01 line.
    with pytest.raises(NoteError, match="no signature"):
        Verifier("witness.test/w1", cosigner.verifier().public).open(BODY + "\n" + cosigner.cosign(BODY, 1))


def test_verifier_keys_parse_and_print_with_type_0x04() -> None:
    cosigner = Cosigner.generate("witness.test/w1")
    vkey = cosigner.verifier().text()
    name, hash_hex, key = vkey.split("+", 2)
    assert name == "witness.test/w1" and base64.b64decode(key)[:1] == ALG_COSIGNATURE_V1
    assert hash_hex == cosigner.verifier().key_id
    assert CosignatureVerifier.parse(vkey) == cosigner.verifier()
    # A plain Ed25519 vkey (type 0x01) of the same key names the same cosigner, as the Go implementation reads it.
    assert CosignatureVerifier.parse(Signer(cosigner.name, cosigner.seed).verifier().text()) == cosigner.verifier()
    assert Cosigner.parse(cosigner.text()) == cosigner


@pytest.mark.parametrize("bad", [
    "no-plus", "a b+00000000+AAAA", "w+00000000+!!!!",
    "w+00000000+" + base64.b64encode(b"\x04" + bytes(32)).decode(),  # wrong hash
    "w+00000000+" + base64.b64encode(b"\x02" + bytes(32)).decode(),  # another type
])
def test_bad_verifier_keys_are_refused(bad: str) -> None:
    with pytest.raises(NoteError):
        CosignatureVerifier.parse(bad)


@pytest.mark.parametrize("timestamp", [-1, 2**63])
def test_timestamps_outside_the_spec_are_refused(timestamp: int) -> None:
    with pytest.raises(NoteError):
        Cosigner.generate("w").cosign(BODY, timestamp)


def test_this_logs_checkpoints_follow_tlog_checkpoint() -> None:
    """A checkpoint of this log is a tlog-checkpoint: origin (= the key's name), size without leading zeroes,
    base64 root, then one extension line (its signing time), signed by a key named as the origin."""
    log = Signer.generate("turnstile.test/log")
    for size in (0, 1, 10, 123456):
        checkpoint = Checkpoint(log.name, size, hashlib.sha256(b"%d" % size).digest(), "2030-01-01T00:00:00Z")
        note = log.sign(checkpoint.text())
        text, lines = split_note(note)
        head = TreeHead.parse(text)
        assert (head.origin, head.size, head.root, head.extensions) == (
            log.name, size, checkpoint.root, ("2030-01-01T00:00:00Z",))
        assert head.text() == text and [name for name, _ in lines] == [head.origin]


@pytest.mark.parametrize("text", [
    "o\n7\n", "o\n07\n" + base64.b64encode(bytes(32)).decode() + "\n", "o\n7\nAAAA\n",
    "o\n7\n" + base64.b64encode(bytes(32)).decode() + "\n\n", "o\n-1\n" + base64.b64encode(bytes(32)).decode() + "\n",
    "o\n7\n" + base64.b64encode(bytes(32)).decode(),
])
def test_checkpoint_texts_breaking_the_rules_are_refused(text: str) -> None:
    with pytest.raises(NoteError):
        TreeHead.parse(text)
