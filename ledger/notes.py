"""Ed25519 keys and signed notes in Go's signed-note format (golang.org/x/mod/sumdb/note), and the log's checkpoints.

A note is text ending in a newline, a blank line, then one line per signature: `— <name> <base64(key hash ‖
signature)>`, where the key hash is the first 4 bytes (big-endian) of SHA-256(name ‖ "\\n" ‖ 0x01 ‖ public key) and
the signature is Ed25519 over the text. Keys are written as Go writes them: the signer key
`PRIVATE+KEY+<name>+<hash hex>+<base64(0x01 ‖ 32-byte seed)>` (the file `turnstile log keygen` makes), the verifier
key `<name>+<hash hex>+<base64(0x01 ‖ 32-byte public key)>`.

A checkpoint is a note whose text is four lines: the origin (the key's name), the tree size in decimal, the root
hash in base64, and the time it was signed (ISO 8601 UTC).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ALG_ED25519 = b"\x01"
DASH = "\u2014 "  # an em dash and a space start every signature line


class NoteError(ValueError):
    """A key or note that does not parse or whose signature does not verify."""


class BadSignature(NoteError):
    """A signature line of a known key (its name and key id) that does not verify: the note was altered."""


def key_hash(name: str, public: bytes, alg: bytes = ALG_ED25519) -> bytes:
    """The 4-byte key ID of signed-note: SHA-256(name ‖ "\\n" ‖ signature type ‖ public key)[:4]."""
    return hashlib.sha256(name.encode() + b"\n" + alg + public).digest()[:4]


def valid_name(name: str) -> bool:
    """A key name: not empty, no spaces, no '+'."""
    return bool(name) and "+" not in name and not any(c.isspace() for c in name)


def decode_b64(text: str, what: str) -> bytes:
    """Standard base64 (RFC 4648 section 4), strictly; NoteError naming `what` otherwise."""
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise NoteError(f"{what} is not base64") from None


def decode_hash(text: str, what: str) -> bytes:
    """A SHA-256 hash written as standard base64 (a proof line); NoteError naming `what` otherwise."""
    digest = decode_b64(text, what)
    if len(digest) != 32:
        raise NoteError(f"{what} is not the base64 of a 32-byte hash")
    return digest


def encode_b64(data: bytes) -> str:
    """Standard base64 of `data`."""
    return base64.b64encode(data).decode()


def split_note(note: str) -> tuple[str, list[tuple[str, str]]]:
    """A signed note's text (with its final newline) and its signature lines as (key name, base64 signature).

    The text ends at the note's last blank line; NoteError when there is none or a signature line is malformed. A note
    ends with its last signature line's newline; one more final newline, which a shell tool adds when it saves a note
    (`jq -r .checkpoint > kept.checkpoint`), is forgiven, and nothing else.
    """
    if note.endswith("\n\n"):
        note = note[:-1]  # that one extra newline; a second leaves an empty signature block, refused below
    text, sep, signatures = note.rpartition("\n\n")
    if not sep or not signatures.endswith("\n"):
        raise NoteError("not a signed note (text, a blank line, signature lines)")
    lines = []
    for line in signatures[:-1].split("\n"):
        if not line.startswith(DASH):
            raise NoteError("a signature line must start with an em dash")
        name, _, sig = line[len(DASH):].partition(" ")
        lines.append((name, sig))
    return text + "\n", lines


def signature_line(name: str, key_id: bytes, signature: bytes) -> str:
    """`— <name> <base64(key id ‖ signature)>` and a newline."""
    return f"{DASH}{name} {encode_b64(key_id + signature)}\n"


@dataclass(frozen=True)
class Verifier:
    """A public key with its name: checks notes signed by its signer."""

    name: str
    public: bytes

    @property
    def key_hash(self) -> bytes:
        """The 4 bytes naming this key in signature lines."""
        return key_hash(self.name, self.public)

    @property
    def key_id(self) -> str:
        """The key hash as 8 hex digits."""
        return self.key_hash.hex()

    def text(self) -> str:
        """The verifier key: `<name>+<hash hex>+<base64(0x01 ‖ public key)>`."""
        return f"{self.name}+{self.key_id}+{encode_b64(ALG_ED25519 + self.public)}"

    @classmethod
    def parse(cls, text: str) -> Verifier:
        """A verifier key as `text` writes it."""
        parts = text.strip().split("+", 2)
        if len(parts) != 3 or not valid_name(parts[0]):
            raise NoteError("a verifier key is <name>+<hash>+<key>")
        key = decode_b64(parts[2], "the verifier key")
        if len(key) != 33 or key[:1] != ALG_ED25519:
            raise NoteError("the verifier key is not an Ed25519 key")
        verifier = cls(parts[0], key[1:])
        if verifier.key_id != parts[1].lower():
            raise NoteError("the verifier key's hash does not match its name and key")
        return verifier

    def open(self, note: str) -> str:
        """The text of a note this key signed; NoteError when it carries no valid signature of this key, BadSignature
        when a line of this key (its name and key id) does not verify (signed-note: the whole note is refused)."""
        text, lines = split_note(note)
        signed = False
        for name, sig in lines:
            if name != self.name:
                continue
            blob = decode_b64(sig, "a signature")
            if len(blob) != 68 or blob[:4] != self.key_hash:
                continue
            try:
                Ed25519PublicKey.from_public_bytes(self.public).verify(blob[4:], text.encode())
            except InvalidSignature:
                raise BadSignature(f"the signature of {self.name} does not verify: the note was altered") from None
            signed = True
        if not signed:
            raise NoteError(f"the note carries no signature of key {self.name}+{self.key_id}")
        return text


@dataclass(frozen=True)
class Signer:
    """A private key with its name (the log's origin)."""

    name: str
    seed: bytes

    @classmethod
    def generate(cls, name: str) -> Signer:
        """A new random key."""
        if not valid_name(name):
            raise NoteError(f"a key name has no spaces or '+': {name!r}")
        key = Ed25519PrivateKey.generate()
        return cls(name, key.private_bytes_raw())

    @classmethod
    def parse(cls, text: str) -> Signer:
        """A signer key as `text` writes it."""
        parts = text.strip().split("+", 4)
        if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"] or not valid_name(parts[2]):
            raise NoteError("a signer key is PRIVATE+KEY+<name>+<hash>+<key>")
        key = decode_b64(parts[4], "the signer key")
        if len(key) != 33 or key[:1] != ALG_ED25519:
            raise NoteError("the signer key is not an Ed25519 key")
        signer = cls(parts[2], key[1:])
        if signer.verifier().key_id != parts[3].lower():
            raise NoteError("the signer key's hash does not match its name and key")
        return signer

    def text(self) -> str:
        """The signer key: `PRIVATE+KEY+<name>+<hash hex>+<base64(0x01 ‖ seed)>`."""
        return (f"PRIVATE+KEY+{self.name}+{self.verifier().key_id}+"
                f"{encode_b64(ALG_ED25519 + self.seed)}")

    def verifier(self) -> Verifier:
        """The public half."""
        public = Ed25519PrivateKey.from_private_bytes(self.seed).public_key()
        return Verifier(self.name, public.public_bytes(Encoding.Raw, PublicFormat.Raw))

    def sign(self, text: str) -> str:
        """`text` (ending in a newline) as a note signed by this key."""
        if not text.endswith("\n"):
            raise NoteError("a note's text ends with a newline")
        signature = Ed25519PrivateKey.from_private_bytes(self.seed).sign(text.encode())
        return f"{text}\n{signature_line(self.name, self.verifier().key_hash, signature)}"

    def mac_key(self, purpose: str) -> bytes:
        """A secret derived from this key for another use (e.g. the snapshots' HMAC), never the key itself."""
        return hashlib.sha256(b"turnstile/" + purpose.encode() + b"\n" + self.seed).digest()


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint's text: which log, how many leaves, their root, and when it was signed."""

    origin: str
    size: int
    root: bytes
    time: str

    def text(self) -> str:
        """The note text of this checkpoint."""
        return f"{self.origin}\n{self.size}\n{encode_b64(self.root)}\n{self.time}\n"

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        """A checkpoint from a note's (verified) text."""
        lines = text.split("\n")
        if len(lines) != 5 or lines[4] != "" or not lines[1].isdigit() or (lines[1] != "0" and lines[1][0] == "0"):
            raise NoteError("a checkpoint is four lines: origin, tree size, root hash, time")
        root = decode_b64(lines[2], "the root hash")
        if len(root) != 32:
            raise NoteError("the root hash is not 32 bytes")
        return cls(lines[0], int(lines[1]), root, lines[3])


def canonical_decimal(text: str) -> bool:
    """ASCII digits with no leading zero (but `0` itself): how checkpoints and the witness protocol write sizes."""
    return text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")


@dataclass(frozen=True)
class TreeHead:
    """Any log's checkpoint text as c2sp.org/tlog-checkpoint has it: origin, tree size, root hash, then zero or more
    non-empty extension lines (this log's one extension line is its signing time; other logs may have none)."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def text(self) -> str:
        """The note text."""
        return "".join(f"{line}\n" for line in (self.origin, str(self.size), encode_b64(self.root), *self.extensions))

    @classmethod
    def parse(cls, text: str) -> TreeHead:
        """A checkpoint's text by the tlog-checkpoint rules; NoteError when it breaks one."""
        if not text.endswith("\n"):
            raise NoteError("a checkpoint's text ends with a newline")
        lines = text[:-1].split("\n")
        if len(lines) < 3 or any(not line for line in lines):
            raise NoteError("a checkpoint is at least three non-empty lines: origin, tree size, root hash")
        if not canonical_decimal(lines[1]):
            raise NoteError("the tree size is not a decimal without leading zeroes")
        root = decode_b64(lines[2], "the root hash")
        if len(root) != 32 or encode_b64(root) != lines[2]:
            raise NoteError("the root hash is not the base64 of 32 bytes")
        return cls(lines[0], int(lines[1]), root, tuple(lines[3:]))


def open_checkpoint(note: str, verifier: Verifier) -> Checkpoint:
    """The checkpoint a note signed by `verifier` holds; NoteError when unsigned, altered or of another log."""
    checkpoint = Checkpoint.parse(verifier.open(note))
    if checkpoint.origin != verifier.name:
        raise NoteError(f"the checkpoint is of log {checkpoint.origin!r}, the key is of {verifier.name!r}")
    return checkpoint
