"""The bulk export's port: finished matches in the log order of the event that ended them (issue 42)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

import msgspec

from ledger.events import MatchRecord, StoredEvent


class ExportQuery(msgspec.Struct, frozen=True, kw_only=True):
    """Which finished matches an export holds: public ones, and with `app` that app's own of any visibility too;
    `since` <= end time < `until`; a game, an edition (`rules_version`) and a seated player when given."""

    app: str | None = None
    game: str | None = None
    edition: str | None = None
    player: str | None = None
    since: datetime | None = None
    until: datetime | None = None


class Finished(msgspec.Struct, frozen=True):
    """A finished match and its end: the log position and the time of its `match.ended` event."""

    position: int
    ended_at: str
    match: MatchRecord


class ExportSpan(msgspec.Struct, frozen=True):
    """Where the `match.ended` events inside an export's time range lie in the log order, read once per request
    (`ExportStore.export_span`) so that its pages walk that stretch of the log and not the whole of it.

    `start` is a cursor just before the first of them after the request's own cursor (the request's own when there
    is none), `last` the position of the last of them (None: none). Both are among the events the store had settled
    when it read them (`settled`, its own mark: PostgreSQL's horizon transaction, SQLite's head position); an event
    settled later may still fall in the range (`recorded_at` is the appender's clock, not commit order), so the pages
    read the unsettled events after `last` as well, as a request without a span would."""

    start: int
    last: int | None
    settled: int


class ExportStore(Protocol):
    """Finished matches in the order a resumable export needs."""

    def export_span(self, query: ExportQuery, after: int = 0) -> ExportSpan:
        """The stretch of the log order holding the ended events of `query`'s time range (`since`, `until`) after the
        event at position `after` (an index range scan of the range: its cost is the range's, not the log's)."""
        ...

    def finished_matches(self, query: ExportQuery, after: int = 0, limit: int = 200,
                         span: ExportSpan | None = None) -> list[Finished]:
        """Up to `limit` finished matches whose `match.ended` event comes after the event at position `after` in
        the log's order (read_all's: commit order, below the horizon), in that order; with the `span` of `query` (read
        at or before `after`), only those inside it or not yet settled when it was read."""
        ...

    def events_of(self, match_ids: Sequence[str]) -> dict[str, list[StoredEvent]]:
        """The events of these matches, each match's in version order (one read: an export page's records)."""
        ...
