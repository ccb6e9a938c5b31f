"""The transparency log's answers (api/routes/log.py)."""

from __future__ import annotations

from typing import Annotated

import msgspec

Hex = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$", description="A SHA-256 hash, lowercase hex")]


class LogCheckpointAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """The newest signed checkpoint: the log's origin, size and root, and the signed note that says so.

    `checkpoint` is the signed-note text (Go's sumdb note format): four lines (origin, tree size, root hash in
    base64, time signed), a blank line, and `— <origin> <base64(key id ‖ Ed25519 signature)>`. Keep it: a later
    checkpoint must be consistent with it (`GET /v1/log/proofs/consistency`). Under a witness policy it is the newest
    checkpoint cosigned by the policy's quorum, with the witnesses' cosignature lines (c2sp.org/tlog-cosignature)
    after the log's signature."""

    origin: str
    tree_size: int
    root_hash: Hex
    signed_at: str
    checkpoint: str


class LogKey(msgspec.Struct, frozen=True, kw_only=True):
    """The public key checkpoints are signed with.

    `verifier_key` is Go's note verifier key, `<origin>+<key id>+<base64(0x01 ‖ public key)>` (what `turnstile verify
    --key` and `turnstile log watch --key` take); `key_id` the first 4 bytes of SHA-256(origin ‖ "\\n" ‖ 0x01 ‖ public
    key) in hex."""

    origin: str
    algorithm: str = "ed25519"
    key_id: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{8}$")]
    public_key: Annotated[str, msgspec.Meta(description="The raw 32-byte Ed25519 public key, base64")]
    verifier_key: str


class ConsistencyProof(msgspec.Struct, frozen=True, kw_only=True):
    """RFC 9162 2.1.4: the hashes proving that the tree of `to_size` leaves extends the tree of `from_size`."""

    from_size: int
    to_size: int
    proof: list[Hex]


class InclusionProofAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """RFC 9162 2.1.3: event `version` of the match is leaf `leaf_index` of the tree of `tree_size` leaves.

    The leaf is SHA-256(0x00 ‖ UTF-8 "<match_id>\\n<version>\\n<event_hash>"); `audit_path` leads from it to the
    root of that tree, leaf side first."""

    match_id: str
    version: int
    event_hash: Hex
    leaf_index: int
    tree_size: int
    leaf_hash: Hex
    audit_path: list[Hex]
