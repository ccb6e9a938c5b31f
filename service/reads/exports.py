"""Open data: the bulk export of finished matches as NDJSON, one complete record per line, resumable (issue 42).

Each line is `{"cursor": "<c>", "record": "<the record's NDJSON text>"}`: `record` is, byte for byte, what
`GET /v1/matches/{id}/export` gives for the finished match and what `turnstile verify` and `POST /v1/verifications`
take (that body accepts the line as it is); `cursor` is where to resume after that line (`after=<c>`). Matches come
in the log order of the event that ended them, which is commit order below the log's horizon: a match that finishes
while an export runs ends after every line already sent, so a client that resumes from the last whole line it
received gets every match exactly once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import msgspec

from domain.lifecycle import is_bot
from ledger.records import Record, encode_record
from service.reads.audit import Audit, PageRead
from store.base import RecordCorrupt
from store.exports import ExportQuery, ExportStore, Finished

log = logging.getLogger("turnstile.exports")

CURSOR_PATTERN = r"^[0-9]{1,18}$"  # the log position of the `match.ended` event of the line's match
_CURSOR = re.compile(CURSOR_PATTERN)
PAGE = 100  # finished matches read per query


class ExportLine(msgspec.Struct, frozen=True):
    """One line of an export: where to resume after it, and the match's complete record as NDJSON text."""

    cursor: str
    record: str


def cursor_position(cursor: str | None) -> int | None:
    """The log position a cursor stands for (0 without one); None when it is not a cursor."""
    if cursor is None:
        return 0
    return int(cursor) if _CURSOR.fullmatch(cursor) else None


def with_bots(finished: Finished, bot: bool | None) -> bool:
    """Whether the match passes the `bot` filter (None: any; True: some seat is a bot's; False: none is)."""
    return bot is None or any(is_bot(seat.player) for seat in finished.match.seats) == bot


class Exports:
    """Finished matches of a store as export lines, built by the auditor (so each carries its log proof)."""

    def __init__(self, store: ExportStore, auditor: Audit, page: int = PAGE) -> None:
        self.store = store
        self.auditor = auditor
        self.page = page

    def pages(self, query: ExportQuery, after: int, limit: int, bot: bool | None = None) -> Iterator[list[Finished]]:
        """Up to `limit` finished matches of `query` (and the `bot` filter) after position `after`, in log order, a
        page (one read) at a time; with a time range, inside the stretch of the log that holds it (`ExportSpan`)."""
        span = None
        if query.since is not None or query.until is not None:  # read once: a page stays a cost of the page
            span = self.store.export_span(query, after)
            after = span.start
        left = limit
        while left > 0:
            batch = self.store.finished_matches(query, after, self.page, span)
            kept = [finished for finished in batch if with_bots(finished, bot)][:left]
            if kept:
                yield kept
                left -= len(kept)
            if len(batch) < self.page:
                return
            after = batch[-1].position

    def finished(self, query: ExportQuery, after: int, limit: int, bot: bool | None = None) -> Iterator[Finished]:
        """Up to `limit` finished matches of `query` (and the `bot` filter) after position `after`, in log order."""
        for page in self.pages(query, after, limit, bot):
            yield from page

    def line(self, finished: Finished) -> bytes | None:
        """The export line of a finished match (with its newline); None when its stored record is damaged."""
        return self._line(finished, self._record(finished))

    def _record(self, finished: Finished) -> Record | RecordCorrupt:
        try:
            return self.auditor.export(finished.match.id, None)
        except RecordCorrupt as exc:
            return exc

    def _line(self, finished: Finished, record: Record | RecordCorrupt) -> bytes | None:
        if isinstance(record, RecordCorrupt):  # never served (the operator's `turnstile verify --match` inspects it)
            log.error("export: left out match %s, its stored record is damaged: %s", record.match_id, record.reason)
            return None
        line = ExportLine(cursor=str(finished.position), record=encode_record(record).decode())
        return msgspec.json.encode(line) + b"\n"

    def lines(self, query: ExportQuery, after: int, limit: int, bot: bool | None = None) -> Iterator[bytes]:
        """The export's NDJSON lines (each ending in a newline), up to `limit` records; each page's records checked
        and proved together (`Audit.export_page`)."""
        for page in self._page_lines(query, after, limit, bot):
            yield from page

    def chunks(self, query: ExportQuery, after: int, limit: int, bot: bool | None = None) -> Iterator[bytes]:
        """The same bytes as `lines`, a page's lines in one chunk (what the route streams: one send a page)."""
        for page in self._page_lines(query, after, limit, bot):
            if page:
                yield b"".join(page)

    def checked(self, query: ExportQuery, after: int, limit: int,
                bot: bool | None = None) -> Iterator[tuple[Finished, bytes | None]]:
        """Each finished match with its line (None: its stored record is damaged, left out), a page's records checked
        and proved together."""
        for page in self._checked_pages(query, after, limit, bot):
            yield from page

    def _checked_pages(self, query: ExportQuery, after: int, limit: int,
                       bot: bool | None) -> Iterator[list[tuple[Finished, bytes | None]]]:
        """Each page's matches with their lines. On a database server the next page is read (`Audit.read_page`) by a
        thread of its own while this one is checked, so the server's work overlaps the checking's instead of adding to
        it; on SQLite, whose driver gives up the GIL at every row, reading ahead was slower and is not done."""
        pages = self.pages(query, after, limit, bot)

        def read_next() -> tuple[list[Finished], PageRead] | None:
            page = next(pages, None)
            return None if page is None else (page, self.auditor.read_page(self.store, [f.match for f in page]))

        if getattr(self.store, "one_writer", True):
            while (read := read_next()) is not None:
                yield self._lines_of(*read)
            return
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="export-read-ahead") as reader:
            ahead = reader.submit(read_next)
            while (read := ahead.result()) is not None:
                ahead = reader.submit(read_next)
                yield self._lines_of(*read)

    def _lines_of(self, page: list[Finished], read: PageRead) -> list[tuple[Finished, bytes | None]]:
        records = self.auditor.export_page(read)
        return [(finished, self._line(finished, record)) for finished, record in zip(page, records, strict=True)]

    def _page_lines(self, query: ExportQuery, after: int, limit: int, bot: bool | None) -> Iterator[list[bytes]]:
        for page in self._checked_pages(query, after, limit, bot):
            yield [line for _, line in page if line is not None]
