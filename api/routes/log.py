"""The transparency log: its signed checkpoint and key, and inclusion and consistency proofs."""

from __future__ import annotations

import base64
from typing import Annotated, Any

from litestar import Controller, Request, get
from litestar.params import Parameter, QueryParameter

from api.auth import seat_of
from api.deps import Auditor, Log, Service
from api.log_schemas import ConsistencyProof, InclusionProofAnswer, LogCheckpointAnswer, LogKey
from api.problem_codes import problem_responses
from api.problems import ApiError
from api.routes.matches import OPTIONAL_KEY
from ledger.notes import Checkpoint, split_note
from ledger.replay import UnknownVersion
from service.log.transparency import BeyondTree, NotSequenced, ProofRangeError, Unsigned, leaf_hash_of

MAX_SIZE = 2**53 - 1


def log_answer(call: Any) -> Any:
    """Run a log query, turning its refusals into problems with stable codes."""
    try:
        return call()
    except Unsigned as exc:
        raise ApiError(404, "log-not-signed", str(exc)) from None
    except BeyondTree as exc:
        raise ApiError(404, "beyond-tree", str(exc)) from None
    except NotSequenced as exc:
        raise ApiError(404, "not-sequenced", str(exc)) from None
    except ProofRangeError as exc:
        raise ApiError(422, "bad-proof-range", str(exc)) from None


def served_checkpoint(log: Any) -> tuple[Any, str]:
    """The checkpoint the log serves and its note: the newest signed one, or under a witness policy the newest one
    its quorum cosigned, with their cosignature lines (404 `log-not-cosigned` before the first)."""
    latest = log_answer(log.checkpoint)
    if log.witnessed is None:
        return latest, latest.note
    cosigned = log.witnessed.newest()
    if cosigned is None:
        raise ApiError(404, "log-not-cosigned", "no checkpoint is cosigned by the witness policy's quorum yet "
                                                f"(the newest signed has {latest.size} leaves)")
    return cosigned


class LogController(Controller):
    """One RFC 9162 Merkle tree over every event, in global log order; anyone may check it."""

    path = "/v1/log"
    tags = ["transparency log"]

    @get("/checkpoint", summary="The log's newest signed checkpoint", operation_id="getLogCheckpoint",
         sync_to_thread=True, responses=problem_responses("log-not-signed", "log-not-cosigned"))
    def checkpoint(self, log: Log) -> LogCheckpointAnswer:
        """The newest checkpoint: tree size and root hash, signed (Ed25519, as a signed note) at most once a second
        while the log grows. Anyone who keeps one can later demand a consistency proof to a newer one. Under a
        witness policy: the newest one its quorum of witnesses cosigned, with their cosignature lines (404
        `log-not-cosigned` before the first)."""
        latest, note = served_checkpoint(log)
        parsed = Checkpoint.parse(split_note(note)[0])
        return LogCheckpointAnswer(origin=parsed.origin, tree_size=latest.size, root_hash=latest.root.hex(),
                                   signed_at=parsed.time, checkpoint=note)

    @get("/key", summary="The log's public key", operation_id="getLogKey", sync_to_thread=False,
         responses=problem_responses("log-not-signed"))
    def key(self, log: Log) -> LogKey:
        """The Ed25519 public key checkpoints are signed with, and its id."""
        verifier = log_answer(lambda: log.verifier)
        return LogKey(origin=verifier.name, key_id=verifier.key_id,
                      public_key=base64.b64encode(verifier.public).decode(), verifier_key=verifier.text())

    @get("/proofs/consistency", summary="A consistency proof between two tree sizes",
         operation_id="getLogConsistency", sync_to_thread=True,
         responses=problem_responses("beyond-tree", "bad-proof-range"))
    def consistency(self, log: Log,
                    from_size: Annotated[int, QueryParameter(name="from", ge=1, le=MAX_SIZE,
                                                             description="The older tree size")],
                    to_size: Annotated[int, QueryParameter(name="to", ge=1, le=MAX_SIZE,
                                                           description="The newer tree size")]) -> ConsistencyProof:
        """The RFC 9162 proof that the tree of `to` leaves extends the tree of `from` leaves (empty when equal).
        `to` beyond the tree: 404 `beyond-tree`; `from` > `to`: 422 `bad-proof-range`."""
        proof = log_answer(lambda: log.consistency(from_size, to_size))
        return ConsistencyProof(from_size=from_size, to_size=to_size, proof=[h.hex() for h in proof])

    @get("/proofs/inclusion", summary="An inclusion proof of one event", operation_id="getLogInclusion",
         sync_to_thread=True, security=OPTIONAL_KEY,
         responses=problem_responses("bad-authorization", "wrong-token", "unknown-match", "beyond-tree",
                                     "unknown-version", "not-sequenced", "log-not-signed"))
    def inclusion(self, request: Request[Any, Any, Any], log: Log, auditor: Auditor, service: Service,
                  match_id: Annotated[str, Parameter(max_length=64, description="The match id")],
                  version: Annotated[int, Parameter(ge=1, le=2_147_483_647, description="The event's version")],
                  size: Annotated[int | None, Parameter(ge=1, le=MAX_SIZE, description="The tree size (default: the "
                                                        "newest checkpoint's)")] = None) -> InclusionProofAnswer:
        """The leaf index of event `version` of the match and its audit path in the tree of `size` leaves. A private
        match's events are leaves too, but a proof about one is answered only to its seats and its app (404
        `unknown-match` to others). A version past the match's head is 404 `unknown-version`; an event appended but
        not yet in the tree of that size, 404 `not-sequenced` (it is sequenced within about a second)."""
        record = auditor.match(match_id)
        seat_of(request, record, service.app_name)
        if version > record.version:  # never a leaf, however long one waits: not `not-sequenced`
            raise UnknownVersion(version, record.version)
        proof = log_answer(lambda: log.inclusion(match_id, version, size))
        leaf = log.store.log_leaf(match_id, version)
        assert leaf is not None  # the proof was found from it; leaves are never removed
        return InclusionProofAnswer(match_id=match_id, version=version, event_hash=leaf.hash,
                                    leaf_index=proof.leaf_index, tree_size=proof.tree_size,
                                    leaf_hash=leaf_hash_of(match_id, version, leaf.hash).hex(),
                                    audit_path=[h.hex() for h in proof.path])
