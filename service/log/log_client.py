"""The transparency log seen from outside: a record's proof checked against a key, and a witness that keeps the last
checkpoint it saw and demands that each new one extends it (`turnstile verify --key/--checkpoint`, `turnstile log
watch`). Over plain HTTP (urllib): no server code is needed to check a server.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ledger.merkle import ProofError, event_leaf, leaf_hash, tournament_stream, verify_consistency, verify_inclusion
from ledger.notes import Checkpoint, NoteError, Signer, Verifier, open_checkpoint
from ledger.records import RecordHeader
from ledger.tournament_records import TournamentHeader


class LogCheckFailed(Exception):
    """A proof, signature or checkpoint that does not hold: the log was rewritten, forked or rolled back, or a record
    does not belong to it."""


class Unreachable(Exception):
    """The server could not be asked (network, HTTP error, or an answer that is not the log's)."""


def _get(url: str, timeout_s: float = 10.0) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as answer:  # noqa: S310  (http(s) URLs the user gave)
            return msgspec.json.decode(answer.read())
    except urllib.error.HTTPError as exc:
        raise Unreachable(f"{url}: HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError, msgspec.DecodeError) as exc:
        raise Unreachable(f"{url}: {exc}") from None


class LogServer:
    """The log endpoints of one Turnstile server (`base` is its root URL, e.g. http://127.0.0.1:8000); `fetch` GETs a
    URL's JSON (urllib by default)."""

    def __init__(self, base: str, fetch: Callable[[str], Any] | None = None) -> None:
        self.base = base.rstrip("/")
        self._get = fetch or _get

    def verifier(self) -> Verifier:
        """The server's published log key."""
        try:
            return Verifier.parse(self._get(f"{self.base}/v1/log/key")["verifier_key"])
        except (KeyError, TypeError, NoteError) as exc:
            raise Unreachable(f"{self.base}/v1/log/key: not a log key ({exc})") from None

    def checkpoint(self) -> str:
        """The newest signed checkpoint's note text."""
        try:
            return str(self._get(f"{self.base}/v1/log/checkpoint")["checkpoint"])
        except (KeyError, TypeError) as exc:
            raise Unreachable(f"{self.base}/v1/log/checkpoint: not a checkpoint ({exc})") from None

    def consistency(self, old: int, new: int) -> list[bytes]:
        """The consistency proof from size `old` to size `new`."""
        query = urllib.parse.urlencode({"from": old, "to": new})
        try:
            return [bytes.fromhex(h) for h in self._get(f"{self.base}/v1/log/proofs/consistency?{query}")["proof"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise Unreachable(f"{self.base}: not a consistency proof ({exc})") from None


def load_verifier(source: str) -> Verifier:
    """The log's public key from a file (a verifier key, or the signer key file itself) or a server URL."""
    if source.startswith(("http://", "https://")):
        return LogServer(source.removesuffix("/v1/log/key")).verifier()
    text = Path(source).read_text(encoding="utf-8").strip()
    try:
        return Signer.parse(text).verifier() if text.startswith("PRIVATE+KEY+") else Verifier.parse(text)
    except NoteError as exc:
        raise LogCheckFailed(f"{source} is not a log key: {exc}") from None


def opened(note: str, verifier: Verifier, what: str) -> Checkpoint:
    """A checkpoint whose signature holds; LogCheckFailed naming `what` otherwise."""
    try:
        return open_checkpoint(note, verifier)
    except NoteError as exc:
        raise LogCheckFailed(f"{what}: {exc}") from None


def check_record(header: RecordHeader | TournamentHeader, verifier: Verifier) -> Checkpoint:
    """The record's checkpoint, once its signature and the inclusion of the record's head event in its tree hold (a
    match's head is a leaf of the stream named by its id, a tournament's of "tournament:<id>")."""
    proof = header.transparency
    if proof is None:
        raise LogCheckFailed("the record carries no transparency log proof (exported before its head was sequenced, "
                             "or by a server without a log)")
    checkpoint = opened(proof.checkpoint, verifier, "the record's checkpoint")
    if checkpoint.size != proof.tree_size:
        raise LogCheckFailed(f"the proof is for a tree of {proof.tree_size}, the checkpoint's has {checkpoint.size}")
    if header.head_hash is None:
        raise LogCheckFailed("the record names no head hash to find in the log")
    stream = header.match_id if isinstance(header, RecordHeader) else tournament_stream(header.tournament_id)
    leaf = leaf_hash(event_leaf(stream, header.version, header.head_hash))
    try:
        verify_inclusion(proof.leaf_index, proof.tree_size, leaf, [bytes.fromhex(h) for h in proof.inclusion],
                         checkpoint.root)
    except (ProofError, ValueError) as exc:
        raise LogCheckFailed(f"the head event (version {header.version}) is not in the signed tree: {exc}") from None
    return checkpoint


def check_extends(old: Checkpoint, new: Checkpoint, server: LogServer) -> None:
    """LogCheckFailed unless one of the two signed trees extends the other (the server gives the proof)."""
    first, second = (old, new) if old.size <= new.size else (new, old)
    if first.size == second.size:
        if first.root != second.root:
            raise LogCheckFailed(f"fork: two signed trees of {first.size} leaves with different roots")
        return
    proof = server.consistency(first.size, second.size)
    try:
        verify_consistency(first.size, second.size, first.root, second.root, proof)
    except ProofError as exc:
        raise LogCheckFailed(f"fork: the signed tree of {second.size} leaves does not extend the one of {first.size}: "
                             f"{exc}") from None


def witness(server: LogServer, verifier: Verifier, state: Path) -> str:
    """One look at the log: check its newest checkpoint against the last one kept in `state` (its signature, no
    rollback, and a consistency proof), then keep the new one. What was seen, for people; LogCheckFailed on a fork or
    rollback (the kept checkpoint is left as it was)."""
    note = server.checkpoint()
    new = opened(note, verifier, "the server's checkpoint")
    if not state.exists():
        _keep(state, note)
        return f"first checkpoint kept: {new.size} leaves, root {new.root.hex()[:16]}…"
    old = opened(state.read_text(encoding="utf-8"), verifier, f"the checkpoint kept in {state}")
    if new.size < old.size:
        raise LogCheckFailed(f"rollback: the server's signed tree has {new.size} leaves, it had signed {old.size}")
    check_extends(old, new, server)
    if new.size > old.size or new.time != old.time:
        _keep(state, note)
    return f"consistent: {old.size} -> {new.size} leaves, root {new.root.hex()[:16]}…"


def _keep(state: Path, note: str) -> None:
    temporary = state.with_name(state.name + ".tmp")
    temporary.write_text(note, encoding="utf-8")
    os.replace(temporary, state)  # atomic: a witness killed mid-write keeps the old checkpoint
