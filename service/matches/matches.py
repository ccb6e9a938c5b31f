"""The match service: load events -> fold -> decide -> append, the one path every move takes.

A move costs one round trip to the store when this process's cached state is current: it is decided on the
cached state and appended with that state's version and head hash, and the append itself checks both the version
and the command id. Only when the append finds the match moved on (another process wrote) is the state refreshed,
in one more round trip. Reads refresh first (one round trip), so a client always reads its own writes. A process
that has not cached a match folds it on the match's snapshot (service/matches/snapshots.py), saved as moves enter
each new band of versions.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

import msgspec

from domain import bots, match
from domain.catalog import decode_events, game_of
from domain.codec import to_builtins
from domain.engine import Command, Refusal
from domain.lifecycle import Deal
from domain.match import MatchState
from domain.rng import Rng, seed_commitment
from ledger.chain import SCHEME_FULL, canonical
from ledger.events import MatchRecord, NewEvent, NewMatch, SeatRecord, StoredEvent, Visibility
from ledger.records import seen_by
from ledger.sealing import sealed
from service.matches import access, snapshots
from service.matches.access import Caller
from service.matches.idempotent import CreateKey, create_command_id
from service.matches.loading import MatchLoading, StateCache
from service.matches.model import (
    AUTO_RETRIES,
    BOT_MOVES,
    LoadedMatch,
    MoveAnswer,
    OpenedMatch,
    PlannedMatch,
    Played,
    VersionMismatch,
    choose_seed,
    draw_seed,
    due_in,
    expected_from,
    new_seats,
    server_commitment,
    status_of,
)
from service.matches.move_deadlines import deadlines
from service.matches.tokens import UseLog, new_seed, secret_hash
from service.ops import metrics
from service.reads.notify import NoNotifier, Notifier
from settings import Settings
from store.base import AppendResult, ConflictError, IdempotencyMismatch, MatchExists, StoreError, replayed
from store.read_models import Store
from store.replica import ReadStore

log = logging.getLogger("turnstile.service")
class MatchService(MatchLoading):
    """Creates matches and plays moves against an event store."""

    def __init__(self, store: Store, cache: StateCache | None = None, notifier: Notifier | None = None,
                 reads: ReadStore | None = None, *, use_snapshots: bool = True,
                 snapshot_key: bytes = snapshots.PROCESS_KEY, watchers: Sequence[Callable[[str], None]] = (),
                 search_grace_s: float = Settings.search_grace_s) -> None:
        self.store = store
        self.use_snapshots = use_snapshots  # read and save snapshots (service/matches/snapshots.py) of long matches
        self.snapshot_key = snapshot_key  # signs them: derived from the log key, so every process trusts the others'
        self.reads = reads or store  # match lists and event logs (a read replica); moves and details: the primary
        self.key_uses = UseLog()
        self.cache = cache or StateCache()
        self.notifier = notifier or NoNotifier()
        # Told the id of every match this process appends to (the sequencer, the webhook dispatcher, live streams).
        self.watchers: list[Callable[[str], None]] = list(watchers)
        self.enders: list[Callable[[str], None]] = []  # told the id of every match this process ends (tournaments)
        # A search bot's turn waits this long for the background (its runner, a worker) before the sweep plays it.
        self.search_grace_s = search_grace_s

    def _moved(self, match_id: str) -> None:
        """After a commit: the projections' notifier and this process's watchers (live streams) hear of it."""
        self.notifier.appended()
        for watcher in self.watchers:
            watcher(match_id)

    def _ended(self, match_id: str) -> None:
        """After the append that ended a match: its tournament (if any) records the result. The match is recorded
        whatever they do; a failure is logged, and the tournament's sweep catches up."""
        for ender in self.enders:
            try:
                ender(match_id)
            except Exception:
                log.exception("match %s ended: a listener failed (its sweep will catch up)", match_id)

    def create(self, slug: str, players: Sequence[str | None], options: dict[str, Any] | None, *,
               seed: str | None = None, client_entropy: str | None = None, owner: str | None = None,
               visibility: Visibility = "public", rematch_of: str | None = None,
               rules_version: str | None = None, planned: PlannedMatch | None = None,
               retry: CreateKey | None = None) -> OpenedMatch:
        """Open a match for the app `owner`: `match.started` and the set-up events, one secret token per seat.

        A player None is an open seat: the match then records `match.opened` and waits for joins (a join code per
        open seat). A player `bot:<policy>` is a bot the service plays itself (domain/bots.py), at once when it is
        to move. The seed is the server's secret (mixed with `client_entropy` when given); a caller's own `seed`
        is for tests and teaching only, and the match is marked so (`seed_source: "caller"`) and never rated.
        `rules_version` names the rules edition to play (default: the current one; UnknownEdition if there is none).
        `planned`: a match the service opens for a tournament (its id, its server seed and its seat tokens).
        `retry`: the caller's Idempotency-Key (service/matches/idempotent.py): a create asked again with it answers
        as the first did, and opens nothing; asked with another request, IdempotencyMismatch.
        """
        command_id = None if retry is None else create_command_id(  # before anything may touch `options`
            slug, players, options, seed=seed, client_entropy=client_entropy, owner=owner, visibility=visibility,
            rematch_of=rematch_of, rules_version=rules_version)
        game = game_of(slug, rules_version)
        for player in players:
            name = None if player is None else bots.bot_name(player)
            if name is not None:
                bots.policy(game, name)  # an unknown bot is refused before anything is written
        seats_entropy = isinstance(options, dict) and options.get("entropy") == "seats"
        seed, source, server_seed = choose_seed(seed, client_entropy, seats_entropy)
        if planned is not None:  # a tournament's: its server part derived from the tournament's committed seed
            seed, source, server_seed = (planned.seed, "server+seats", planned.seed) if seats_entropy else \
                (planned.seed, "server", None)
        drawn = {s: new_seed() for s, p in enumerate(players) if p is not None and bots.bot_name(p) is not None}
        events = match.open_match(game, players, options, seed, seed_source=source, client_entropy=client_entropy,
                                  visibility=visibility, rematch_of=rematch_of,
                                  server_seed_commitment=server_commitment(seed, source, server_seed),
                                  server_entropy=drawn)
        token_of, code_of = ((planned.token_of, None) if planned is not None
                             else (retry.token_of, retry.code_of) if retry is not None else (None, None))
        seats, tokens, codes = new_seats(players, token_of, code_of)
        match_id = planned.id if planned is not None else retry.match_id() if retry is not None else str(uuid.uuid4())
        new = NewMatch(
            id=match_id, game=game.slug, rules_version=game.rules_version,
            seats=seats,
            options=getattr(events[0], "options", {}), seed=seed, seed_commitment=seed_commitment(seed),
            seed_source=source, client_entropy=client_entropy, server_seed=server_seed, owner=owner,
            visibility=visibility, rematch_of=rematch_of,
        )
        state = match.fold(game, events)
        try:
            result = self.store.create_match(new, sealed(game, seed, new.scheme, 1, events, None),
                                             due_in_s=due_in(game, state, 0, self.search_grace_s),
                                             command_id=command_id)
        except MatchExists:
            if retry is None or command_id is None:
                raise
            return self._created_before(new.id, command_id, seats, tokens, codes)
        metrics.EVENTS_APPENDED.labels(game.slug).inc(len(result.events))
        first, last = result.events[0], result.events[-1]
        record = MatchRecord(**msgspec.structs.asdict(new), status=status_of(state), version=last.version,
                             created_at=first.recorded_at, updated_at=first.recorded_at, head_hash=last.hash)
        loaded = LoadedMatch(record=record, game=game, state=state)
        self.cache.put(loaded)
        self._moved(record.id)
        self.play_bots(self.deal(loaded))
        return OpenedMatch(record=record, tokens=tokens, result=result, join_codes=codes)

    def _created_before(self, match_id: str, command_id: str, seats: tuple[SeatRecord, ...],
                        tokens: tuple[str | None, ...], codes: tuple[str | None, ...]) -> OpenedMatch:
        """The first answer to a create retried under its Idempotency-Key: the match as its creation left it (the
        seats, tokens and codes derived again from the key), or IdempotencyMismatch if it was created by another
        request."""
        original = self.store.find_command(match_id, command_id)
        if original is None:
            raise IdempotencyMismatch(match_id, command_id)
        metrics.REPLAYS.inc()
        loaded = self.cached(match_id)
        first, last = original.events[0], original.events[-1]
        state = match.fold(loaded.game, decode_events(loaded.game, [e.payload for e in original.events]))
        record = msgspec.structs.replace(loaded.record, seats=seats, version=last.version, head_hash=last.hash,
                                         updated_at=first.recorded_at, status=status_of(state))
        return OpenedMatch(record=record, tokens=tokens, result=original, join_codes=codes)

    def list_matches(self, *, game: str | None, player: str | None, status: str | None, owner: str | None,
                     after: tuple[datetime, str] | None, limit: int) -> list[MatchRecord]:
        """Matches newest first, filtered; `after` is the (created_at, id) to go on after. Public matches only,
        unless `owner` names the app whose matches (of any visibility) to list."""
        return self.reads.list_matches(game=game, player=player, status=status, owner=owner,
                                       visibility="public" if owner is None else None, after=after, limit=limit)

    def events(self, loaded: LoadedMatch, after: int, limit: int) -> list[StoredEvent]:
        """Up to `limit` stored events of a loaded match after version `after` (none past its version)."""
        last = min(after + limit, loaded.record.version)
        if after >= last:
            return []
        found = self.reads.read_match(loaded.record.id, after + 1, last)
        if len(found) < last - after:  # a replica behind the match's row (from the primary): the rest from there
            found += self.store.read_match(loaded.record.id, after + 1 + len(found), last)
        return found

    def reads_to_answer(self, loaded: LoadedMatch) -> bool:
        """Whether an answer about `loaded` reads the store: `first_redacted` of a live scheme-1 match, and the
        `deadlines` of a match with a move deadline (their start times). Handlers on the event loop answer the
        others there, and take these to a worker thread."""
        return ((loaded.record.scheme == SCHEME_FULL and not loaded.state.finished)
                or bool(loaded.state.options.get("move_deadline")))

    def first_redacted(self, loaded: LoadedMatch, seat: int | None) -> int | None:
        """Scheme 1 matches only, while live: the first event redacted for `seat`. Every hash from it on would let
        the caller test guesses of hidden cards (each later hash depends on it), so none is shown until the end."""
        if loaded.record.scheme != SCHEME_FULL or loaded.state.finished:
            return None
        for event in self.store.read_match(loaded.record.id, 1, loaded.record.version):
            if seen_by(loaded.game, event, seat)[1]:
                return event.version
        return None

    def app_name(self, key: str) -> str | None:
        """The name of the app holding this key, or None (unknown or revoked); its use is recorded now and then."""
        digest = secret_hash(key)
        name = self.store.app_key_name(digest)
        if name is not None and self.key_uses.due(digest):
            try:
                self.store.app_key_used(digest)
            except StoreError as exc:  # when a key was last used is worth no failed request
                log.warning("could not record the use of app key %s (%s)", digest[:12], exc)
        return name

    def cached(self, match_id: str) -> LoadedMatch:
        """The cached match (no round trip), else as stored now. It may be behind another process's writes."""
        return self.cache.get(match_id) or self.load(match_id)

    async def move(self, match_id: str, command: Command, caller: Caller, *, expected_version: int | None = None,
                   if_match: str = "", idempotency_key: str = "", include: str = "") -> MoveAnswer:
        """Play one move for the caller's seat and answer it (`include`, comma-separated: `view`, `legal`, `text`).

        The expected version is `expected_version` or `if_match` (which must agree); retries with the same
        `idempotency_key` get the first answer. The common move is played on the event loop (`play_async`): the match
        cached here, the caller's token one of its seats, and its answer reading nothing more from the store.
        Anything else (the store must say who the caller is, or the answer reads it) is done on a worker thread, the
        seat's check included, so the loop is never held while the store works."""
        cached = self.cache.get(match_id)
        reader = None if cached is None or self.reads_to_answer(cached) else caller.known_reader(cached.record)
        if reader is None or reader.seat is None:  # the store must say who the caller is: all on a worker thread
            return await asyncio.to_thread(self._move, match_id, command, caller, expected_version, if_match,
                                           idempotency_key, include)
        seat = reader.seat
        played = await self.play_async(match_id, seat, command, expected_version=expected_from(expected_version,
                                                                                            if_match),
                                       command_id=f"key:{seat}:{idempotency_key}" if idempotency_key else None)
        if self.reads_to_answer(played.after):
            return await asyncio.to_thread(self.move_answer, played, seat, include)
        return self.move_answer(played, seat, include)

    def _move(self, match_id: str, command: Command, caller: Caller, expected_version: int | None, if_match: str,
              idempotency_key: str, include: str) -> MoveAnswer:
        """`move` on a worker thread, start to end: whatever the caller's token, the match or the answer needs of the
        store."""
        loaded = self.cached(match_id)
        seat = access.seat_of(caller.reader(loaded.record, self.app_name))
        played = self.play(match_id, seat, command, expected_version=expected_from(expected_version, if_match),
                           command_id=f"key:{seat}:{idempotency_key}" if idempotency_key else None)
        return self.move_answer(played, seat, include)

    def move_answer(self, played: Played, seat: int, include: str) -> MoveAnswer:
        """The answer to a move played for `seat` (see `MoveAnswer`); it reads the store only when
        `reads_to_answer(played.after)`."""
        result, after = played.result, played.after
        game, state = after.game, after.state
        last = (played.bots or (result,))[-1]  # the bots this move put to move have replied
        stored = tuple(event for appended in (result, *played.bots) for event in appended.events)
        return MoveAnswer(
            played=played, seat=seat, events=stored, withheld_from=self.first_redacted(after, seat),
            names=bots.shown_names(game, state.players) if "text" in include else None, version=last.version,
            position=last.position, status=status_of(state), to_move=match.to_move(game, state),
            deadlines=deadlines(self, after, known=stored),
            view=msgspec.to_builtins(game.view(state.game_state, seat)) if "view" in include else None,
            legal=match.legal(game, state, seat) if "legal" in include else None,
        )

    def play(self, match_id: str, seat: int | None, command: Command, *, expected_version: int | None,
             command_id: str | None,
             seats: Callable[[MatchRecord], tuple[SeatRecord, ...]] | None = None) -> Played:
        """Decide and append one command (timed per game: `turnstile_move_seconds`), then the moves of any bot it
        puts to move (see `play_bots`)."""
        started = time.perf_counter()
        played = self._play(match_id, seat, command, expected_version=expected_version, command_id=command_id,
                            seats=seats)
        metrics.MOVE_SECONDS.labels(played.after.game.slug).observe(time.perf_counter() - started)
        if played.result.duplicate:
            return played
        after, moved = self.play_bots(self.deal(played.after))
        return Played(result=played.result, after=after, bots=moved)

    def deal(self, loaded: LoadedMatch, *, closing: bool = False) -> LoadedMatch:
        """Deal an `entropy: "seats"` match once every seat's entropy is in (or, `closing`, once its deadline has run
        out: the deadline sweep). Conditional on the version it was seen at, under the command id `deal`: of all the
        processes that see the last entropy arrive, exactly one deals; the others write nothing."""
        state = loaded.state
        if not state.dealing or (None in state.seat_entropy and not closing):
            return loaded
        try:
            played = self._play(loaded.record.id, None, Deal(), expected_version=state.version, command_id="deal",
                                seats=None)
        except (VersionMismatch, Refusal) as exc:  # dealt, called off or moved on meanwhile: nothing to do here
            log.info("match %s: not dealt here (%s)", loaded.record.id, exc)
            return loaded
        return played.after

    def play_bots(self, loaded: LoadedMatch, *, searching: bool = False,
                  searches: int | None = None) -> tuple[LoadedMatch, tuple[AppendResult, ...]]:
        """Play every bot to move, one move at a time, until a person is to move or the match ends.

        A search bot (domain/search.py: up to a second a move) is played only when `searching`: in the background
        (service/matches/bot_runner.py, and the deadline sweep, which finds its turn by the due hint `due_in` sets),
        never on a request's thread; until then the match shows its seat to move.
        Each bot move is conditional on the version it was chosen at, under a command id naming that version: when
        another process moved first, this one stops, and that process (having appended last) plays the bots.
        `searches`: at most this many search moves (a bot job plays one turn), then stop before the next.
        """
        moved: list[AppendResult] = []
        searched = 0
        for _ in range(BOT_MOVES):
            waiting = bots.bot_to_move(loaded.game, loaded.state)
            if waiting is None:
                break
            if bots.is_search(waiting[1]):
                if not searching or (searches is not None and searched >= searches):
                    break
                searched += 1
            found = bots.next_bot_move(loaded.game, loaded.state, draw_seed(loaded.record, loaded.state))
            if found is None:
                break
            seat, command = found
            version = loaded.state.version
            try:
                played = self._play(loaded.record.id, seat, command, expected_version=version,
                                    command_id=f"bot:{seat}:{version}", seats=None)
            except (VersionMismatch, Refusal):
                break
            if played.result.duplicate:
                break
            moved.append(played.result)
            loaded = played.after
        return loaded, tuple(moved)

    def _play(self, match_id: str, seat: int | None, command: Command, *, expected_version: int | None,
              command_id: str | None, seats: Callable[[MatchRecord], tuple[SeatRecord, ...]] | None) -> Played:
        """Decide and append one command. Without an expected version a conflict re-decides on fresh state.

        Every retry of a recorded command id gets the first answer: the append checks it, and so do the refusal
        and version-conflict paths before answering an error (the command may have been recorded meanwhile).
        `seats` gives the row's new seats (a join), from the row the command is decided on.
        """
        command_id = command_id or f"auto-{uuid.uuid4()}"
        asked = canonical(to_builtins(command))
        loaded, fresh = self.cached(match_id), False
        for _ in range(AUTO_RETRIES):
            version = loaded.state.version
            if expected_version is not None and expected_version != version:
                if not fresh and expected_version > version:  # the cache is behind: refresh and look again
                    loaded, fresh = self.load(match_id), True
                    continue
                return self._original(match_id, seat, asked, command_id, VersionMismatch(expected_version, version))
            try:
                new, state = self._decided(loaded, seat, command, asked)
            except Refusal as refusal:
                if not fresh:  # a cached state may be stale: refuse only on the state as stored now
                    loaded, fresh = self.load(match_id), True
                    continue
                return self._original(match_id, seat, asked, command_id, refusal)
            row_seats = None if seats is None else seats(loaded.record)
            try:
                appending = time.perf_counter()
                result = self.store.append(match_id, version, new, seat=seat, command=asked, command_id=command_id,
                                           head_hash=loaded.record.head_hash, seats=row_seats,
                                           due_in_s=due_in(loaded.game, state, version, self.search_grace_s))
                metrics.APPEND_SECONDS.observe(time.perf_counter() - appending)
            except ConflictError as conflict:
                metrics.VERSION_CONFLICTS.inc()
                loaded, fresh = self.load(match_id), True
                if expected_version is not None:
                    raise VersionMismatch(expected_version, conflict.actual) from conflict
                continue
            if result.duplicate:
                metrics.REPLAYS.inc()
                return Played(result=result, after=self.load(match_id))
            after = self._recorded(loaded, state, result, row_seats)
            if state.ended is not None and loaded.state.ended is None:
                self._ended(match_id)
            if snapshots.crossed(version, after.record.version):
                self._save_snapshot(after)
            return Played(result=result, after=after)
        raise VersionMismatch(loaded.state.version, self.load(match_id).state.version)

    async def play_async(self, match_id: str, seat: int | None, command: Command, *, expected_version: int | None,
                         command_id: str | None) -> Played:
        """`play` for a caller on an event loop. The common move (its match cached here and current, the command
        legal, and no end, snapshot, bot or deal to follow) is decided here and appended on the store's async path,
        so the loop is never held while the store works. Anything else is `play` on a worker thread, under the same
        command id: an attempt here stored nothing, or stored this very command, so the thread has nothing to undo.
        """
        command_id = command_id or f"auto-{uuid.uuid4()}"

        def on_thread() -> Awaitable[Played]:
            return asyncio.to_thread(self.play, match_id, seat, command, expected_version=expected_version,
                                     command_id=command_id)

        started = time.perf_counter()
        loaded = self.cache.get(match_id)
        if loaded is None or loaded.state.dealing or expected_version not in (None, loaded.state.version):
            return await on_thread()
        version, asked = loaded.state.version, canonical(to_builtins(command))
        try:
            new, state = self._decided(loaded, seat, command, asked)
        except Refusal:  # refused only on the state as stored now
            return await on_thread()
        if (state.ended is not None or snapshots.crossed(version, version + len(new))
                or bots.bot_to_move(loaded.game, state) is not None):
            return await on_thread()
        try:
            appending = time.perf_counter()
            result = await self.store.append_async(match_id, version, new, seat=seat, command=asked,
                                                   command_id=command_id, head_hash=loaded.record.head_hash,
                                                   due_in_s=due_in(loaded.game, state, version, self.search_grace_s))
            metrics.APPEND_SECONDS.observe(time.perf_counter() - appending)
        except ConflictError:
            metrics.VERSION_CONFLICTS.inc()
            return await on_thread()
        if result.duplicate:
            return await on_thread()
        after = self._recorded(loaded, state, result, None)
        metrics.MOVE_SECONDS.labels(loaded.game.slug).observe(time.perf_counter() - started)
        return Played(result=result, after=after)

    def _decided(self, loaded: LoadedMatch, seat: int | None, command: Command,
                 asked: dict[str, Any]) -> tuple[list[NewEvent], MatchState]:
        """The events `command` makes on `loaded`, sealed for the store, and the state they fold to (Refusal)."""
        version = loaded.state.version
        events = match.decide(loaded.game, loaded.state, seat, command,
                              Rng.derive(draw_seed(loaded.record, loaded.state), version))
        new = sealed(loaded.game, loaded.record.seed, loaded.record.scheme, version + 1, events, asked)
        return new, match.fold(loaded.game, events, loaded.state)

    def _recorded(self, loaded: LoadedMatch, state: MatchState, result: AppendResult,
                  seats: tuple[SeatRecord, ...] | None) -> LoadedMatch:
        """After our own append committed: counted, the cache advanced, and every watcher told."""
        metrics.EVENTS_APPENDED.labels(loaded.game.slug).inc(len(result.events))
        after = self._advance(loaded, state, result, seats)
        self._moved(loaded.record.id)
        return after

    def _original(self, match_id: str, seat: int | None, asked: dict[str, Any], command_id: str,
                  error: Exception) -> Played:
        """The first answer to this command id if it was recorded (IdempotencyMismatch if another command), else
        raise `error`."""
        original = self.store.find_command(match_id, command_id)
        if original is None:
            raise error
        metrics.REPLAYS.inc()
        return Played(result=replayed(original.events, command_id, seat, asked), after=self.load(match_id))

    def _advance(self, loaded: LoadedMatch, state: MatchState, result: AppendResult,
                 seats: tuple[SeatRecord, ...] | None) -> LoadedMatch:
        """The cached match after our own append: its state (folded on before the append), its row's store-owned
        fields updated."""
        last: StoredEvent = result.events[-1]
        record = msgspec.structs.replace(loaded.record, version=last.version, head_hash=last.hash,
                                         updated_at=last.recorded_at, status=status_of(state),
                                         seats=loaded.record.seats if seats is None else seats)
        after = LoadedMatch(record=record, game=loaded.game, state=state)
        self.cache.put(after)
        return after
