"""The event store: one interface (`EventStore`), two adapters (SQLite, PostgreSQL), `open_store(url)`."""

from store.base import (
    AppendResult,
    ConflictError,
    EventStore,
    IdempotencyMismatch,
    MatchExists,
    MatchNotFound,
    MatchRecord,
    NewEvent,
    SeatRecord,
    StoredEvent,
    StoreError,
)
from store.chain import GENESIS, event_hash, verify_chain
from store.factory import open_store

__all__ = [
    "GENESIS",
    "AppendResult",
    "ConflictError",
    "EventStore",
    "IdempotencyMismatch",
    "MatchExists",
    "MatchNotFound",
    "MatchRecord",
    "NewEvent",
    "SeatRecord",
    "StoreError",
    "StoredEvent",
    "event_hash",
    "open_store",
    "verify_chain",
]
