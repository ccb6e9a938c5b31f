"""What projections read: entries of the global log, and the documents they write."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from domain.lifecycle import LIFECYCLE_EVENTS


class LogEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the global log, in position order."""

    position: int
    match_id: str
    version: int
    type: str
    payload: dict[str, Any]
    seat: int | None = None
    command_id: str | None = None
    recorded_at: str = ""


class ProjectionError(Exception):
    """An event a projection cannot handle: the projection stops here rather than skip it."""

    def __init__(self, projection: str, entry: LogEntry, reason: str) -> None:
        super().__init__(f"{projection}: cannot handle {entry.type} at position {entry.position}: {reason}")
        self.projection = projection
        self.position = entry.position
        self.reason = reason


class Docs(Protocol):
    """The read-model documents of one projection, by kind and key; `group` and `rank` are indexed."""

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The document, or None."""
        ...

    def put(self, kind: str, key: str, doc: dict[str, Any], *, group: str = "", rank: float = 0.0) -> None:
        """Create or replace a document."""
        ...

    def delete(self, kind: str, key: str) -> None:
        """Remove a document if present."""
        ...


@dataclass(frozen=True)
class Projection:
    """A named fold of the global log into documents. Bump `version` when its meaning changes (rebuild)."""

    name: str
    version: int
    apply: Callable[[Docs, LogEntry], None]


class MemoryDocs:
    """Documents in a dict: for tests, rebuilds and the runner's per-batch staging."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], tuple[dict[str, Any], str, float]] = {}

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The document, or None."""
        found = self.items.get((kind, key))
        return None if found is None else found[0]

    def put(self, kind: str, key: str, doc: dict[str, Any], *, group: str = "", rank: float = 0.0) -> None:
        """Create or replace a document."""
        self.items[(kind, key)] = (doc, group, rank)

    def delete(self, kind: str, key: str) -> None:
        """Remove a document if present."""
        self.items.pop((kind, key), None)


def fold_all(projection: Projection, entries: Iterable[LogEntry], docs: Docs | None = None) -> Docs:
    """Apply `entries` in order; a fresh `MemoryDocs` when none is given."""
    target: Docs = docs if docs is not None else MemoryDocs()
    for entry in entries:
        projection.apply(target, entry)
    return target


def require(projection: str, entry: LogEntry, *fields: str) -> list[Any]:
    """The payload's fields, or a ProjectionError naming the missing one."""
    missing = [name for name in fields if name not in entry.payload]
    if missing:
        raise ProjectionError(projection, entry, f"payload lacks {missing}")
    return [entry.payload[name] for name in fields]


# Every lifecycle event this code records (their tags), from the one list the domain keeps: a new one is known here
# the moment it exists, never missed by a hand-kept copy.
LIFECYCLE = frozenset(str(event.__struct_config__.tag) for event in LIFECYCLE_EVENTS)


def check_lifecycle(projection: str, entry: LogEntry) -> None:
    """Refuse a `match.*` event this code does not know (a newer writer): stop, never skip."""
    if entry.type.startswith("match.") and entry.type not in LIFECYCLE:
        raise ProjectionError(projection, entry, "unknown lifecycle event")
