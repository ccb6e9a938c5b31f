"""The log as C2SP tlog-tiles: its checkpoint as a plain signed note, its tree as tiles, its entries as bundles.

The prefix is /v1/log/tiles (GET /v1/log/checkpoint stays the JSON answer it has always been): a tile client is
pointed at `<server>/v1/log/tiles` and fetches `checkpoint`, `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`
under it. Full tiles never change and are cached for a year; partial ones for a minute.
"""

from __future__ import annotations

import gzip
from typing import Annotated, Any

from litestar import Controller, Request, Response, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Parameter

from api.deps import Log
from api.problem_codes import problem_responses
from api.problems import ApiError
from api.routes.log import log_answer, served_checkpoint
from ledger.tiles import Tile, TilePathError, parse_tile_path
from service.log.tiles import entry_bundle, tile_data

OCTETS = "application/octet-stream"
NOTE = "text/plain"  # Litestar adds "; charset=utf-8"
IMMUTABLE = "public, max-age=31536000, immutable"
PARTIAL = "public, max-age=60"  # a partial tile's bytes never change, but the spec lets a log drop it once full
CHECKPOINT_CACHE = "public, max-age=1"  # the spec: no caching beyond a few seconds
# The spellings the parser takes, for the schema only (a path it refuses is 400 `bad-tile-path`, not a validation
# error): no leading x000 group, a width of 1 to 255 without leading zeros.
INDEX_PATTERN = (r"^(x(00[1-9]|0[1-9][0-9]|[1-9][0-9]{2})/(x[0-9]{3}/){0,5})?[0-9]{3}"
                 r"(\.p/([1-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5]))?$")
TILE_PATH = Parameter(description="`<N>[.p/<W>]`: the tile's index in groups of three digits, all but the last "
                                  "prefixed with `x` (1234067 is `x001/x234/067`); `.p/<W>` a partial tile of W "
                                  "(1 to 255) hashes", schema_extra={"pattern": INDEX_PATTERN})

LEVEL = Parameter(description="L: 0 to 63, no leading zeros; a level-L hash covers 256**L leaves",
                  schema_extra={"pattern": "^([0-9]|[1-5][0-9]|6[0-3])$"})


def _octets(description: str) -> dict[int, Any]:
    return {200: ResponseSpec(data_container=bytes, media_type=OCTETS, generate_examples=False,
                              description=description)}


def _tile(path: str) -> Tile:
    try:
        return parse_tile_path(path)
    except TilePathError as exc:
        raise ApiError(400, "bad-tile-path", str(exc)) from None


def _served(tile: Tile, read: Any, gzipped: bool = False) -> Response[bytes]:
    headers = {"Cache-Control": IMMUTABLE if tile.full else PARTIAL}
    body = log_answer(read)
    if gzipped:
        body, headers["Content-Encoding"] = gzip.compress(body, mtime=0), "gzip"  # mtime 0: the same bytes each time
    return Response(body, media_type=OCTETS, headers=headers)


def takes_gzip(request: Request[Any, Any, Any]) -> bool:
    """Whether the client's Accept-Encoding names gzip (or *) without q=0."""
    for item in (request.headers.get("accept-encoding") or "").lower().split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip() in ("gzip", "*") and params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            return True
    return False


class TilesController(Controller):
    """The log's checkpoint, tree and entries as static resources any cache or mirror can keep (C2SP tlog-tiles)."""

    path = "/v1/log/tiles"
    tags = ["transparency log"]

    @get("/checkpoint", summary="The log's newest checkpoint, as a signed note", operation_id="getLogTilesCheckpoint",
         sync_to_thread=True, media_type=NOTE, responses=problem_responses("log-not-signed", "log-not-cosigned"))
    def checkpoint(self, log: Log) -> Response[str]:
        """The newest signed checkpoint as C2SP tlog-checkpoint text (origin, size, base64 root hash, time; a blank
        line; the signature lines): the `checkpoint` field of `GET /v1/log/checkpoint`, as a tile client reads it —
        under a witness policy the newest one its quorum cosigned, with their cosignature lines."""
        return Response(served_checkpoint(log)[1], media_type=NOTE, headers={"Cache-Control": CHECKPOINT_CACHE})

    @get("/tile/entries/{index:path}", summary="An entry bundle", operation_id="getLogEntryBundle",
         sync_to_thread=True, media_type=OCTETS,
         responses=_octets("The entries of leaves N·256 on, each a big-endian uint16 length and the entry; an entry is "
                           "UTF-8 `<stream>\\n<version>\\n<event chain hash>`, its leaf hash SHA-256(0x00 ‖ entry)")
         | problem_responses("bad-tile-path", "entries-withheld", "beyond-tree"))
    def entries(self, request: Request[Any, Any, Any], log: Log,
                index: Annotated[str, TILE_PATH]) -> Response[bytes]:
        """The entries whose leaf hashes make level-0 tile N: each event's stream (a match's id, or
        `tournament:<id>`), version and chain hash. A bundle holding an event of an unlisted or private match or
        tournament is 403 `entries-withheld` (its id is how it is read, or hidden); beyond the tree, 404
        `beyond-tree`. Gzipped (`Content-Encoding: gzip`) for a client whose Accept-Encoding names gzip."""
        tile = _tile("entries/" + index.lstrip("/"))
        answer = _served(tile, lambda: entry_bundle(log.store, tile), takes_gzip(request))
        answer.headers["Vary"] = "Accept-Encoding"
        return answer

    @get("/tile/{level:str}/{index:path}", summary="A tile of the log's Merkle tree", operation_id="getLogTile",
         sync_to_thread=True, media_type=OCTETS,
         responses=_octets("W (256 when full) hashes of 32 bytes: those of tree level 8·L from N·256 on")
         | problem_responses("bad-tile-path", "beyond-tree"))
    def tile(self, log: Log, level: Annotated[str, LEVEL], index: Annotated[str, TILE_PATH]) -> Response[bytes]:
        """Tile N of level L: the RFC 9162 hashes MTH(D[(N·256 + i)·256**L : (N·256 + i + 1)·256**L]), i from 0 to
        W - 1, concatenated; level 0 holds leaf hashes. Beyond the tree (a width it does not have yet), 404
        `beyond-tree`."""
        tile = _tile(f"{level}/{index.lstrip('/')}")
        return _served(tile, lambda: tile_data(log.store, tile))
