"""Offline inclusion proofs (c2sp.org/tlog-proof): a text a client checks with no network, given a policy.

    c2sp.org/tlog-proof@v1
    extra <base64>              (optional: application data, e.g. the entry itself; this log writes none)
    index <leaf index in decimal>
    <base64 of one inclusion proof hash>    (zero or more lines, leaf to root)
    <blank line>
    <the checkpoint's signed note, with its log signature and witnesses' cosignatures>

The reading here is the simplest faithful one of the specification as the project has it: each line ends in a
newline, numbers are decimals without leading zeroes, hashes are 32 bytes. Pure: text in, values out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.notes import NoteError, canonical_decimal, decode_b64, decode_hash, encode_b64, split_note

HEADER = "c2sp.org/tlog-proof@v1"
MAX_HASHES = 63  # a tree of fewer than 2^63 leaves has no longer path


class ProofFileError(ValueError):
    """A text that is not a tlog-proof."""


@dataclass(frozen=True)
class TlogProof:
    """A parsed tlog-proof: leaf index, inclusion path, the cosigned checkpoint note, and the optional extra data."""

    index: int
    hashes: tuple[bytes, ...]
    note: str
    extra: bytes | None = None

    def text(self) -> str:
        """The proof's text."""
        lines = [HEADER]
        if self.extra is not None:
            lines.append(f"extra {encode_b64(self.extra)}")
        lines.append(f"index {self.index}")
        lines += [encode_b64(h) for h in self.hashes]
        return "\n".join(lines) + "\n\n" + self.note


def parse_proof(text: str) -> TlogProof:
    """A tlog-proof's text; ProofFileError at the first thing out of place."""
    head, sep, note = text.partition("\n\n")
    if not sep:
        raise ProofFileError("a tlog-proof has a blank line before its checkpoint")
    lines = head.split("\n")
    if lines[0] != HEADER:
        raise ProofFileError(f"a tlog-proof starts with the line {HEADER}")
    rest = lines[1:]
    extra = None
    if rest and rest[0].startswith("extra "):
        try:
            extra = decode_b64(rest.pop(0).removeprefix("extra "), "the extra data")
        except NoteError as exc:
            raise ProofFileError(str(exc)) from None
    if not rest or not rest[0].startswith("index ") or not canonical_decimal(rest[0].removeprefix("index ")):
        raise ProofFileError("a tlog-proof's `index <decimal>` line is missing or malformed")
    index = int(rest.pop(0).removeprefix("index "))
    if len(rest) > MAX_HASHES:
        raise ProofFileError(f"more than {MAX_HASHES} inclusion proof hashes")
    try:
        hashes = [decode_hash(line, "an inclusion proof hash") for line in rest]
    except NoteError as exc:
        raise ProofFileError(str(exc)) from None
    try:
        split_note(note)
    except NoteError as exc:
        raise ProofFileError(f"the checkpoint: {exc}") from None
    return TlogProof(index, tuple(hashes), note, extra)
