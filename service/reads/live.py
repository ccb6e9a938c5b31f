"""Waking streams and long polls when a match moves: in-process signals that carry no content.

A signal only says "match M (or the log) may have grown": whoever wakes reads the store after the last thing it
sent, so a lost or late signal delays, never loses, and a spurious one costs a read. Appends in this process signal
directly; appends in other processes arrive through PostgreSQL's LISTEN/NOTIFY (api/listener.py) and signal the
same way. Waiters also wake on a timeout and re-read, which covers any signal lost on the way.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from service.errors import ServiceError
from service.ops.metrics import OPEN_STREAMS

if TYPE_CHECKING:
    from ledger.events import StoredEvent
    from service.matches.matches import MatchService
    from service.matches.model import LoadedMatch

T = TypeVar("T")


class TooManyStreams(ServiceError):
    """A caller already holds as many open streams as it may: try again when one has closed."""

    code, kind = "too-many-streams", "too-many"
    retry_after_s = 5

    def __init__(self, limit: int) -> None:
        super().__init__(f"at most {limit} open streams per token, app or address; close one and retry")
        self.limit = limit


class MatchListener(Protocol):
    """Told of the signals of the matches it follows."""

    def follows(self, match_id: str) -> bool: ...

    def signalled(self, match_id: str) -> None: ...


class Hub:
    """Signals per match and for the whole log, waited on by the event loop, raised from any thread."""

    def __init__(self, streams_per_caller: int = 20) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str | None, set[asyncio.Event]] = {}  # None: any match (the feed)
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()
        self.streams_per_caller = streams_per_caller
        self.closing = False
        self.listeners: list[MatchListener] = []  # told of the signals of matches they follow, on the loop (Tails)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Use this event loop (the server's) for waiting; signals from other threads are handed to it."""
        self._loop = loop
        self.closing = False

    def moved(self, match_id: str) -> None:
        """A match got new events (this process's append, or another's, heard through the database).

        Nothing to do when nobody here waits for that match or for the feed: most moves are of matches nobody
        streams, and this spares them a hop to the event loop (a wake-up of its thread) from the move's thread."""
        loop = self._loop
        if loop is None or loop.is_closed() or not self.awaited(match_id):
            return
        if _running_loop() is loop:
            self._wake(match_id)
        else:
            loop.call_soon_threadsafe(self._wake, match_id)

    def awaited(self, match_id: str) -> bool:
        """Whether a signal of this match would wake anyone (read from any thread: a waiter who registers just after
        this says no re-reads within its timeout, as it would after missing a signal sent just before it waited)."""
        waiting = self._waiting
        return match_id in waiting or None in waiting or any(each.follows(match_id) for each in self.listeners)

    def _wake(self, match_id: str | None) -> None:
        if match_id is not None:
            for listener in self.listeners:
                listener.signalled(match_id)
        for key in {match_id, None}:
            for event in self._waiting.get(key, ()):
                event.set()

    async def wait(self, match_id: str | None, timeout: float) -> bool:
        """Wait for a signal of the match (None: of any match) up to `timeout` seconds; False if none came."""
        event = asyncio.Event()
        self._waiting.setdefault(match_id, set()).add(event)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return not self.closing
        except TimeoutError:
            return False
        finally:
            waiters = self._waiting.get(match_id)
            if waiters is not None:
                waiters.discard(event)
                if not waiters:
                    del self._waiting[match_id]

    def open(self, caller: str) -> Callable[[], None]:
        """Count one more open stream of a caller (TooManyStreams past the limit); call what it returns at the end."""
        with self._lock:
            if self._open[caller] >= self.streams_per_caller:
                raise TooManyStreams(self.streams_per_caller)
            self._open[caller] += 1
        OPEN_STREAMS.inc()
        released = threading.Event()

        def release() -> None:
            if released.is_set():
                return
            released.set()
            OPEN_STREAMS.dec()
            with self._lock:
                self._open[caller] -= 1
                if not self._open[caller]:
                    del self._open[caller]

        return release

    def close(self) -> None:
        """The server is stopping: every waiter wakes, and streams end so their clients reconnect elsewhere."""
        self.closing = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        for waiters in self._waiting.values():
            for event in waiters:
                event.set()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


@dataclass
class _Read:
    """A match as read at one moment: its state, its newest events, and the signals counted before the read."""

    loaded: LoadedMatch
    events: list[StoredEvent]
    signals: int
    at: float


@dataclass
class _Slot:
    """One match's shared read: how many signals it has had, and the newest read (one reader at a time)."""

    signals: int = 0
    read: _Read | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Tails:
    """The newest events of the matches being followed, read once per signal for every stream of this process.

    A move wakes every stream of its match; without this each would read the match and its new events itself (100
    streams: 200 reads per move, competing with the moves for the store). Here the first stream to wake reads,
    the others find the read done: one read per signal and match. A read is used while no signal came after it
    began and it is younger than `fresh_s` (the re-read that covers a lost signal). Streams that fall further
    behind than the kept events (a replay from the start) read the store themselves.
    """

    def __init__(self, service: MatchService, hub: Hub, *, kept: int = 256, matches: int = 1024,
                 fresh_s: float = 5.0) -> None:
        self.service, self.kept, self.matches, self.fresh_s = service, kept, matches, fresh_s
        self._slots: OrderedDict[str, _Slot] = OrderedDict()
        hub.listeners.append(self)
        self._made: OrderedDict[Hashable, Any] = OrderedDict()
        self.reads = 0  # store reads made (what the sharing saves is visible in tests and benches)

    def follows(self, match_id: str) -> bool:
        """Whether a stream here has read this match (its signals must be counted)."""
        return match_id in self._slots

    def signalled(self, match_id: str) -> None:
        """A signal of the match: its shared read is stale."""
        slot = self._slots.get(match_id)
        if slot is not None:
            slot.signals += 1

    async def after(self, match_id: str, sent: int, limit: int) -> tuple[LoadedMatch, list[StoredEvent]]:
        """The match now and up to `limit` of its events after version `sent`."""
        slot = self._slots.get(match_id)
        if slot is None:
            slot = self._slots[match_id] = _Slot()
            while len(self._slots) > self.matches:
                self._slots.popitem(last=False)
        self._slots.move_to_end(match_id)
        async with slot.lock:
            read = slot.read
            if read is None or read.signals != slot.signals or time.monotonic() - read.at >= self.fresh_s:
                signals = slot.signals  # counted before reading: a signal during the read makes it stale
                read = slot.read = await asyncio.to_thread(self._read, match_id, read, signals)
        head = read.loaded.record.version
        if sent >= head:
            return read.loaded, []
        if read.events and read.events[0].version <= sent + 1:
            return read.loaded, [e for e in read.events if e.version > sent][:limit]
        return read.loaded, await asyncio.to_thread(self.service.events, read.loaded, sent, limit)

    def remember(self, key: Hashable, make: Callable[[], T]) -> T:
        """What `make` gives for `key`, made once for every stream that asks (the newest 8,192 kept): an event as
        a spectator sees it is encoded once per process, not once per stream."""
        if key in self._made:
            self._made.move_to_end(key)
            return cast(T, self._made[key])
        made = self._made[key] = make()
        if len(self._made) > 8192:
            self._made.popitem(last=False)
        return made

    def _read(self, match_id: str, before: _Read | None, signals: int) -> _Read:
        """Read the match and its events since the last read (the newest `kept` of them)."""
        self.reads += 1
        loaded = self.service.load(match_id)
        head = loaded.record.version
        known = before.loaded.record.version if before is not None else 0
        start = known if before is not None and 0 <= head - known <= self.kept else max(0, head - self.kept)
        events = (before.events if before is not None and start == known else []) + \
            self.service.events(loaded, start, head - start)
        return _Read(loaded, events[-self.kept:], signals, time.monotonic())
