"""Monthly dumps over HTTP: the list of manifests and each file, with range requests and immutable caching."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import msgspec
from litestar import Controller, Response, get
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter

from api.problem_codes import problem_responses
from api.problems import ApiError
from service.reads.dumps import Manifest, manifests

IMMUTABLE = "public, max-age=31536000, immutable"  # a dump never changes once cut
RANGE_TAKES = ("One byte range (`bytes=0-1023`, `bytes=1024-`, `bytes=-512`): 206 with that part; several ranges or "
               "a malformed one: the whole file")
_RANGE = re.compile(r"^bytes=([0-9]{0,18})-([0-9]{0,18})$")


# The files are gzip NDJSON, served as bytes: `application/gzip` is the truer name, but client generators
# (openapi-python-client) drop an operation answering a content type they do not know; the name says `.ndjson.gz`.
GZIP_FILE = "application/octet-stream"

class DumpFolder(msgspec.Struct, frozen=True):
    """Where the monthly dumps are kept (TURNSTILE_DUMPS_DIR; None: this server publishes none)."""

    path: str | None


DumpsAt = NamedDependency[DumpFolder]


class DumpList(msgspec.Struct, frozen=True):
    """Every dump cut, by month; a file is at `/v1/dumps/{month}/{name}`."""

    items: list[Manifest]


def byte_range(header: str | None, size: int) -> tuple[int, int] | None:
    """The (first, last) bytes of a single `Range: bytes=…` (None: no range, or one this server ignores as RFC 9110
    allows, e.g. several ranges); 416 `range-not-satisfiable` for a range past the end."""
    found = _RANGE.fullmatch(header.strip()) if header else None
    if found is None or found.group(1) == found.group(2) == "":
        return None
    first, last = found.group(1), found.group(2)
    if first == "":  # the last N bytes
        start, end = max(0, size - int(last)), size - 1
    else:
        start, end = int(first), min(size - 1, int(last)) if last else size - 1
    if start >= size or start > end or (first == "" and int(last) == 0):
        raise ApiError(416, "range-not-satisfiable", f"the file has {size} bytes: no byte of this range is in it")
    return start, end


class DumpsController(Controller):
    """Monthly dumps of the public finished matches."""

    path = "/v1/dumps"
    tags = ["open data"]

    @get("/", summary="List the monthly dumps", operation_id="listDumps", sync_to_thread=True,
         responses=problem_responses())
    def list_dumps(self, dumps: DumpsAt) -> DumpList:
        """Every dump cut (`turnstile dump --month`), by month: its files with their record counts, sizes and
        SHA-256, the export cursors it starts after and was cut at, and the log's checkpoint when it was cut."""
        return DumpList(items=[] if dumps.path is None else list(manifests(Path(dumps.path))))

    @get("/{month:str}/{name:str}", summary="A dump file (gzip NDJSON)", operation_id="getDumpFile",
         sync_to_thread=True, media_type=GZIP_FILE, status_code=200,
         responses=problem_responses("unknown-dump", "range-not-satisfiable"),
         response_headers=[ResponseHeader(name="Cache-Control", documentation_only=True, description=IMMUTABLE),
                           ResponseHeader(name="ETag", documentation_only=True, description="The file's SHA-256"),
                           ResponseHeader(name="Accept-Ranges", documentation_only=True, description="bytes")])
    def dump_file(self, month: FromPath[str], name: FromPath[str], dumps: DumpsAt,
                  range_: Annotated[str | None, HeaderParameter(name="Range", required=False, max_length=100,
                                                                description=RANGE_TAKES)] = None) -> Response[bytes]:
        """One file of a dump, as its manifest lists it; it never changes, so it may be cached for good. A `Range`
        of one byte range answers 206 with that part (`Content-Range`), so a download resumes."""
        found = None if dumps.path is None else next(
            ((m, f) for m in manifests(Path(dumps.path)) if m.month == month for f in m.files if f.name == name), None)
        if found is None or dumps.path is None:  # only names a manifest lists: no path is built from the request
            raise ApiError(404, "unknown-dump", f"no dump file {month!r}/{name!r}")
        manifest, file = found
        data = (Path(dumps.path) / manifest.month / file.name).read_bytes()
        headers = {"Cache-Control": IMMUTABLE, "ETag": f'"{file.sha256}"', "Accept-Ranges": "bytes"}
        part = byte_range(range_, len(data))
        if part is None:
            return Response(data, media_type=GZIP_FILE, headers=headers)
        start, end = part
        return Response(data[start:end + 1], status_code=206, media_type=GZIP_FILE,
                        headers={**headers, "Content-Range": f"bytes {start}-{end}/{len(data)}"})
