"""How the match service loads a match: from this process's cache, or from storage on the match's snapshot (or its
first event), every event read checked against its chain and, from storage, against the transparency log, then folded
(the stream mechanism's checks: service/streams.py). Snapshots are saved as a match enters each new band of versions.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, NoReturn

from domain import match
from domain.catalog import decode_events, game_of
from domain.engine import Game
from domain.match import MatchState
from ledger.chain import GENESIS
from ledger.events import MatchRecord, StoredEvent
from service.matches import snapshots
from service.matches.model import LoadedMatch
from service.streams import StreamCache, check_stream, corrupt
from store.base import Snapshot
from store.read_models import Store

log = logging.getLogger("turnstile.service")


@dataclass(frozen=True)
class Base:
    """What a load folds the stored events on: the state at `version`, whose event has hash `head_hash` (a cached
    match or a snapshot), or START, nothing before the first event."""

    version: int
    head_hash: str
    state: MatchState | None = None
    game: Game[Any] | None = None


START = Base(0, GENESIS)


# Folded matches by id, newest version only, bounded (LRU): the stream mechanism's cache (service/streams.py).
StateCache = StreamCache[LoadedMatch]


class MatchLoading:
    """Loading and folding matches; the match service is this plus deciding and appending."""

    store: Store
    cache: StateCache
    use_snapshots: bool
    snapshot_key: bytes

    def load(self, match_id: str) -> LoadedMatch:
        """The match as stored now (one round trip), folding only what the cache lacks; RecordCorrupt if broken.

        With the match cached it folds the events after the cached state; without, the events after the match's
        snapshot (service/matches/snapshots.py) when that fits the record, else all of them. The read starts at the
        base's own event, so a tail deleted or replaced since it was served is noticed; a snapshot that does not fit is
        set aside (the events are read again, from the first), never taken for damage.
        """
        cached = self.cache.get(match_id)
        if cached is not None:
            return self._caught_up(cached, *self.store.match_with_events(match_id, max(cached.state.version - 1, 0)))
        if not self.use_snapshots:
            return self._fold_all(match_id)
        record, saved, stored = self.store.match_with_snapshot(match_id, snapshots.FINGERPRINT)
        base = START if saved is None else self._base_of(match_id, saved)
        loaded = None if base is None else self._fold(base, record, stored, from_storage=True)
        if base is None or loaded is None:  # a snapshot set aside
            if base is not None:
                log.warning("match %s: its snapshot at version %s does not fit the stored events; folding them all",
                            match_id, base.version)
            base, loaded = START, self._fold_all(match_id)
        if snapshots.crossed(base.version, loaded.record.version):
            self._save_snapshot(loaded, replace=saved is not None and base is START)  # over one set aside
        return loaded

    async def load_async(self, match_id: str) -> LoadedMatch:
        """`load` for a caller on an event loop: a match cached here is brought up to date on the store's async
        path (the loop is not held while it reads); any other is `load` on a worker thread."""
        cached = self.cache.get(match_id)
        if cached is None:
            return await asyncio.to_thread(self.load, match_id)
        after = max(cached.state.version - 1, 0)
        return self._caught_up(cached, *await self.store.match_with_events_async(match_id, after))

    def _caught_up(self, cached: LoadedMatch, record: MatchRecord, stored: list[StoredEvent]) -> LoadedMatch:
        """The cached match with the events read after it folded on (they start at its own last event)."""
        on = Base(cached.record.version, cached.record.head_hash, cached.state, cached.game)
        loaded = self._fold(on, record, stored)
        if loaded is None:
            self._corrupt(record.id, f"event {on.version}, already served, is missing or altered")
        return loaded

    def _fold_all(self, match_id: str) -> LoadedMatch:
        """The match as stored now, every event folded."""
        loaded = self._fold(START, *self.store.match_with_events(match_id), from_storage=True)
        assert loaded is not None  # from the first event there is no base event to miss
        return loaded

    def _fold(self, base: Base, record: MatchRecord, stored: list[StoredEvent], *,
              from_storage: bool = False) -> LoadedMatch | None:
        """The match `record` with `stored` (its events from the base's own on) folded on `base`, and cached; None
        when the first is not the base's event (or the match is another game). RecordCorrupt when the chain from
        the base does not reach the row's head, when an event read does not hash to its recorded hash or its commitment
        does not open to its stored full payload and command (the seed is the server's), or (a load `from_storage`, not
        on a cached state) when the events read are not those the transparency log holds."""
        read = stored
        if base.version:
            if not stored or (stored[0].version, stored[0].hash) != (base.version, base.head_hash):
                return None
            if base.game is not None and (base.game.slug, base.game.rules_version) != (record.game,
                                                                                     record.rules_version):
                return None
            stored = stored[1:]
        # The links hold, each event hashes to its hash and opens its commitment with the seed the server holds (a
        # hidden part or a command edited in storage); read from storage, the log holds these very events.
        check_stream("match", record, base.version, base.head_hash, stored, log_store=self.store if from_storage
                     else None, log_stream=record.id, from_version=base.version or 1, read=read, seed=record.seed)
        game = base.game or game_of(record.game, record.rules_version)
        state = match.fold(game, decode_events(game, [e.payload for e in stored]), base.state)
        loaded = LoadedMatch(record=record, game=game, state=state)
        self.cache.put(loaded)
        return loaded

    def _base_of(self, match_id: str, saved: Snapshot) -> Base | None:
        """A saved snapshot as a base to fold on, when it decodes to this match's state at its version (whether it
        fits the stored events is seen in them)."""
        try:
            owner, game, state = snapshots.decode(saved.state, self.snapshot_key)
        except snapshots.Unfit as unfit:
            log.warning("match %s: its snapshot at version %s does not decode (%s); folding the events", match_id,
                        saved.version, unfit)
            return None
        if (owner, state.version) != (match_id, saved.version):
            log.warning("match %s: its snapshot at version %s holds match %s at version %s; folding the events",
                        match_id, saved.version, owner, state.version)
            return None
        return Base(saved.version, saved.head_hash, state, game)

    def _save_snapshot(self, loaded: LoadedMatch, *, replace: bool = False) -> None:
        """Save the match's state as its snapshot. Only ever an accelerator: a failure is logged, never raised."""
        if not self.use_snapshots:
            return
        try:
            blob = snapshots.encode(loaded.game, loaded.record.id, loaded.state, self.snapshot_key)
            if blob is not None:
                self.store.save_snapshot(loaded.record.id, Snapshot(loaded.record.version, snapshots.FINGERPRINT,
                                                                    loaded.record.head_hash, blob), replace=replace)
        except Exception:  # noqa: BLE001  (a snapshot not saved costs a longer fold later, nothing else)
            log.warning("match %s: could not save a snapshot at version %s", loaded.record.id,
                        loaded.record.version, exc_info=True)

    def _corrupt(self, match_id: str, reason: str) -> NoReturn:
        corrupt("match", match_id, reason)
