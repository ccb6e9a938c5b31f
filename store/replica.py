"""Reads from a PostgreSQL read replica, each one falling back to the primary when the replica fails or is slow.

Only the read services get one (statistics, audit, match lists, event logs): moves, match creation and the state
used to decide them read the primary. A replica lags: what it answers is the log up to its own head, complete and
consistent there (events are immutable, read models are written with their checkpoints in one transaction).
A replica that fails or does not answer within `timeout_s` is read around for `cool_down_s`, then tried again.
A hung call is left to finish on its own thread (one at most per cool-down, since the breaker opens at once).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import datetime
from typing import Protocol, TypeVar

from ledger.events import MatchRecord, StoredEvent, Visibility
from store.base import MatchNotFound
from store.read_models import Checkpoint, DocRow, FactQuery, FactSums

log = logging.getLogger("turnstile.replica")
T = TypeVar("T")


class ReadStore(Protocol):
    """The reads the read services make: read models, the log's head, match rows and events."""

    def checkpoints(self) -> list[Checkpoint]: ...

    def docs(self, projection: str, kind: str, *, key: str | None = None, group: str | None = None,
             min_field: tuple[str, float] | None = None, after: tuple[float, str] | None = None,
             limit: int = 100) -> list[DocRow]: ...

    def fact_sums(self, question: FactQuery) -> list[FactSums]: ...

    def head_position(self) -> int: ...

    def events_after(self, position: int) -> int: ...

    def log_reached(self, at: int, target: int) -> bool: ...

    def get_match(self, match_id: str) -> MatchRecord | None: ...

    def match_with_events(self, match_id: str, after_version: int = 0) -> tuple[MatchRecord, list[StoredEvent]]: ...

    def read_match(self, match_id: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]: ...

    def list_matches(self, *, game: str | None = None, player: str | None = None, status: str | None = None,
                     owner: str | None = None, visibility: Visibility | None = None,
                     after: tuple[datetime, str] | None = None, limit: int = 50) -> list[MatchRecord]: ...

    def close(self) -> None: ...


class ReplicaReads:
    """A ReadStore on a replica, answering from the primary whenever the replica cannot."""

    def __init__(self, primary: ReadStore, replica: ReadStore, *, timeout_s: float = 1.0, cool_down_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic, on_fallback: Callable[[str], None] | None = None) -> None:
        self.primary = primary
        self.replica = replica
        self.timeout_s = timeout_s
        self.cool_down_s = cool_down_s
        self.clock = clock
        self.on_fallback = on_fallback or (lambda reason: None)
        self._down_until = 0.0
        self._lock = threading.Lock()
        # Replica calls run here so a hung server costs a timeout, not a request thread.
        self._calls = ThreadPoolExecutor(max_workers=8, thread_name_prefix="turnstile-replica")

    @property
    def up(self) -> bool:
        """Whether reads go to the replica now (its breaker is closed)."""
        return self.clock() >= self._down_until

    def read(self, call: Callable[[ReadStore], T]) -> T:
        """`call` on the replica, or on the primary when the replica is down, failing or slower than the timeout."""
        if not self.up:
            self.on_fallback("down")
            return call(self.primary)
        future = self._calls.submit(call, self.replica)
        try:
            return future.result(timeout=self.timeout_s)
        except MatchNotFound:  # not replicated yet: the primary may have it
            self.on_fallback("behind")
            return call(self.primary)
        except FutureTimeout:
            self._trip("hung", f"no answer within {self.timeout_s} s")
        except Exception as exc:  # noqa: BLE001  (whatever the driver raises, the replica cannot answer now)
            self._trip("failed", f"{type(exc).__name__}: {exc}")
        return call(self.primary)

    def _trip(self, reason: str, detail: str) -> None:
        with self._lock:
            self._down_until = self.clock() + self.cool_down_s
        log.warning("read replica %s (%s): reading the primary for %s s", reason, detail, self.cool_down_s)
        self.on_fallback(reason)

    def lag(self) -> tuple[int, int] | None:
        """The primary's and the replica's log heads, or None when the replica does not answer in time."""
        primary_head = self.primary.head_position()
        if not self.up:  # read around for now: no probe (a hung replica would hold a thread per scrape)
            return None
        future = self._calls.submit(self.replica.head_position)
        try:
            return primary_head, future.result(timeout=self.timeout_s)
        except FutureTimeout:
            self._trip("hung", f"no answer within {self.timeout_s} s")
        except Exception as exc:  # noqa: BLE001  (whatever the driver raises, there is no head to report)
            self._trip("failed", f"{type(exc).__name__}: {exc}")
        return None

    def close(self) -> None:
        """Close the replica (not the primary: its owner does); a hung call is abandoned."""
        self._calls.shutdown(wait=False, cancel_futures=True)
        self.replica.close()

    # ---- ReadStore ----------------------------------------------------------------------------------

    def checkpoints(self) -> list[Checkpoint]:
        return self.read(lambda s: s.checkpoints())

    def docs(self, projection: str, kind: str, *, key: str | None = None, group: str | None = None,
             min_field: tuple[str, float] | None = None, after: tuple[float, str] | None = None,
             limit: int = 100) -> list[DocRow]:
        return self.read(lambda s: s.docs(projection, kind, key=key, group=group, min_field=min_field, after=after,
                                          limit=limit))

    def fact_sums(self, question: FactQuery) -> list[FactSums]:
        return self.read(lambda s: s.fact_sums(question))

    def head_position(self) -> int:
        return self.read(lambda s: s.head_position())

    def events_after(self, position: int) -> int:
        return self.read(lambda s: s.events_after(position))

    def log_reached(self, at: int, target: int) -> bool:
        return self.read(lambda s: s.log_reached(at, target))

    def get_match(self, match_id: str) -> MatchRecord | None:
        # A match the replica has not received yet is asked of the primary (a 404 must be true).
        try:
            return self.read(lambda s: _found(s.get_match(match_id), match_id))
        except MatchNotFound:
            return None

    def match_with_events(self, match_id: str, after_version: int = 0) -> tuple[MatchRecord, list[StoredEvent]]:
        return self.read(lambda s: s.match_with_events(match_id, after_version))

    def read_match(self, match_id: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
        return self.read(lambda s: s.read_match(match_id, from_version, to_version))

    def list_matches(self, *, game: str | None = None, player: str | None = None, status: str | None = None,
                     owner: str | None = None, visibility: Visibility | None = None,
                     after: tuple[datetime, str] | None = None, limit: int = 50) -> list[MatchRecord]:
        return self.read(lambda s: s.list_matches(game=game, player=player, status=status, owner=owner,
                                                  visibility=visibility, after=after, limit=limit))


def _found(record: MatchRecord | None, match_id: str) -> MatchRecord:
    if record is None:
        raise MatchNotFound(match_id)
    return record
