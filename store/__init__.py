"""The event store: one interface (`EventStore`), two adapters (SQLite, PostgreSQL), `open_store(url)`."""

from ledger.chain import GENESIS, event_hash, verify_chain
from ledger.events import MatchRecord, NewEvent, SeatRecord, StoredEvent
from store.base import (
    AppendResult,
    ConflictError,
    EventStore,
    IdempotencyMismatch,
    MatchExists,
    MatchNotFound,
    StoreError,
)
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
