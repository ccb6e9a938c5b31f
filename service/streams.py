"""One stream mechanism for every aggregate: load a stream (from this process's cache, or storage), check its chain
(and, on a process's first read of it, the transparency log), fold it, decide a command at the folded version, append
conditionally on that version, decide again on a conflict, and advance the cache with what was appended.

An aggregate brings only its decider (`Decider`: how its row and events fold, and what a command records) and its
stream's storage (`StreamStore`). Tournaments are `Streams` over the tournament decider; matches use the same cache
and the same checks (`StreamCache`, `check_stream`) around their own fast paths (snapshots, the event loop, bots,
deals, sealing). A third aggregate (a ladder, a league) is a decider, a store and a stream category, nothing more.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, NoReturn, Protocol, TypeVar

from ledger.chain import GENESIS, verify_chain
from ledger.events import StoredEvent, chain_break, commitment_break
from service.log.transparency import log_disagreement
from store.base import ConflictError, RecordCorrupt
from store.transparency import TransparencyStore

log = logging.getLogger("turnstile.streams")


class Row(Protocol):
    """What the mechanism reads of a stream's row: its id, and the version and head hash every append moves on."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def head_hash(self) -> str: ...


R = TypeVar("R", bound=Row)
S = TypeVar("S")
C = TypeVar("C")
R_co = TypeVar("R_co", bound=Row, covariant=True)
C_contra = TypeVar("C_contra", contravariant=True)
K = TypeVar("K", bound="Keyed")


class Keyed(Protocol):
    """Anything cached by stream: it names its row."""

    @property
    def record(self) -> Row: ...


@dataclass(frozen=True)
class Loaded(Generic[R, S]):
    """A stream as stored: its row, its stored events and their fold, all at the row's version."""

    record: R
    stored: list[StoredEvent]
    events: list[Any]
    state: S


class StreamCache(Generic[K]):
    """Folded streams by id, newest version only, bounded (least recently used goes first). Only an accelerator:
    whatever it holds is checked against storage before anything is decided on it."""

    def __init__(self, size: int = 512) -> None:
        self._items: OrderedDict[str, K] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, stream_id: str) -> K | None:
        """The cached stream, if any."""
        with self._lock:
            found = self._items.get(stream_id)
            if found is not None:
                self._items.move_to_end(stream_id)
            return found

    def put(self, loaded: K) -> None:
        """Remember a stream unless a newer version of it is already cached."""
        with self._lock:
            key = loaded.record.id
            current = self._items.get(key)
            if current is None or current.record.version < loaded.record.version:
                self._items[key] = loaded
                self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def drop(self, stream_id: str) -> None:
        """Forget a stream (found corrupt: it is read again, and refused again, from storage)."""
        with self._lock:
            self._items.pop(stream_id, None)


def corrupt(category: str, stream_id: str, reason: str) -> NoReturn:
    """Refuse a stream whose stored record is broken: logged as critical, raised as RecordCorrupt."""
    log.critical("%s %s: the stored record is corrupt (%s); refusing to serve or extend it", category, stream_id,
                 reason)
    raise RecordCorrupt(stream_id, reason)


def check_stream(category: str, record: Row, base_version: int, base_hash: str, stored: Sequence[StoredEvent], *,
                 log_store: TransparencyStore | None, log_stream: str, from_version: int = 1,
                 read: Sequence[StoredEvent] | None = None, seed: str | None = None) -> None:
    """RecordCorrupt (`corrupt`) unless `stored` (the events after the base at `base_version`, whose hash is
    `base_hash`) link up to the head the row records, each hashes to its recorded hash, — given the seed that salts
    the stream's commitments (a match's, held by the server) — each commitment opens to its event's stored full
    payload and command, and — given the log's store — the transparency log holds exactly the events `read`
    (default: `stored`) of `log_stream` from `from_version` on."""
    broken = chain_break(record.version, record.head_hash, base_version, base_hash, stored)
    if broken is None and (altered := verify_chain(stored)) is not None:
        broken = f"event {altered}'s stored fields do not hash to its recorded hash"
    if broken is None and seed is not None:
        broken = commitment_break(seed, stored)
    if broken is None and log_store is not None:
        broken = log_disagreement(log_store, log_stream, record.version, stored if read is None else read,
                                  from_version)
    if broken is not None:
        corrupt(category, record.id, broken)


class StreamStore(Protocol[R_co]):
    """Where one category of streams is kept: a row and its events, appended conditionally on the row's version."""

    def read_stream(self, stream_id: str, from_version: int) -> tuple[R_co, list[StoredEvent]]:
        """The row and its events from `from_version` up to the row's version (a not-found error of its own)."""
        ...

    def append_stream(self, stream_id: str, expected_version: int,
                      payloads: Sequence[dict[str, Any]]) -> list[StoredEvent]:
        """Append events after `expected_version`, or ConflictError when the row is at another version."""
        ...


class Decider(Protocol[R, S, C_contra]):
    """What an aggregate brings: the category of its streams (and their leaves in the log), how stored events decode
    and fold, what a command records, and the row after an append of ours."""

    category: str

    def log_stream(self, stream_id: str) -> str:
        """The stream's name in the transparency log."""
        ...

    def decode(self, stored: Sequence[StoredEvent]) -> list[Any]:
        """The stored events as the aggregate's typed events."""
        ...

    def fold(self, events: Sequence[Any], state: S | None) -> S:
        """The state after `events`, on `state` (None: from the start)."""
        ...

    def decide(self, loaded: Loaded[R, S], command: C_contra) -> list[Any]:
        """The events `command` records on the stream as loaded (an error of the aggregate's when refused)."""
        ...

    def encode(self, event: Any) -> dict[str, Any]:
        """An event as the JSON object that is stored."""
        ...

    def advanced(self, record: R, appended: Sequence[StoredEvent], payloads: Sequence[dict[str, Any]]) -> R:
        """The row after our own append (the store-owned fields as it left them)."""
        ...


class Streams(Generic[R, S, C]):
    """The streams of one category: loaded, checked, folded, decided and appended by one piece of code."""

    def __init__(self, decider: Decider[R, S, C], store: StreamStore[R], log_store: TransparencyStore | None, *,
                 cached: int = 64, retries: int = 50) -> None:
        self.decider = decider
        self.store = store
        self.log_store = log_store
        self.cache: StreamCache[Loaded[R, S]] = StreamCache(cached)
        self.retries = retries

    def load(self, stream_id: str) -> Loaded[R, S]:
        """The stream as stored now; RecordCorrupt when it is broken.

        Each event is hashed again once per process, when it is first read: a cold load checks every hash from the
        first event and the log's leaves of the stream; a warm one (the stream is cached) reads from the version it
        holds, which must still be there as it was, and checks the events after it.
        """
        cached = self.cache.get(stream_id)
        base_version, base_hash = (0, GENESIS) if cached is None else (cached.record.version,
                                                                         cached.record.head_hash)
        record, stored = self.store.read_stream(stream_id, max(base_version, 1))
        if cached is not None:  # the read starts at the held head: a tail cut or replaced since is noticed
            held, stored = (stored[0] if stored else None), stored[1:]
            if held is None or (held.version, held.hash) != (base_version, base_hash):
                self.cache.drop(stream_id)
                corrupt(self.decider.category, stream_id, f"event {base_version} is not the one this process read")
        try:
            check_stream(self.decider.category, record, base_version, base_hash, stored,
                         log_store=self.log_store if cached is None else None,
                         log_stream=self.decider.log_stream(stream_id))
        except RecordCorrupt:
            self.cache.drop(stream_id)
            raise
        events = self.decider.decode(stored)
        loaded = Loaded(record=record, stored=[*(cached.stored if cached else ()), *stored],
                        events=[*(cached.events if cached else ()), *events],
                        state=self.decider.fold(events, None if cached is None else cached.state))
        self.cache.put(loaded)
        return loaded

    def send(self, stream_id: str, command: C) -> tuple[Loaded[R, S], list[Any]]:
        """Decide `command` on the stream as stored and append what it records at the folded version (a conflict:
        load and decide again); the stream after it, and the events recorded."""
        for _ in range(self.retries):
            loaded = self.load(stream_id)
            events = self.decider.decide(loaded, command)
            payloads = [self.decider.encode(e) for e in events]
            try:
                appended = self.store.append_stream(stream_id, loaded.record.version, payloads)
            except ConflictError:
                continue
            return self._advance(loaded, appended, payloads, events), events
        raise ConflictError(stream_id, -1, -1)

    def _advance(self, loaded: Loaded[R, S], appended: list[StoredEvent], payloads: list[dict[str, Any]],
                 events: list[Any]) -> Loaded[R, S]:
        """The stream after our own append, kept."""
        after = Loaded(record=self.decider.advanced(loaded.record, appended, payloads),
                       stored=[*loaded.stored, *appended], events=[*loaded.events, *events],
                       state=self.decider.fold(events, loaded.state))
        self.cache.put(after)
        return after
