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


class ExportStore(Protocol):
    """Finished matches in the order a resumable export needs."""

    def finished_matches(self, query: ExportQuery, after: int = 0, limit: int = 200) -> list[Finished]:
        """Up to `limit` finished matches whose `match.ended` event comes after the event at position `after` in
        the log's order (read_all's: commit order, below the horizon), in that order."""
        ...

    def events_of(self, match_ids: Sequence[str]) -> dict[str, list[StoredEvent]]:
        """The events of these matches, each match's in version order (one read: an export page's records)."""
        ...
