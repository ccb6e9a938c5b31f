"""Storage of projections' read models: documents plus a checkpoint, written in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import msgspec

from store.base import AppKeyStore, EventStore
from store.exports import ExportStore
from store.tournaments import TournamentStore
from store.transparency import TransparencyStore
from store.webhooks import WebhookStore


class Checkpoint(msgspec.Struct, frozen=True):
    """How far a projection has folded the global log, and whether it stopped on an error."""

    projection: str
    version: int
    position: int
    error: str | None = None
    error_position: int | None = None
    updated_at: str = ""


class DocRow(msgspec.Struct, frozen=True):
    """One stored document of a projection."""

    kind: str
    key: str
    doc: dict[str, Any]
    group: str
    rank: float


class DocChange(msgspec.Struct, frozen=True):
    """A document to write (`doc` None: delete it)."""

    kind: str
    key: str
    doc: dict[str, Any] | None
    group: str = ""
    rank: float = 0.0


class FactQuery(msgspec.Struct, frozen=True):
    """An aggregate of the insights fact rows: the rows of `games` (and `player`) whose column of each `where` entry
    is one of its values (or NULL, when its flag says so) and, given `reps`, whose `reps` has that bit, grouped by
    the `by` columns; `value`: the column whose count, sum and sum of squares are taken (its NULLs left out)."""

    games: tuple[str, ...]
    by: tuple[str, ...]
    where: tuple[tuple[str, tuple[Any, ...], bool], ...] = ()
    player: str | None = None
    reps: int | None = None
    value: str | None = None


class FactSums(msgspec.Struct, frozen=True):
    """One group of a FactQuery: its column values, its rows, their wins, and `n`, `total` and `squares` of the
    value (whole numbers for a whole column: exact)."""

    group: tuple[Any, ...]
    rows: int
    wins: int
    n: int
    total: float | int
    squares: float | int


class ReadModelBatch(Protocol):
    """One transaction of one projection, holding its checkpoint row locked."""

    checkpoint: Checkpoint

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """A document as committed (this transaction's own changes are not written until `commit`)."""
        ...

    def get_many(self, kind: str, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The committed documents of `kind` among `keys`, by key (a key without one is left out)."""
        ...

    def commit(self, changes: Sequence[DocChange], checkpoint: Checkpoint) -> None:
        """Write the changes and the new checkpoint; the transaction commits when the batch closes."""
        ...


class ReadModelStore(Protocol):
    """Read models kept beside the events, in the same database."""

    def read_model_batch(self, projection: str, version: int) -> AbstractContextManager[ReadModelBatch]:
        """Lock the projection's checkpoint (created at 0 if new) for one batch; rolls back on error."""
        ...

    def checkpoints(self) -> list[Checkpoint]:
        """Every projection's checkpoint."""
        ...

    def reset_read_model(self, projection: str) -> None:
        """Drop a projection's documents and checkpoint (it will be rebuilt from position 0)."""
        ...

    def docs(
        self,
        projection: str,
        kind: str,
        *,
        key: str | None = None,
        group: str | None = None,
        min_field: tuple[str, float] | None = None,
        after: tuple[float, str] | None = None,
        limit: int = 100,
    ) -> list[DocRow]:
        """Documents of a kind, by key or group; ordered by rank descending then key (keyset `after`)."""
        ...

    def fact_sums(self, question: FactQuery) -> list[FactSums]:
        """Sums of the insights fact rows per group (SQL aggregates over their table)."""
        ...


class Store(EventStore, AppKeyStore, ReadModelStore, WebhookStore, TransparencyStore, TournamentStore,
            ExportStore, Protocol):
    """What an adapter provides: the event store, and the read models, webhooks, transparency log and
    exports beside it."""
