"""The log as C2SP tlog-tiles serves it: paths, tile shapes and entry bundles; pure, no I/O.

A tile at level L, index N is up to 256 consecutive hashes of tree level 8·L (ledger/merkle.py's perfect subtrees of
256**L leaves) from subtree N·256 on; level-0 tiles hold leaf hashes. Its path is `tile/<L>/<N>`, N written in
groups of three digits, all but the last prefixed with `x` (1234067 is `x001/x234/067`); the rightmost tile of a
level, while it has fewer than 256 hashes, is `tile/<L>/<N>.p/<W>`. An entry bundle, `tile/entries/<N>[.p/<W>]`,
holds the entries whose leaf hashes make the level-0 tile N, each as a big-endian uint16 length and its bytes.
Every path has one spelling: the parser takes only what `Tile.path` writes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

HEIGHT = 8  # tree levels a tile spans
WIDTH = 1 << HEIGHT  # hashes in a full tile
HASH_SIZE = 32
MAX_LEVEL = 63  # the spec's bound on <L>
MAX_ENTRY = 0xFFFF  # an entry's length is a uint16
_GROUP = re.compile(r"x[0-9]{3}")
_LAST = re.compile(r"[0-9]{3}")
MAX_PATH = 100  # an index of 20 groups is far past any tree (2**63 leaves has 7)
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,3}")  # no leading zeros; small numbers only (levels, widths)


class TilePathError(ValueError):
    """A tile path not spelled as tlog-tiles writes it."""


@dataclass(frozen=True)
class Tile:
    """A tile of hashes (`level` 0..63) or, `level` None, an entry bundle; `width` 256 when full."""

    level: int | None
    index: int
    width: int = WIDTH

    @property
    def full(self) -> bool:
        """Whether the tile holds all 256 of its hashes (immutable once it exists)."""
        return self.width == WIDTH

    @property
    def tree_level(self) -> int:
        """The level of ledger/merkle.py's perfect subtrees the tile's hashes are (entry bundles: leaves, 0)."""
        return HEIGHT * (self.level or 0)

    @property
    def first(self) -> int:
        """The index, within its tree level, of the tile's first hash."""
        return self.index * WIDTH

    def path(self) -> str:
        """`tile/<L>/<N>[.p/<W>]` or `tile/entries/<N>[.p/<W>]`."""
        kind = "entries" if self.level is None else str(self.level)
        return f"tile/{kind}/{encode_index(self.index)}" + ("" if self.full else f".p/{self.width}")


def encode_index(index: int) -> str:
    """N as tlog-tiles writes it: zero-padded groups of three digits, all but the last prefixed with `x`."""
    if index < 0:
        raise ValueError(f"a tile index is not negative ({index})")
    groups = [f"{index % 1000:03d}"]
    while index >= 1000:
        index //= 1000
        groups.append(f"x{index % 1000:03d}")
    return "/".join(reversed(groups))


def parse_tile_path(path: str) -> Tile:
    """The tile a path after `tile/` names (`0/x001/234`, `1/000.p/17`, `entries/005`); TilePathError otherwise."""
    if len(path) > MAX_PATH:
        raise TilePathError(f"a tile path is at most {MAX_PATH} characters")
    parts = path.split("/")
    if len(parts) < 2:
        raise TilePathError(f"{path!r} is not <L>/<N>[.p/<W>] nor entries/<N>[.p/<W>]")
    kind, groups = parts[0], parts[1:]
    width = WIDTH
    if len(groups) >= 2 and groups[-2].endswith(".p"):
        width = _decimal(groups[-1], "width")
        if not 1 <= width < WIDTH:
            raise TilePathError(f"a partial tile's width is 1 to {WIDTH - 1}, not {width}")
        groups = [*groups[:-2], groups[-2].removesuffix(".p")]
    if not all(_GROUP.fullmatch(g) for g in groups[:-1]) or not _LAST.fullmatch(groups[-1]):
        raise TilePathError(f"{'/'.join(groups)!r} is not an index in groups of three digits, all but the last "
                            "prefixed with x")
    index = int("".join(g.removeprefix("x") for g in groups))
    if kind == "entries":
        level = None
    else:
        level = _decimal(kind, "level")
        if level > MAX_LEVEL:
            raise TilePathError(f"a tile's level is 0 to {MAX_LEVEL}, not {level}")
    tile = Tile(level, index, width)
    if tile.path() != "tile/" + path:  # e.g. a leading x000 group: one spelling per tile
        raise TilePathError(f"{path!r} is not written as tlog-tiles writes it ({tile.path()!r})")
    return tile


def _decimal(text: str, what: str) -> int:
    if not _DECIMAL.fullmatch(text):
        raise TilePathError(f"the {what} {text!r} is not a decimal number without leading zeros")
    return int(text)


def bundle(entries: Sequence[bytes]) -> bytes:
    """An entry bundle: each entry as a big-endian uint16 length, then its bytes."""
    out = bytearray()
    for entry in entries:
        if len(entry) > MAX_ENTRY:
            raise ValueError(f"an entry of {len(entry)} bytes does not fit a bundle's uint16 length")
        out += len(entry).to_bytes(2, "big") + entry
    return bytes(out)
