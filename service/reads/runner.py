"""Runs projections: folds the global log from each checkpoint, in batches, one transaction a batch."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ledger.events import StoredEvent
from projections.catalog import PROJECTIONS
from projections.common import MATCH
from projections.log import LogEntry, Projection, ProjectionError
from store.base import EventStore
from store.read_models import Checkpoint, DocChange, ReadModelBatch, ReadModelStore

log = logging.getLogger("turnstile.projections")
BATCH = 500



class RunnerStore(EventStore, ReadModelStore, Protocol):
    """The runner's port: the global log it folds, and the read models and checkpoints it writes."""


class StagedDocs:
    """Documents read through a batch, written in memory until the batch commits.

    A committed document is read from the store once a batch: the batch holds its projection's checkpoint, so no one
    else writes its documents meanwhile (a projection reads its match's document at every event of that match).
    `ahead` names kinds whose documents the batch will likely read, with their keys (every projection reads the
    `match` document of the batch's matches): the first read of such a kind reads them all in one statement."""

    def __init__(self, batch: ReadModelBatch, ahead: dict[str, Sequence[str]] | None = None) -> None:
        self.batch = batch
        self.changes: dict[tuple[str, str], DocChange] = {}
        self.committed: dict[tuple[str, str], dict[str, Any] | None] = {}
        self.ahead = dict(ahead or {})

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The staged document, else the committed one; a copy of either: projections change what they get in place
        before they put it, and an event a projection refuses must leave what is staged as it was."""
        staged = self.changes.get((kind, key))
        if staged is not None:
            return None if staged.doc is None else dict(staged.doc)
        if (kind, key) not in self.committed and kind in self.ahead:
            keys = [k for k in dict.fromkeys([*self.ahead.pop(kind), key]) if (kind, k) not in self.committed]
            found = self.batch.get_many(kind, keys)
            self.committed.update(((kind, k), found.get(k)) for k in keys)
        if (kind, key) not in self.committed:
            self.committed[(kind, key)] = self.batch.get(kind, key)
        doc = self.committed[(kind, key)]
        return None if doc is None else dict(doc)

    def put(self, kind: str, key: str, doc: dict[str, Any], *, group: str = "", rank: float = 0.0) -> None:
        """Stage a write."""
        self.changes[(kind, key)] = DocChange(kind=kind, key=key, doc=doc, group=group, rank=rank)

    def delete(self, kind: str, key: str) -> None:
        """Stage a delete."""
        self.changes[(kind, key)] = DocChange(kind=kind, key=key, doc=None)


def log_entry(event: StoredEvent) -> LogEntry:
    """A stored event as projections read it."""
    return LogEntry(position=event.position, match_id=event.match_id, version=event.version, type=event.type,
                    payload=event.payload, seat=event.seat, command_id=event.command_id,
                    recorded_at=event.recorded_at)


class LogPages:
    """The global log as one catch-up reads it: the projections advance in step, so each stretch is read once.

    `read_all` only returns events below the transaction horizon, which are final and in final order, so a stretch
    read for one projection is what the log holds there for the next; reading further only adds events after it.
    """

    def __init__(self, store: RunnerStore, keep: int = 4 * BATCH) -> None:
        self.store = store
        self.keep = keep
        self.start = -1  # `events` are the log's events right after the event at position `start`
        self.events: list[LogEntry] = []
        self.index: dict[int, int] = {}  # position -> index in events

    def read(self, after: int, limit: int) -> list[LogEntry]:
        """Up to `limit` entries after the event at position `after`, as `store.read_all` gives them."""
        if after == self.start:
            first = 0
        elif after in self.index:
            first = self.index[after] + 1
        else:
            self.start, self.events, self.index = after, [], {}
            first = 0
        page = self.events[first:first + limit]
        if len(page) < limit:
            tail = self.events[-1].position if self.events else self.start
            more = [log_entry(e) for e in self.store.read_all(tail, limit - len(page))]
            self._append(more)
            page += more
        return page

    def _append(self, entries: list[LogEntry]) -> None:
        for entry in entries:
            self.index[entry.position] = len(self.events)
            self.events.append(entry)
        if len(self.events) > 2 * self.keep:  # keep the newest stretch only
            dropped = len(self.events) - self.keep
            self.start = self.events[dropped - 1].position
            self.events = self.events[dropped:]
            self.index = {entry.position: i for i, entry in enumerate(self.events)}


def run_batch(store: RunnerStore, projection: Projection, limit: int = BATCH, pages: LogPages | None = None) -> int:
    """Fold one batch after the checkpoint; returns how many positions it advanced (0: caught up or stopped)."""
    return fold_batch(store, projection, limit, pages)[0]


def fold_batch(store: RunnerStore, projection: Projection, limit: int, pages: LogPages | None) -> tuple[int, bool]:
    """Fold one batch: (positions advanced, whether the log may hold more: the batch read `limit` entries)."""
    with store.read_model_batch(projection.name, projection.version) as batch:
        checkpoint = batch.checkpoint
        if checkpoint.error is not None:
            return 0, False
        if pages is None:
            entries = [log_entry(e) for e in store.read_all(checkpoint.position, limit)]
        else:
            entries = pages.read(checkpoint.position, limit)
        if not entries:
            return 0, False
        staged = StagedDocs(batch, {MATCH: [entry.match_id for entry in entries]})
        done = checkpoint.position
        error: ProjectionError | None = None
        for entry in entries:
            before = dict(staged.changes)
            try:
                projection.apply(staged, entry)
            except ProjectionError as exc:
                staged.changes, error = before, exc
                break
            done = entry.position
        if error is not None:
            log.error("projection %s stopped: %s", projection.name, error)
        batch.commit(list(staged.changes.values()), Checkpoint(
            projection=projection.name, version=projection.version, position=done,
            error=None if error is None else str(error), error_position=None if error is None else error.position))
        if error is not None:
            return 0, False
        return done - checkpoint.position, len(entries) == limit


def catch_up(store: RunnerStore, projections: tuple[Projection, ...] = PROJECTIONS, limit: int = BATCH,
             stopping: Callable[[], bool] = lambda: False) -> int:
    """Run every projection until it reaches the head of the log (or stops on an error), or `stopping()` says so
    between rounds of batches (a worker asked to stop finishes its batch, not the whole backlog).

    The projections take turns batch by batch, so they read the same stretches of the log and each is read once. A
    projection whose batch came back short has reached the head: it is not asked again (an append after that read
    woke the runner, which catches up again).
    """
    pages = LogPages(store, keep=4 * limit)
    total = 0
    running = list(projections)
    while running and not stopping():
        folded = [(projection, *fold_batch(store, projection, limit, pages)) for projection in running]
        total += sum(advanced for _, advanced, _ in folded)
        running = [projection for projection, _, more in folded if more]
    return total


def rebuild(store: RunnerStore, projection: Projection, limit: int = BATCH) -> None:
    """Drop a projection's read model and fold the whole log again."""
    rebuild_all(store, (projection,), limit)


def rebuild_all(store: RunnerStore, projections: tuple[Projection, ...] = PROJECTIONS, limit: int = BATCH) -> None:
    """Drop these projections' read models and fold the whole log again, reading it once for all of them."""
    for projection in projections:
        store.reset_read_model(projection.name)
    catch_up(store, projections, limit)
