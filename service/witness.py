"""A witness of other logs' checkpoints, as c2sp.org/tlog-witness has it: `add-checkpoint` and its answers.

The witness trusts a list of logs (origin and verifier key; the logs file, see `parse_logs`), keeps per origin the
checkpoint it last cosigned (store/witness_state.py), and cosigns a submitted checkpoint only if it is signed by a
trusted key of its origin and extends, by a verified consistency proof, the one it last cosigned. Each answer is the
spec's:

- 200: the cosignature line(s), `— <witness name> <base64>` (text/plain);
- 400: a malformed body, or an `old` size above the checkpoint's size;
- 403: no signature of a trusted key of the origin verifies;
- 404: the origin is not one the witness trusts;
- 409 with `Content-Type: text/x.tlog.size` and the size last cosigned as the body: `old` is not that size (a log
  that does not know it asks with `old 0` to learn it); also when another request moved the state meanwhile;
- 409 (text/plain): the checkpoint has the size last cosigned but another root hash (the spec's words; the Go
  witness answers 422 here);
- 422: the consistency proof does not verify (or is not empty where it must be).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ledger.cosignature import MAX_TIMESTAMP, Cosigner
from ledger.merkle import EMPTY_ROOT, ProofError, verify_consistency
from ledger.notes import (
    BadSignature,
    NoteError,
    TreeHead,
    Verifier,
    canonical_decimal,
    decode_hash,
    split_note,
)
from store.witness_state import Cosigned, WitnessState

MAX_PROOF_LINES = 63  # the spec: a client never sends more
MAX_BODY_BYTES = 64 * 1024  # far above 63 proof lines and a checkpoint with 16 signatures
SIZE_TYPE = "text/x.tlog.size"
TEXT_TYPE = "text/plain; charset=utf-8"


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: status, body and its content type."""

    status: int
    body: str
    content_type: str = TEXT_TYPE


class BadRequest(ValueError):
    """A body that is not the spec's `add-checkpoint` body."""


@dataclass(frozen=True)
class Request:
    """An `add-checkpoint` body, parsed (nothing verified yet)."""

    old: int
    proof: list[bytes]
    note: str
    text: str
    head: TreeHead


def parse_request(body: bytes) -> Request:
    """The old size line, up to 63 base64 proof lines, an empty line, the signed checkpoint; BadRequest otherwise."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8") from None
    if any(ord(c) < 0x20 and c != "\n" for c in text):
        raise BadRequest("the body holds a control character other than newline")
    old_line, sep, rest = text.partition("\n")
    word, _, old = old_line.partition(" ")
    if not sep or word != "old" or not canonical_decimal(old) or int(old) > MAX_TIMESTAMP:
        raise BadRequest("the first line is `old <size>`: a decimal without leading zeroes")
    proof: list[bytes] = []
    while True:
        line, sep, rest = rest.partition("\n")
        if not sep:
            raise BadRequest("the proof lines end with an empty line before the checkpoint")
        if not line:
            break
        if len(proof) == MAX_PROOF_LINES:
            raise BadRequest(f"more than {MAX_PROOF_LINES} consistency proof lines")
        try:
            proof.append(decode_hash(line, "a consistency proof line"))
        except NoteError as exc:
            raise BadRequest(str(exc)) from None
    try:
        checkpoint_text, _ = split_note(rest)
        head = TreeHead.parse(checkpoint_text)
    except NoteError as exc:
        raise BadRequest(f"the checkpoint: {exc}") from None
    if head.size > MAX_TIMESTAMP:
        raise BadRequest("the tree size is above 2^63 - 1")
    return Request(int(old), proof, rest, checkpoint_text, head)


def parse_logs(text: str) -> dict[str, list[Verifier]]:
    """The logs file: one trusted log key a line, `<origin> <verifier key>` (the key as `turnstile log keygen`
    prints it, `<name>+<hash>+<base64>`); blank lines and lines starting with `#` are skipped. An origin may have
    several lines (several keys, e.g. during a rotation). ValueError naming the line otherwise."""
    logs: dict[str, list[Verifier]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ValueError(f"line {number}: a trusted log is `<origin> <verifier key>`")
        try:
            logs.setdefault(parts[0], []).append(Verifier.parse(parts[1]))
        except NoteError as exc:
            raise ValueError(f"line {number}: {exc}") from None
    return logs


class Witness:
    """Cosigns the checkpoints of the logs it trusts that extend what it cosigned before."""

    def __init__(self, cosigner: Cosigner, logs: Mapping[str, list[Verifier]], state: WitnessState,
                 clock: Callable[[], float] = time.time) -> None:
        self.cosigner = cosigner
        self.logs = dict(logs)
        self.state = state
        self.clock = clock

    def add_checkpoint(self, body: bytes) -> Answer:
        """The spec's answer to an `add-checkpoint` request with this body; the state moves only on a 200."""
        try:
            request = parse_request(body)
        except BadRequest as exc:
            return Answer(400, f"{exc}\n")
        head = request.head
        keys = self.logs.get(head.origin)
        if not keys:
            return Answer(404, f"unknown log origin {head.origin!r}\n")
        if not self._signed(request.note, keys):
            return Answer(403, f"no signature of a trusted key of {head.origin!r} verifies\n")
        if request.old > head.size:
            return Answer(400, f"old size {request.old} is above the checkpoint's size {head.size}\n")
        stored = self.state.latest(head.origin)
        if request.old != (stored.size if stored else 0):
            return self._conflict(stored)
        if stored is not None and head.size == stored.size and head.root != stored.root:
            return Answer(409, f"the checkpoint of size {head.size} has another root than the one cosigned\n")
        try:
            if head.size == 0 and head.root != EMPTY_ROOT:
                raise ProofError("an empty tree's root is SHA-256 of nothing")
            verify_consistency(request.old, head.size, stored.root if stored else EMPTY_ROOT, head.root,
                               request.proof)
        except ProofError as exc:
            return Answer(422, f"the consistency proof does not verify: {exc}\n")
        now = min(max(int(self.clock()), stored.cosigned_at if stored else 0), MAX_TIMESTAMP)  # never back in time
        line = self.cosigner.cosign(request.text, now)
        if not self.state.advance(head.origin, stored, Cosigned(head.size, head.root, request.note + line, now)):
            return self._conflict(self.state.latest(head.origin))  # another request moved it first
        return Answer(200, line)

    def _signed(self, note: str, keys: list[Verifier]) -> bool:
        """A signature of one of `keys` verifies, and none of theirs fails (signed-note: reject the note then)."""
        signed = False
        for key in keys:
            try:
                key.open(note)
                signed = True
            except BadSignature:
                return False
            except NoteError:
                continue
        return signed

    def _conflict(self, stored: Cosigned | None) -> Answer:
        return Answer(409, f"{stored.size if stored else 0}\n", SIZE_TYPE)
