"""Signed notes byte for byte as Go's golang.org/x/mod/sumdb/note writes them (its documented example key and
note), and checkpoints that refuse every alteration."""

from __future__ import annotations

import pytest

from ledger.notes import Checkpoint, NoteError, Signer, Verifier, open_checkpoint

# The example of golang.org/x/mod/sumdb/note's documentation (and note_test.go).
GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
GO_NOTE = (GO_TEXT + "\n\u2014 PeterNeumann "
           "x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n")


def test_keys_and_signature_match_gos_example() -> None:
    signer = Signer.parse(GO_SKEY)
    assert signer.text() == GO_SKEY
    assert signer.verifier().text() == GO_VKEY
    assert signer.sign(GO_TEXT) == GO_NOTE  # Ed25519 is deterministic: the very bytes Go writes
    assert Verifier.parse(GO_VKEY).open(GO_NOTE) == GO_TEXT


def test_an_altered_note_or_another_key_is_refused() -> None:
    verifier = Verifier.parse(GO_VKEY)
    for bad in (GO_NOTE.replace("cryptography", "cryptographY"), GO_NOTE.replace("x08go", "x08gp"),
                GO_TEXT, GO_NOTE.replace("\u2014", "-")):
        with pytest.raises(NoteError):
            verifier.open(bad)
    with pytest.raises(NoteError, match="no signature"):
        Signer.generate("PeterNeumann").verifier().open(GO_NOTE)
    for mangled in (GO_VKEY.replace("c74f20a3", "c74f20a4"), GO_VKEY[:-2], "Peter Neumann+c74f20a3+AA=="):
        with pytest.raises(NoteError):
            Verifier.parse(mangled)
    with pytest.raises(NoteError):
        Signer.parse(GO_SKEY.replace("PRIVATE", "PUBLIC"))


def test_a_checkpoint_round_trips_and_names_its_log() -> None:
    signer = Signer.generate("turnstile.example/log")
    checkpoint = Checkpoint("turnstile.example/log", 42, bytes(range(32)), "2026-11-26T19:00:00Z")
    note = signer.sign(checkpoint.text())
    assert note.startswith("turnstile.example/log\n42\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n"
                           "2026-11-26T19:00:00Z\n\n\u2014 turnstile.example/log ")
    assert open_checkpoint(note, signer.verifier()) == checkpoint
    other = Signer.generate("another/log")
    with pytest.raises(NoteError, match="of log"):
        open_checkpoint(other.sign(checkpoint.text()), other.verifier())
    for text in ("a\n1\n\n", "a\n01\nAAAA\nt\n", "a\nx\nAAAA\nt\n"):
        with pytest.raises(NoteError):
            Checkpoint.parse(text)


def test_a_note_saved_with_one_more_newline_opens_and_nothing_looser_does() -> None:
    """`jq -r .checkpoint > kept.checkpoint` writes the note and a newline of its own: the kept file opens. Only that
    one extra final newline is forgiven: two, a CRLF, or a blank line missing still refuse."""
    verifier = Verifier.parse(GO_VKEY)
    assert verifier.open(GO_NOTE + "\n") == GO_TEXT
    for bad in (GO_NOTE + "\n\n", GO_NOTE[:-1] + "\r\n", GO_NOTE + "\r\n", GO_NOTE.replace("\n\n", "\n"),
                GO_TEXT + "\n"):
        with pytest.raises(NoteError):
            verifier.open(bad)
