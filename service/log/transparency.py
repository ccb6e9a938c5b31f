"""The transparency log's service: the sequencer, signed checkpoints, proofs, and the check of stored events
against the tree.

The store keeps the tree (store/transparency.py); this module decides when to sign (at most once a second while the
tree grows, `MIN_INTERVAL_S`), answers proofs from the stored perfect subtrees, and says whether a match's stored
events are the ones the tree holds. The key is the operator's (`TURNSTILE_LOG_KEY`, see `load_signer`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

from ledger.events import StoredEvent
from ledger.merkle import (
    Hash,
    consistency_ranges,
    event_leaf,
    hash_ranges,
    inclusion_ranges,
    leaf_hash,
    needed_nodes,
)
from ledger.notes import Checkpoint, NoteError, Signer, Verifier, decode_b64, open_checkpoint, split_note
from ledger.records import LogProof
from ledger.tlog_proof import TlogProof
from service.log.cosigning import Witnessed
from store.base import RecordCorrupt, iso, utc_now
from store.transparency import LogCheckpoint, LogLeaf, TransparencyStore

log = logging.getLogger("turnstile.transparency")
MIN_INTERVAL_S = 1.0  # the least time between two checkpoints
# The sequencer's rest after a round: the appends of that time become leaves in one transaction. Checkpoints come at
# most once a MIN_INTERVAL_S, so a longer rest delays no proof a client can check; a shorter one cost a busy server
# 2 % of its CPU in empty or one-leaf transactions (bench/README.md, 2026-11-27).
GATHER_S = 0.25
DEFAULT_ORIGIN = "turnstile.local/log"
BATCH = 2000  # leaves per sequencer transaction


class LogKeyError(Exception):
    """The log key file is missing, unreadable or not a signer key."""


class ProofRangeError(ValueError):
    """A proof asked between sizes that make no sense (from > to, or from < 1)."""


class BeyondTree(LookupError):
    """A size larger than the tree."""

    def __init__(self, size: int, tree_size: int) -> None:
        super().__init__(f"the tree has {tree_size} leaves, not {size}")
        self.size = size
        self.tree_size = tree_size


class NotSequenced(LookupError):
    """The event is not (yet) a leaf of the tree of the asked size."""


class Unsigned(LookupError):
    """The server has no log key, or has signed no checkpoint yet."""


@dataclass(frozen=True)
class InclusionProof:
    """That the leaf of one event is in the tree of `tree_size` leaves: its index and the audit path."""

    leaf_index: int
    tree_size: int
    path: list[Hash]


def load_signer(path: str) -> Signer:
    """The signer key in the file at `path` (as `turnstile log keygen` writes it)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogKeyError(f"cannot read the log key {path}: {exc.strerror or exc}") from None
    try:
        return Signer.parse(text)
    except NoteError as exc:
        raise LogKeyError(f"{path} is not a log key: {exc}") from None


def write_key(path: Path, signer: Signer) -> None:
    """Write a new key file readable by its owner only; never over an existing one."""
    with open(path, "x", encoding="utf-8") as out:  # "x": refuse to replace a key
        path.chmod(0o600)
        out.write(signer.text() + "\n")


def key_for(key_path: str | None, database_url: str) -> Signer | None:
    """The log's key: the file `key_path` names; else, for a SQLite file store, the file beside it (made on first
    start, and said so); else one made for this process only (`:memory:`); else none (PostgreSQL without a key:
    the tree grows but no checkpoint is signed)."""
    if key_path:
        return load_signer(key_path)
    if not database_url.startswith("sqlite:///"):
        log.warning("no TURNSTILE_LOG_KEY: the transparency log's checkpoints are not signed")
        return None
    database = database_url.removeprefix("sqlite:///")
    if database == ":memory:":
        return Signer.generate(DEFAULT_ORIGIN)
    beside = Path(database + ".logkey")
    if beside.exists():
        return load_signer(str(beside))
    signer = Signer.generate(DEFAULT_ORIGIN)
    try:
        write_key(beside, signer)
    except FileExistsError:  # another process made it a moment ago
        return load_signer(str(beside))
    log.warning("made a new transparency log key %s (key id %s): keep it safe and private; its public half is at "
                "GET /v1/log/key", beside, signer.verifier().key_id)
    return signer


def open_log(store: TransparencyStore, key_path: str | None, database_url: str) -> Transparency:
    """The log of a served store, with its key (`key_for`); LogKeyError when that key did not sign the tree's last
    checkpoint (`check_key`)."""
    signer = key_for(key_path, database_url)
    if signer is None:
        log.warning("no log key: snapshots are trusted only by the process that saved them")
    else:
        check_key(store, signer)
    return Transparency(store, signer)


def check_key(store: TransparencyStore, signer: Signer) -> None:
    """LogKeyError unless `signer` signed the tree's last checkpoint (or none is signed yet). A server started with
    another key under an existing tree would sign a second history its clients cannot link to the first: it refuses
    to start instead, and says which key signed the tree."""
    latest = store.latest_checkpoint()
    if latest is None:
        return
    try:
        open_checkpoint(latest.note, signer.verifier())
    except NoteError as exc:
        raise LogKeyError(f"the log key {signer.name} ({signer.verifier().key_id}) did not sign this tree's last "
                          f"checkpoint (size {latest.size}, signed by {', '.join(signers(latest.note))}: {exc}); "
                          "start the server with the key that signed it (TURNSTILE_LOG_KEY), or its clients would "
                          "see a second history") from None


def signers(note: str) -> list[str]:
    """Who signed a stored note, as `<name> (<key id>)` per signature line (`split_note`)."""
    try:
        return [f"{name} ({decode_b64(sig, 'signature')[:4].hex()})" for name, sig in split_note(note)[1]]
    except NoteError:
        return ["an unreadable signature"]


class Transparency:
    """The log of one store: sequencing, checkpoints, proofs and checks."""

    def __init__(self, store: TransparencyStore, signer: Signer | None,
                 clock: Callable[[], datetime] = utc_now, min_interval_s: float = MIN_INTERVAL_S) -> None:
        self.store = store
        self.signer = signer
        self.clock = clock
        self.min_interval_s = min_interval_s
        # The witness policy (TURNSTILE_WITNESS_POLICY), when there is one: checkpoints are served once cosigned by
        # its quorum (service/log/cosigning.py).
        self.witnessed: Witnessed | None = None

    @property
    def verifier(self) -> Verifier:
        """The public key checkpoints are signed with; Unsigned without one."""
        if self.signer is None:
            raise Unsigned("this server has no log key (TURNSTILE_LOG_KEY): its checkpoints are not signed")
        return self.signer.verifier()

    # ---- the sequencer ------------------------------------------------------------------------------

    def sequence(self, limit: int = BATCH) -> int | None:
        """Append the leaves of up to `limit` more events, signing a checkpoint when one is due; the tree's size
        (None: another sequencer holds the log)."""
        done = self.store.sequence_log(limit, None if self.signer is None else self._sign)
        return None if done is None else done[0]

    def catch_up(self, limit: int = BATCH) -> int | None:
        """Sequence until the tree holds every event below the horizon; the tree's size (None: another sequencer
        has the log)."""
        size = self.sequence(limit)
        while size is not None:
            after = self.sequence(limit)
            if after is None or after - size < limit:
                return after
            size = after
        return None

    def _sign(self, size: int, root: Hash, latest: LogCheckpoint | None) -> str | None:
        assert self.signer is not None
        now = self.clock()
        if latest is not None:
            elapsed = (now - datetime.fromisoformat(latest.signed_at)).total_seconds()
            if 0 <= elapsed < self.min_interval_s:
                return None
        stamp = iso(now.astimezone(UTC).replace(microsecond=0))[:-8] + "Z"
        return self.signer.sign(Checkpoint(self.signer.name, size, root, stamp).text())

    # ---- answers -------------------------------------------------------------------------------------

    def checkpoint(self) -> LogCheckpoint:
        """The newest signed checkpoint; Unsigned when there is none."""
        if self.signer is None:  # say so, rather than "none yet"
            raise Unsigned("this server has no log key (TURNSTILE_LOG_KEY): its checkpoints are not signed")
        latest = self.store.latest_checkpoint()
        if latest is None:
            raise Unsigned("no checkpoint has been signed yet: the log is empty or its sequencer has not run")
        return latest

    def consistency(self, old: int, new: int) -> list[Hash]:
        """The RFC 9162 consistency proof from the tree of `old` leaves to that of `new`."""
        if old < 1 or old > new:
            raise ProofRangeError(f"a consistency proof goes from a size of at least 1 to one no smaller (from={old},"
                                  f" to={new})")
        self._within(new)
        return self._hashes(consistency_ranges(old, new))

    def inclusion(self, match_id: str, version: int, size: int | None = None) -> InclusionProof:
        """The proof that event `version` of the match is in the tree of `size` leaves (None: the newest
        checkpoint's); NotSequenced when it is not a leaf of that tree."""
        if size is None:
            size = self.checkpoint().size
        self._within(size)
        leaf = self.store.log_leaf(match_id, version)
        if leaf is None or leaf.index >= size:
            raise NotSequenced(f"event {version} of match {match_id} is not in the tree of {size} leaves (it is "
                               "sequenced within about a second of its append)")
        return InclusionProof(leaf.index, size, self._hashes(inclusion_ranges(leaf.index, size)))

    def record_proof(self, match_id: str, version: int) -> LogProof | None:
        """What a record's header carries: the newest checkpoint and the inclusion proof of event `version` in its
        tree; None while that event is not in a signed tree (or there is no key). Under a witness policy, the newest
        checkpoint its quorum cosigned once that holds the event, with the cosignatures and the proof as a tlog-proof
        text too; until then, the newest signed checkpoint as without a policy."""
        if self.witnessed is not None:
            cosigned = self.witnessed.newest()
            if cosigned is not None:
                checkpoint, note = cosigned
                try:
                    proof = self.inclusion(match_id, version, checkpoint.size)
                except (NotSequenced, BeyondTree):
                    pass
                else:
                    offline = TlogProof(proof.leaf_index, tuple(proof.path), note).text()
                    return LogProof(checkpoint=note, leaf_index=proof.leaf_index, tree_size=proof.tree_size,
                                    inclusion=[h.hex() for h in proof.path], tlog_proof=offline)
        try:
            latest = self.checkpoint()
            proof = self.inclusion(match_id, version, latest.size)
        except (Unsigned, NotSequenced, BeyondTree):
            return None
        return LogProof(checkpoint=latest.note, leaf_index=proof.leaf_index, tree_size=proof.tree_size,
                        inclusion=[h.hex() for h in proof.path])

    def record_proofs(self, wanted: Sequence[tuple[str, int]],
                      leaves: dict[str, list[LogLeaf]]) -> list[LogProof | None]:
        """`record_proof` of each (match, version), for a page of records at once: the checkpoint (or the cosigned
        one) read once, and the inclusion paths folded from one read of the nodes they need. `leaves`: each match's
        leaves as the store holds them (`log_leaves_of_streams`)."""
        found: list[LogProof | None] = [None] * len(wanted)
        left = list(range(len(wanted)))
        if self.witnessed is not None:
            cosigned = self.witnessed.newest()
            if cosigned is not None:
                checkpoint, note = cosigned
                for i, proof in self._inclusions(wanted, left, leaves, checkpoint.size):
                    offline = TlogProof(proof.leaf_index, tuple(proof.path), note).text()
                    found[i] = LogProof(checkpoint=note, leaf_index=proof.leaf_index, tree_size=proof.tree_size,
                                        inclusion=[h.hex() for h in proof.path], tlog_proof=offline)
                left = [i for i in left if found[i] is None]
        if not left:
            return found
        try:
            latest = self.checkpoint()
        except Unsigned:
            return found
        for i, proof in self._inclusions(wanted, left, leaves, latest.size):
            found[i] = LogProof(checkpoint=latest.note, leaf_index=proof.leaf_index, tree_size=proof.tree_size,
                                inclusion=[h.hex() for h in proof.path])
        return found

    def _inclusions(self, wanted: Sequence[tuple[str, int]], which: list[int], leaves: dict[str, list[LogLeaf]],
                    size: int) -> list[tuple[int, InclusionProof]]:
        """The inclusion proofs in the tree of `size` leaves of the `which` entries of `wanted` that are leaves of
        it (none when the tree is smaller than `size`), from one read of their nodes."""
        if size > self.store.log_size():
            return []
        ranges: list[tuple[int, list[tuple[int, int]], int]] = []
        for i in which:
            match_id, version = wanted[i]
            leaf = next((x for x in leaves.get(match_id, ()) if x.version == version), None)
            if leaf is not None and leaf.index < size:
                ranges.append((i, inclusion_ranges(leaf.index, size), leaf.index))
        if not ranges:
            return []
        # A page's records end near each other in the log: their paths share most ranges, each folded once here.
        distinct = list(dict.fromkeys(r for _, each, _ in ranges for r in each))
        nodes = self.store.log_nodes(needed_nodes(distinct))
        folded = dict(zip(distinct, hash_ranges(distinct, nodes.__getitem__), strict=True))
        return [(i, InclusionProof(index, size, [folded[r] for r in each])) for i, each, index in ranges]

    def _within(self, size: int) -> None:
        tree = self.store.log_size()
        if size > tree:
            raise BeyondTree(size, tree)

    def _hashes(self, ranges: list[tuple[int, int]]) -> list[Hash]:
        nodes = self.store.log_nodes(needed_nodes(ranges))
        return hash_ranges(ranges, nodes.__getitem__)

def check_against_log(store: TransparencyStore, match_id: str, version: int, events: Sequence[StoredEvent],
                      from_version: int = 1, *, tail: bool = True) -> None:
    """RecordCorrupt unless the stored events read (from `from_version` up to the row's `version`) are those the
    transparency log holds (`log_disagreement`)."""
    reason = log_disagreement(store, match_id, version, events, from_version, tail=tail)
    if reason is not None:
        _corrupt(match_id, reason)


def log_disagreement(store: TransparencyStore, stream: str, version: int, events: Sequence[StoredEvent],
                     from_version: int = 1, *, tail: bool = True) -> str | None:
    """Why the stored events of a stream (a match's id, or "tournament:<id>"), read from `from_version` up to the
    row's `version`, are not those the transparency log holds, if so: a leaf of the stream from `from_version` on lies
    past the row's version (a tail cut off and the row rewritten to match; `tail` False skips this, for a row read from
    a lagging replica), or names a read event with another hash (an edit, a splice)."""
    return leaves_disagreement(store.log_leaves_of(stream, from_version), version, events, tail=tail)


def leaves_disagreement(leaves: Sequence[LogLeaf], version: int, events: Sequence[StoredEvent], *,
                        tail: bool = True) -> str | None:
    """`log_disagreement` with the stream's leaves already read (those from `from_version` on)."""
    stored = {e.version: e.hash for e in events}
    for leaf in leaves:
        if leaf.version > version and tail:
            return f"the transparency log holds event {leaf.version}, past the row's version {version}"
        if leaf.version in stored and stored[leaf.version] != leaf.hash:
            return f"event {leaf.version} is not the one the transparency log holds (hash {leaf.hash[:12]}…)"
    return None


def _corrupt(match_id: str, reason: str) -> NoReturn:
    log.critical("match %s: the stored record is corrupt (%s); refusing to serve or extend it", match_id, reason)
    raise RecordCorrupt(match_id, reason)


def leaf_hash_of(match_id: str, version: int, chain_hash: str) -> Hash:
    """The leaf hash of an event."""
    return leaf_hash(event_leaf(match_id, version, chain_hash))


class Sequencer:
    """Runs the log's sequencer on a thread of its own: woken after appends, and every second (so a checkpoint
    follows the last growth, and a sequencer killed elsewhere is taken over)."""

    def __init__(self, transparency: Transparency, interval_s: float = MIN_INTERVAL_S,
                 gather_s: float = GATHER_S) -> None:
        self.transparency = transparency
        self.interval_s = interval_s
        self.gather_s = gather_s
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="turnstile-sequencer", daemon=True)
        self.thread.start()

    def appended(self, _: str = "") -> None:
        """The log grew (a match service watcher)."""
        self.wake.set()

    def _run(self) -> None:
        while not self.stopping.is_set():
            self.wake.wait(self.interval_s)
            self.wake.clear()
            if self.stopping.is_set():
                return
            try:
                self.transparency.catch_up()
            except Exception:  # logged; the next round tries again from the stored state
                log.exception("sequencing the transparency log failed")
            self.stopping.wait(self.gather_s)  # appends meanwhile are sequenced together

    def close(self) -> None:
        """Stop the thread."""
        self.stopping.set()
        self.wake.set()
        self.thread.join(timeout=10)
