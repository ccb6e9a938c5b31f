"""The transparency log's half of the store: the vocabulary and the protocol both SQL adapters fulfil.

The log is one RFC 9162 Merkle tree (ledger/merkle.py) over every event in global log order (the order
`read_all` gives). A single sequencer at a time appends leaves for events below the log's visibility horizon and
stores every perfect subtree, so any proof is one read of O(log n) nodes; signed checkpoints are stored beside
(service/log/transparency.py signs them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import msgspec

from ledger.merkle import Hash, Node


class LogCheckpoint(msgspec.Struct, frozen=True):
    """A signed checkpoint as stored: the tree size, its root, and the signed-note text."""

    size: int
    root: bytes
    note: str
    signed_at: str


# gc=False: it holds only strings, numbers and JSON data (no cycle), and an export makes thousands a page; left
# out of the collector's counts, they no longer bring on collections that walk them (issue 42).
class LogLeaf(msgspec.Struct, frozen=True, gc=False):
    """Where an event sits in the tree: its leaf index, and the chain hash the leaf was made of."""

    index: int
    match_id: str
    version: int
    hash: str


class LogEntry(msgspec.Struct, frozen=True):
    """A leaf as an entry bundle serves it: its index, the event it was made of, and its stream's visibility
    (`public`, `unlisted`, `private`; None when the stream has no row any more)."""

    index: int
    stream: str
    version: int
    hash: str
    visibility: str | None


# Called inside the sequencer's transaction with the tree's (size, root) and the latest checkpoint: the note to
# store as the new checkpoint, or None (none due yet).
Signer = Callable[[int, Hash, "LogCheckpoint | None"], "str | None"]


class TransparencyStore(Protocol):
    """The tree's leaves, nodes and checkpoints."""

    def sequence_log(self, limit: int = 1000, sign: Signer | None = None) -> tuple[int, Hash] | None:
        """Append leaves for up to `limit` events the log holds after the last one taken, in one transaction; then,
        if `sign` gives a note, store it as a checkpoint of the new tree. (size, root) of the tree after it; None
        when another sequencer holds the log (it will take these events)."""
        ...

    def log_size(self) -> int:
        """How many leaves the tree has."""
        ...

    def log_nodes(self, nodes: Sequence[Node]) -> dict[Node, Hash]:
        """The stored perfect subtrees among `nodes` (one read)."""
        ...

    def log_leaf(self, match_id: str, version: int) -> LogLeaf | None:
        """The leaf of an event, or None (not sequenced yet)."""
        ...

    def log_level(self, level: int, first: int, count: int) -> list[Hash]:
        """The stored perfect subtrees of `level` from index `first` on, at most `count`, in index order (one read;
        those of a level are stored from index 0 on without a gap, so this is every one there is in the range)."""
        ...

    def log_entries(self, first: int, count: int) -> list[LogEntry]:
        """Leaves `first` to `first + count - 1` (those there are), in index order, with their streams' visibility
        (one read)."""
        ...

    def log_leaves_of(self, match_id: str, from_version: int = 1) -> list[LogLeaf]:
        """The leaves of a match's events from `from_version` on, in version order."""
        ...

    def log_leaves_of_streams(self, streams: Sequence[str]) -> dict[str, list[LogLeaf]]:
        """The leaves of each of these streams' events, each stream's in version order (one read)."""
        ...

    def latest_checkpoint(self) -> LogCheckpoint | None:
        """The newest signed checkpoint, or None."""
        ...

    def checkpoint_at(self, size: int) -> LogCheckpoint | None:
        """The signed checkpoint of the tree of `size` leaves, or None."""
        ...

    def witness_sizes(self) -> dict[str, int]:
        """Per witness (its name in the policy), the size it last cosigned or said it did."""
        ...

    def set_witness_size(self, witness: str, size: int) -> None:
        """Remember `size` as the one `witness` last cosigned (a 409's answer)."""
        ...

    def add_cosignature(self, witness: str, size: int, line: str) -> None:
        """Keep `witness`'s cosignature line of the checkpoint of `size`, and `size` as the one it last cosigned."""
        ...

    def claim_cosigner(self, holder: str, now_s: float, lease_s: float) -> bool:
        """Whether `holder` collects cosignatures until `now_s + lease_s` (it held the lease, or it had expired)."""
        ...

    def cosigned_checkpoints(self, limit: int = 16, above: int = 0,
                             below: int | None = None) -> list[tuple[LogCheckpoint, list[str]]]:
        """The newest `limit` checkpoints with a cosignature sized between `above` and `below` (exclusive), newest
        first, each with its cosignature lines."""
        ...
