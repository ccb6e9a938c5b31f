"""Runs projections: folds the global log from each checkpoint, in batches, one transaction a batch."""

from __future__ import annotations

import logging
from typing import Any

from projections.catalog import PROJECTIONS
from projections.log import LogEntry, Projection, ProjectionError
from store.base import StoredEvent
from store.read_models import Checkpoint, DocChange, ReadModelBatch, Store

log = logging.getLogger("turnstile.projections")
BATCH = 500


class StagedDocs:
    """Documents read through a batch, written in memory until the batch commits."""

    def __init__(self, batch: ReadModelBatch) -> None:
        self.batch = batch
        self.changes: dict[tuple[str, str], DocChange] = {}

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The staged document, else the committed one."""
        staged = self.changes.get((kind, key))
        if staged is not None:
            return staged.doc
        return self.batch.get(kind, key)

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


def run_batch(store: Store, projection: Projection, limit: int = BATCH) -> int:
    """Fold one batch after the checkpoint; returns how many positions it advanced (0: caught up or stopped)."""
    with store.read_model_batch(projection.name, projection.version) as batch:
        checkpoint = batch.checkpoint
        if checkpoint.error is not None:
            return 0
        entries = [log_entry(e) for e in store.read_all(checkpoint.position, limit)]
        if not entries:
            return 0
        staged = StagedDocs(batch)
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
        return done - checkpoint.position if error is None else 0


def catch_up(store: Store, projections: tuple[Projection, ...] = PROJECTIONS, limit: int = BATCH) -> int:
    """Run every projection until it reaches the head of the log (or stops on an error)."""
    total = 0
    for projection in projections:
        while (folded := run_batch(store, projection, limit)) > 0:
            total += folded
    return total


def rebuild(store: Store, projection: Projection, limit: int = BATCH) -> None:
    """Drop a projection's read model and fold the whole log again."""
    store.reset_read_model(projection.name)
    catch_up(store, (projection,), limit)
