"""The match service: load events -> fold -> decide -> append, the one path every move takes."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain import match
from domain.catalog import by_slug
from domain.codec import event_from_builtins, to_builtins
from domain.engine import Command, Event, Game, Refusal
from domain.match import MatchState
from domain.rng import Rng, seed_commitment
from service.tokens import new_secret, new_seed, secret_hash
from store.base import AppendResult, ConflictError, MatchNotFound, MatchRecord, NewEvent, SeatRecord
from store.read_models import Store
from workers.notify import NoNotifier, Notifier

AUTO_RETRIES = 8


class UnknownGame(Exception):
    """No game is registered under this slug."""


class VersionMismatch(Exception):
    """The caller's expected version is not the match's version."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the match is at {actual}")
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class CreatedMatch:
    """A new match with the one-time seat tokens (only their hashes are stored)."""

    record: MatchRecord
    tokens: tuple[str, ...]
    result: AppendResult


@dataclass(frozen=True)
class LoadedMatch:
    """A match row with its folded state."""

    record: MatchRecord
    game: Game[Any]
    state: MatchState


class StateCache:
    """Folded states by match id, newest version only, bounded (LRU). Only ever an accelerator."""

    def __init__(self, size: int = 512) -> None:
        self._items: OrderedDict[str, MatchState] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, match_id: str) -> MatchState | None:
        """The cached state of a match, if any."""
        with self._lock:
            state = self._items.get(match_id)
            if state is not None:
                self._items.move_to_end(match_id)
            return state

    def put(self, match_id: str, state: MatchState) -> None:
        """Remember a state unless a newer one is already cached."""
        with self._lock:
            current = self._items.get(match_id)
            if current is None or current.version < state.version:
                self._items[match_id] = state
                self._items.move_to_end(match_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def game_of(slug: str) -> Game[Any]:
    """The registered game, or UnknownGame."""
    game = by_slug(slug)
    if game is None:
        raise UnknownGame(slug)
    return game


def decode_events(game: Game[Any], payloads: Sequence[dict[str, Any]]) -> list[Event]:
    """Stored event payloads back into typed events."""
    return [event_from_builtins(game, payload) for payload in payloads]


class MatchService:
    """Creates matches and plays moves against an `EventStore`."""

    def __init__(self, store: Store, cache: StateCache | None = None, notifier: Notifier | None = None) -> None:
        self.store = store
        self.cache = cache or StateCache()
        self.notifier = notifier or NoNotifier()

    def create(
        self, slug: str, players: Sequence[str], options: dict[str, Any] | None, seed: str | None
    ) -> CreatedMatch:
        """Open a match: `match.started` and the set-up events, one secret token per seat."""
        game = game_of(slug)
        seed = seed or new_seed()
        events = match.open_match(game, players, options, seed)
        tokens = tuple(new_secret("seat") for _ in players)
        started = events[0]
        record = MatchRecord(
            id=str(uuid.uuid4()),
            game=game.slug,
            rules_version=game.rules_version,
            seats=tuple(
                SeatRecord(seat=i, player=player, token_hash=secret_hash(token))
                for i, (player, token) in enumerate(zip(players, tokens, strict=True))
            ),
            options=getattr(started, "options", {}),
            seed=seed,
            seed_commitment=seed_commitment(seed),
            status="active",
            version=0,
            created_at="",
            updated_at="",
            head_hash="",
        )
        result = self.store.create_match(record, [new_event(e) for e in events])
        self.notifier.appended()
        self.cache.put(record.id, match.fold(game, events))
        stored = self.store.get_match(record.id)
        assert stored is not None
        return CreatedMatch(record=stored, tokens=tokens, result=result)

    def load(self, match_id: str, to_version: int | None = None) -> LoadedMatch:
        """The match row and its state (at `to_version`, or now), folding only what the cache lacks."""
        record = self.store.get_match(match_id)
        if record is None:
            raise MatchNotFound(match_id)
        game = game_of(record.game)
        state = self.cache.get(match_id) if to_version is None else None
        if state is not None and state.version > record.version:
            state = None
        start = 1 if state is None else state.version + 1
        stored = self.store.read_match(match_id, start, to_version)
        if stored or state is None:
            state = match.fold(game, decode_events(game, [e.payload for e in stored]), state)
            if to_version is None:
                self.cache.put(match_id, state)
        return LoadedMatch(record=record, game=game, state=state)

    def play(
        self,
        match_id: str,
        seat: int,
        command: Command,
        *,
        expected_version: int | None,
        command_id: str | None,
    ) -> AppendResult:
        """Decide and append one command. Without an expected version a conflict re-decides on fresh state."""
        command_id = command_id or f"auto-{uuid.uuid4()}"
        original = self.store.find_command(match_id, command_id)
        if original is not None:
            self._same_command(original, command, seat)
            return original
        for _ in range(AUTO_RETRIES):
            loaded = self.load(match_id)
            version = loaded.state.version
            if expected_version is not None and expected_version != version:
                raise VersionMismatch(expected_version, version)
            events = match.decide(loaded.game, loaded.state, seat, command, Rng.derive(loaded.record.seed, version))
            try:
                result = self.store.append(
                    match_id,
                    version,
                    [new_event(e) for e in events],
                    seat=seat,
                    command=to_builtins(command),
                    command_id=command_id,
                )
            except ConflictError as conflict:
                if expected_version is not None:
                    raise VersionMismatch(expected_version, conflict.actual) from conflict
                continue
            self.notifier.appended()
            return result
        raise VersionMismatch(version, self.load(match_id).state.version)

    def _same_command(self, original: AppendResult, command: Command, seat: int) -> None:
        """A replayed command id must carry the same command from the same seat."""
        first = original.events[0]
        if first.command != to_builtins(command) or first.seat != seat:
            raise Refusal("idempotency-key-reused", "this Idempotency-Key was used for a different move")


def new_event(event: Event) -> NewEvent:
    """The store's form of a domain event."""
    payload = to_builtins(event)
    return NewEvent(type=payload["type"], payload=payload)
