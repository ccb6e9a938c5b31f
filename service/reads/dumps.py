"""Monthly dumps: one gzip-compressed NDJSON file per game of the public matches a month ended, cut once, never
changed (issue 42).

A dump's lines are export lines (service/reads/exports.py): each holds a complete record with its log proof, so
every line is checkable with `turnstile verify`. Dumps follow the export's order (the log order of each match's end):
month M's dump starts after the cursor the previous dump was cut at and stops before the first match that ended on
or after the first instant of M+1, so a match whose end committed after M's dump was cut goes into the next one, and
no match is in two dumps or none. `manifest.json` names the month, both cursors, the transparency log's newest
signed checkpoint when cut, and each file's record count, size and SHA-256.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from service.reads.exports import Exports
from store.exports import ExportQuery

MONTH = re.compile(r"^[0-9]{4}-(0[1-9]|1[0-2])$")
MANIFEST = "manifest.json"


class DumpError(ValueError):
    """A dump that cannot be cut: a malformed month, a month not over, or one already cut."""


class DumpFile(msgspec.Struct, frozen=True):
    """One game's file of a dump."""

    game: str
    name: str
    records: int
    bytes: int
    sha256: str


class Manifest(msgspec.Struct, frozen=True, kw_only=True):
    """What a dump holds: its month, the export cursors it starts after and was cut at, the log's newest signed
    checkpoint then (None: no signed tree yet), and its files."""

    month: str
    after: int
    cut: int
    checkpoint: str | None
    files: list[DumpFile]


def month_end(month: str) -> datetime:
    """The first instant after `month` (YYYY-MM), UTC; DumpError if it is not a month."""
    if not MONTH.fullmatch(month):
        raise DumpError(f"{month!r} is not a month (YYYY-MM)")
    year, number = int(month[:4]), int(month[5:])
    return datetime(year + number // 12, number % 12 + 1, 1, tzinfo=UTC)


def manifests(folder: Path) -> Iterator[Manifest]:
    """The dumps cut in `folder`, by month (not the staging folders of cuts under way)."""
    for path in sorted(folder.glob(f"[0-9]*/{MANIFEST}")):
        yield msgspec.json.decode(path.read_bytes(), type=Manifest)


def cut(exports: Exports, folder: Path, month: str, now: datetime, checkpoint: str | None) -> Manifest:
    """Write the dump of `month` into `folder/<month>/` (atomically: a folder renamed into place) and return its
    manifest; DumpError for a month not yet over, or one cut already (a dump never changes)."""
    end = month_end(month)
    if now < end:
        raise DumpError(f"{month} is not over: a dump is cut once its month has ended")
    target = folder / month
    if target.exists():
        raise DumpError(f"the dump of {month} was cut already; a dump never changes")
    earlier = [m for m in manifests(folder) if m.month < month]
    later = [m.month for m in manifests(folder) if m.month > month]
    if later:
        raise DumpError(f"dumps are cut in order, and {later[0]} is cut already")
    after = earlier[-1].cut if earlier else 0
    position, by_game = after, dict[str, list[bytes]]()
    for finished, line in exports.checked(ExportQuery(), after, 2**62):  # a page checked at a time
        if datetime.fromisoformat(finished.ended_at.replace("Z", "+00:00")) >= end:
            break  # it and everything after it ended later: the next dump's
        position = finished.position
        if line is not None:
            by_game.setdefault(finished.match.game, []).append(line)
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{month}.", dir=folder))  # one of its own: two cuts at once never mix
    files = []
    for game, lines in sorted(by_game.items()):
        data = gzip.compress(b"".join(lines), mtime=0)  # mtime 0: the same records make the same bytes
        name = f"{game}-{month}.ndjson.gz"
        (staging / name).write_bytes(data)
        files.append(DumpFile(game=game, name=name, records=len(lines), bytes=len(data),
                              sha256=hashlib.sha256(data).hexdigest()))
    manifest = Manifest(month=month, after=after, cut=position, checkpoint=checkpoint, files=files)
    (staging / MANIFEST).write_bytes(msgspec.json.format(msgspec.json.encode(manifest)) + b"\n")
    try:
        os.rename(staging, target)  # atomic; refused when another cut of the month got there first
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        raise DumpError(f"the dump of {month} was cut already; a dump never changes") from None
    return manifest
