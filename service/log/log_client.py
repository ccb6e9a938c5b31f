"""The transparency log seen from outside: a record's proof checked against a key, and a witness that keeps the last
checkpoint it saw and demands that each new one extends it (`turnstile verify --key/--checkpoint`, `turnstile log
watch`). Over plain HTTP (urllib): no server code is needed to check a server.

A server that answers a proof request with 404 `beyond-tree` for a size it has signed a checkpoint of is not
unreachable: its tree is smaller than a tree it signed, which is a rollback (`RolledBack`). Plain network failures
and other HTTP errors stay `Unreachable`.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from ledger.merkle import ProofError, event_leaf, leaf_hash, tournament_stream, verify_consistency, verify_inclusion
from ledger.notes import Checkpoint, NoteError, Signer, Verifier, open_checkpoint
from ledger.policy import Policy, PolicyError, QuorumError, parse_policy
from ledger.records import RecordHeader
from ledger.tlog_proof import ProofFileError, parse_proof
from ledger.tournament_records import TournamentHeader


class LogCheckFailed(Exception):
    """A proof, signature or checkpoint that does not hold: the log was rewritten, forked or rolled back, or a record
    does not belong to it."""


class RolledBack(LogCheckFailed):
    """The server refuses a proof up to a size it has signed a checkpoint of (404 `beyond-tree`): its tree is now
    smaller than one it signed."""


class Unreachable(Exception):
    """The server could not be asked (network, HTTP error, or an answer that is not the log's)."""


class Refused(Unreachable):
    """The server answered with an HTTP error: its `status` and, when the body is a problem, its `code`."""

    def __init__(self, url: str, status: int, code: str | None, detail: str = "") -> None:
        super().__init__(f"{url}: HTTP {status}" + (f" {code}" if code else "") + (f" ({detail})" if detail else ""))
        self.status = status
        self.code = code


BEYOND_TREE = "beyond-tree"  # the problem code of a proof asked for a size past the server's tree (HTTP 404)


def refused(url: str, status: int, body: bytes) -> Refused:
    """The error an HTTP error answer is: its status, and the problem's code and detail when it has them."""
    try:
        problem = msgspec.json.decode(body)
    except msgspec.DecodeError:
        problem = None
    if not isinstance(problem, dict):
        return Refused(url, status, None)
    code, detail = problem.get("code"), problem.get("detail")
    return Refused(url, status, code if isinstance(code, str) else None, detail if isinstance(detail, str) else "")


def _get(url: str, timeout_s: float = 10.0) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as answer:  # noqa: S310  (http(s) URLs the user gave)
            return msgspec.json.decode(answer.read())
    except urllib.error.HTTPError as exc:
        try:
            body = exc.read()
        except OSError:
            body = b""
        raise refused(url, exc.code, body) from None
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


def load_policy(path: str) -> Policy:
    """The witness policy in the file at `path`; LogCheckFailed when it is not one."""
    try:
        return parse_policy(Path(path).read_text(encoding="utf-8"))
    except PolicyError as exc:
        raise LogCheckFailed(f"{path} is not a witness policy: {exc}") from None


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
    _included(header, proof.leaf_index, checkpoint, [bytes.fromhex(h) for h in proof.inclusion])
    return checkpoint


def check_cosigned(header: RecordHeader | TournamentHeader, policy: Policy) -> Checkpoint:
    """The record's checkpoint, checked offline against a witness policy from its tlog-proof alone: signed by a log
    of the policy, cosigned by its quorum, and holding the record's head event (its leaf, from the record)."""
    proof = header.transparency
    if proof is None or proof.tlog_proof is None:
        raise LogCheckFailed("the record carries no cosigned proof (tlog-proof): it was exported before a quorum of "
                             "witnesses cosigned a checkpoint holding its head, or by a server without a witness "
                             "policy")
    try:
        offline = parse_proof(proof.tlog_proof)
        checkpoint = Checkpoint.parse(policy.check(offline.note).text)
    except (ProofFileError, QuorumError, NoteError) as exc:
        raise LogCheckFailed(f"the record's tlog-proof: {exc}") from None
    _included(header, offline.index, checkpoint, list(offline.hashes))
    return checkpoint


def _included(header: RecordHeader | TournamentHeader, index: int, checkpoint: Checkpoint, path: list[bytes]) -> None:
    """LogCheckFailed unless the record's head event is leaf `index` of the checkpoint's tree by `path` (a match's
    head is a leaf of the stream named by its id, a tournament's of "tournament:<id>")."""
    if header.head_hash is None:
        raise LogCheckFailed("the record names no head hash to find in the log")
    stream = header.match_id if isinstance(header, RecordHeader) else tournament_stream(header.tournament_id)
    leaf = leaf_hash(event_leaf(stream, header.version, header.head_hash))
    try:
        verify_inclusion(index, checkpoint.size, leaf, path, checkpoint.root)
    except (ProofError, ValueError) as exc:
        raise LogCheckFailed(f"the head event (version {header.version}) is not in the signed tree: {exc}") from None


def check_extends(old: Checkpoint, new: Checkpoint, server: LogServer) -> None:
    """LogCheckFailed unless one of the two signed trees extends the other (the server gives the proof)."""
    first, second = (old, new) if old.size <= new.size else (new, old)
    if first.size == second.size:
        if first.root != second.root:
            raise LogCheckFailed(f"fork: two signed trees of {first.size} leaves with different roots")
        return
    try:
        proof = server.consistency(first.size, second.size)
    except Refused as exc:
        if (exc.status, exc.code) == (404, BEYOND_TREE):
            raise RolledBack(f"rollback: the server refuses a consistency proof up to {second.size} leaves, a tree it "
                             f"signed ({exc})") from None
        raise
    try:
        verify_consistency(first.size, second.size, first.root, second.root, proof)
    except ProofError as exc:
        raise LogCheckFailed(f"fork: the signed tree of {second.size} leaves does not extend the one of {first.size}: "
                             f"{exc}") from None


def check_current(kept: Checkpoint, server: LogServer, verifier: Verifier,
                  policy: Policy | None = None) -> Checkpoint:
    """The server's current checkpoint, once it extends `kept` (a checkpoint kept from before) and, given a witness
    policy, is cosigned by its quorum; LogCheckFailed naming a rollback (a smaller tree, or a proof refused up to a
    size it signed), a fork, or a quorum not met."""
    note = server.checkpoint()
    if policy is not None:
        try:
            policy.check(note)
        except QuorumError as exc:
            raise LogCheckFailed(f"the server's current checkpoint: {exc}") from None
    current = opened(note, verifier, "the server's current checkpoint")
    if current.size < kept.size:
        raise LogCheckFailed(f"rollback: the server's current signed tree has {current.size} leaves, the kept "
                             f"checkpoint's {kept.size}")
    check_extends(kept, current, server)
    return current


def witness(server: LogServer, verifier: Verifier, state: Path) -> str:
    """One look at the log (`observe`): what was seen, for people."""
    return observe(server, verifier, state)[0]


def observe(server: LogServer, verifier: Verifier, state: Path) -> tuple[str, Checkpoint]:
    """One look at the log: check its newest checkpoint against the last one kept in `state` (its signature, no
    rollback, and a consistency proof), then keep the new one. What was seen, for people, and the checkpoint served;
    LogCheckFailed on a fork or rollback (`RolledBack` when the server refuses the proof up to a size it signed; the
    kept checkpoint is left as it was)."""
    note = server.checkpoint()
    new = opened(note, verifier, "the server's checkpoint")
    if not state.exists():
        _keep(state, note)
        return f"first checkpoint kept: {new.size} leaves, root {new.root.hex()[:16]}…", new
    old = opened(state.read_text(encoding="utf-8"), verifier, f"the checkpoint kept in {state}")
    if new.size < old.size:
        raise LogCheckFailed(f"rollback: the server's signed tree has {new.size} leaves, it had signed {old.size}")
    check_extends(old, new, server)
    if new.size > old.size or new.time != old.time:
        _keep(state, note)
    return f"consistent: {old.size} -> {new.size} leaves, root {new.root.hex()[:16]}…", new


def staleness(server: LogServer, served: Checkpoint, limit_s: float, now: datetime) -> str | None:
    """Why the served checkpoint is stale, or None. It is stale when it was signed more than `limit_s` seconds before
    `now` AND the server's tree has grown past it (the server gives a consistency proof from its size to one leaf
    more): an honest sequencer signs the grown tree within a second or two, so a front that keeps serving an old
    checkpoint, or a sequencer that appends but no longer signs, shows. An idle log's checkpoint legitimately stops
    advancing (the server signs only when the tree grows; it answers 404 `beyond-tree` past it), so age alone is not
    staleness. A front that freezes its proofs too looks like an idle log: only a newer checkpoint seen elsewhere
    (a record, another witness) shows that."""
    try:
        signed = datetime.fromisoformat(served.time)
    except ValueError:
        return f"the server's checkpoint ({served.size} leaves) carries no time ({served.time!r})"
    age = (now - (signed if signed.tzinfo else signed.replace(tzinfo=UTC))).total_seconds()
    if age <= limit_s or served.size < 1:
        return None
    try:
        server.consistency(served.size, served.size + 1)
    except Refused as exc:
        if (exc.status, exc.code) == (404, BEYOND_TREE):
            return None  # the tree has not grown past it: an idle log
        raise
    return (f"the server's newest checkpoint ({served.size} leaves) was signed {age:.0f} s ago ({served.time}), "
            f"more than {limit_s:g} s, yet its tree has grown past it: a front serving an old checkpoint, or a "
            "sequencer that stopped signing")


def _keep(state: Path, note: str) -> None:
    temporary = state.with_name(state.name + ".tmp")
    temporary.write_text(note, encoding="utf-8")
    os.replace(temporary, state)  # atomic: a witness killed mid-write keeps the old checkpoint
