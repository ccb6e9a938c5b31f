"""Witness cosignatures of checkpoints: c2sp.org/tlog-cosignature, the Ed25519 `cosignature/v1` type (0x04).

A cosignature is a signed-note signature line on a checkpoint, `— <witness name> <base64(key id ‖ timestamp ‖
signature)>`, where the key id is SHA-256(name ‖ "\\n" ‖ 0x04 ‖ 32-byte Ed25519 public key)[:4], the timestamp is
a big-endian u64 of POSIX seconds, and the signature is Ed25519 over

    cosignature/v1
    time <timestamp in decimal>
    <the checkpoint's whole note text: origin, size, root hash, extension lines>

A witness's private key is written as any Ed25519 note key, `PRIVATE+KEY+<name>+<hash>+<base64(0x01 ‖ seed)>`
(the Go implementation, transparency-dev/formats, reads the same file); its verifier key is the vkey of type 0x04,
`<name>+<hash hex>+<base64(0x04 ‖ public key)>`. Pure: keys, messages and signatures, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ledger.notes import (
    ALG_ED25519,
    BadSignature,
    NoteError,
    Signer,
    decode_b64,
    encode_b64,
    key_hash,
    signature_line,
    split_note,
    valid_name,
)

ALG_COSIGNATURE_V1 = b"\x04"
HEADER = "cosignature/v1\n"
MAX_TIMESTAMP = 2**63 - 1  # the spec's bound on the u64 timestamp
BLOB_SIZE = 4 + 8 + 64  # key id ‖ timestamp ‖ Ed25519 signature


def signed_message(body: str, timestamp: int) -> bytes:
    """What a cosignature at `timestamp` signs: the header line, the time line, then the checkpoint's note text."""
    if not 0 <= timestamp <= MAX_TIMESTAMP:
        raise NoteError(f"a cosignature's timestamp is between 0 and 2^63 - 1, not {timestamp}")
    if not body.endswith("\n") or body.count("\n") < 3:
        raise NoteError("a cosigned note text is at least three lines, each ending in a newline")
    return f"{HEADER}time {timestamp}\n{body}".encode()


@dataclass(frozen=True)
class Cosignature:
    """One verified cosignature: whose, and when it says the witness saw the checkpoint."""

    name: str
    timestamp: int


@dataclass(frozen=True)
class CosignatureVerifier:
    """A witness's public key: checks its cosignatures."""

    name: str
    public: bytes

    @property
    def key_hash(self) -> bytes:
        """The 4 bytes naming this key in signature lines (signature type 0x04)."""
        return key_hash(self.name, self.public, ALG_COSIGNATURE_V1)

    @property
    def key_id(self) -> str:
        """The key hash as 8 hex digits."""
        return self.key_hash.hex()

    def text(self) -> str:
        """The witness's verifier key: `<name>+<hash hex>+<base64(0x04 ‖ public key)>`."""
        return f"{self.name}+{self.key_id}+{encode_b64(ALG_COSIGNATURE_V1 + self.public)}"

    @classmethod
    def parse(cls, text: str) -> CosignatureVerifier:
        """A witness verifier key: a vkey of type 0x04, or (as the Go implementation accepts) a plain Ed25519 vkey
        of type 0x01, whose key is then used for cosignatures under the 0x04 key id. The hash in the text must be
        the one of the type the text names."""
        parts = text.strip().split("+", 2)
        if len(parts) != 3 or not valid_name(parts[0]):
            raise NoteError("a witness verifier key is <name>+<hash>+<key>")
        key = decode_b64(parts[2], "the witness verifier key")
        if len(key) != 33 or key[:1] not in (ALG_COSIGNATURE_V1, ALG_ED25519):
            raise NoteError("the witness verifier key is not an Ed25519 (cosignature/v1) key")
        if key_hash(parts[0], key[1:], key[:1]).hex() != parts[1].lower():
            raise NoteError("the witness verifier key's hash does not match its name and key")
        return cls(parts[0], key[1:])

    def verify(self, body: str, signature: str) -> int:
        """The timestamp of `signature` (the base64 of a signature line) over the checkpoint text `body`; NoteError
        when it is not this key's or does not verify."""
        blob = decode_b64(signature, "a cosignature")
        if len(blob) != BLOB_SIZE or blob[:4] != self.key_hash:
            raise NoteError(f"not a cosignature of {self.name}+{self.key_id}")
        timestamp = int.from_bytes(blob[4:12], "big")
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(blob[12:], signed_message(body, timestamp))
        except InvalidSignature:
            raise BadSignature(f"the cosignature of {self.name} does not verify: the checkpoint was altered") from None
        return timestamp

    def open(self, note: str) -> tuple[str, Cosignature]:
        """The text of a checkpoint note this witness cosigned, and its newest cosignature; NoteError when the note has
        no valid cosignature of this key (a line with this name and key id that does not verify fails the note)."""
        text, lines = split_note(note)
        found: Cosignature | None = None
        for name, sig in lines:
            if name != self.name:
                continue
            blob = decode_b64(sig, "a signature")
            if len(blob) != BLOB_SIZE or blob[:4] != self.key_hash:
                continue  # another key of the same name (e.g. a log key), ignored as the spec says
            timestamp = self.verify(text, sig)  # every line of this key must verify
            if found is None or timestamp > found.timestamp:
                found = Cosignature(self.name, timestamp)
        if found is None:
            raise NoteError(f"the note carries no cosignature of witness {self.name}+{self.key_id}")
        return text, found


@dataclass(frozen=True)
class Cosigner:
    """A witness's private key: cosigns checkpoints."""

    name: str
    seed: bytes

    @classmethod
    def generate(cls, name: str) -> Cosigner:
        """A new random key."""
        return cls.from_signer(Signer.generate(name))

    @classmethod
    def from_signer(cls, signer: Signer) -> Cosigner:
        """The cosigner of an Ed25519 note key (the same key file format)."""
        return cls(signer.name, signer.seed)

    @classmethod
    def parse(cls, text: str) -> Cosigner:
        """A witness key file: `PRIVATE+KEY+<name>+<hash>+<base64(0x01 ‖ seed)>`."""
        return cls.from_signer(Signer.parse(text))

    def text(self) -> str:
        """The key file's text."""
        return Signer(self.name, self.seed).text()

    def verifier(self) -> CosignatureVerifier:
        """The public half."""
        public = Ed25519PrivateKey.from_private_bytes(self.seed).public_key()
        return CosignatureVerifier(self.name, public.public_bytes(Encoding.Raw, PublicFormat.Raw))

    def cosign(self, body: str, timestamp: int) -> str:
        """The cosignature line (with its newline) of checkpoint text `body` at POSIX time `timestamp`."""
        signature = Ed25519PrivateKey.from_private_bytes(self.seed).sign(signed_message(body, timestamp))
        return signature_line(self.name, self.verifier().key_hash, timestamp.to_bytes(8, "big") + signature)
