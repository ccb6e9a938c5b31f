"""The log's tree and entries as C2SP tlog-tiles serves them (ledger/tiles.py), read from the stored perfect
subtrees: one read per tile.

An entry is the leaf data of ledger/merkle.py's `event_leaf` — UTF-8 "<stream>\\n<version>\\n<chain hash>" — so
SHA-256(0x00 ‖ entry) is the leaf hash the level-0 tile holds. A stream's id is what reads an unlisted match, and a
private match or tournament exists only for those who may read it: an entry bundle that would name one is withheld
(`EntriesWithheld`); the level-0 tile of the same leaves, hashes only, is served.
"""

from __future__ import annotations

from ledger.merkle import event_leaf
from ledger.tiles import Tile, bundle
from service.errors import ServiceError
from service.log.transparency import BeyondTree
from store.transparency import TransparencyStore

# Sizes are signed 64-bit in both stores: a tile whose first hash lies past that is beyond any tree.
MAX_INDEX = 2**63 - 1


class EntriesWithheld(ServiceError):
    """An entry bundle holding an entry of a stream that is not public."""

    code = "entries-withheld"
    kind = "forbidden"


def tile_data(store: TransparencyStore, tile: Tile) -> bytes:
    """The tile's hashes, concatenated; BeyondTree when the tree does not have them (yet)."""
    first = tile.first
    if first + tile.width > MAX_INDEX >> tile.tree_level:
        raise BeyondTree(_leaves(tile), store.log_size())
    hashes = store.log_level(tile.tree_level, first, tile.width)
    if len(hashes) < tile.width:
        raise BeyondTree(_leaves(tile), store.log_size())
    return b"".join(hashes)


def entry_bundle(store: TransparencyStore, tile: Tile) -> bytes:
    """The entries whose leaf hashes make the level-0 tile of the same index and width; BeyondTree when the tree
    does not have them, EntriesWithheld when one is of an unlisted or private stream."""
    if tile.first + tile.width > MAX_INDEX:
        raise BeyondTree(_leaves(tile), store.log_size())
    entries = store.log_entries(tile.first, tile.width)
    if len(entries) < tile.width:
        raise BeyondTree(_leaves(tile), store.log_size())
    hidden = sum(e.visibility != "public" for e in entries)
    if hidden:
        raise EntriesWithheld(f"{hidden} of these {tile.width} entries are events of unlisted or private matches or "
                              f"tournaments, whose ids are not published; tile/0/{tile.path().split('/', 2)[2]} "
                              "holds their leaf hashes")
    return bundle([event_leaf(e.stream, e.version, e.hash) for e in entries])


def _leaves(tile: Tile) -> int:
    """The least tree size that holds the tile: what BeyondTree says was asked for."""
    return (tile.first + tile.width) << tile.tree_level
