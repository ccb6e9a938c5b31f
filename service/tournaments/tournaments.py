"""Tournaments run by the service: a stream of events beside the matches, and the matches it opens for each round.

Every command loads the stream, folds it, decides with `Rng.derive(played seed, pairing_round(state))` (the seed
committed at creation, mixed with the organiser's entropy when the start brought some) and appends at the
version it folded (domain/tournaments/README.md, "What the service does with it"). Of two processes deciding on one
version, one append conflicts; it folds again and decides again, so a round advances exactly once: the loser is
refused `round-not-over` (the next round has just begun) or `result-already-recorded`, which are the success the
other process had.

`drive` moves a started tournament on as far as it can: it opens the current round's matches (ids, seeds and
seat tokens derived, so a retry after a crash opens the same match), records the result of every match that has
ended and advances once the round is over. The match service calls `match_ended` after the append that ends a
match; `sweep` drives every running tournament, and catches up after a crash between a match's end and its result.

Bots move at once, so one drive can play a whole tournament of bots (16 bots round robin: 120 matches, ≈ 9 s). A
drive a request starts (start, withdraw, the move that ends a match) stops after `budget_s` and leaves the rest to
this process's background driver, so no request waits on other matches being played; a process that dies meanwhile
leaves it to the sweep.
"""

from __future__ import annotations

import hmac
import logging
import queue
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from domain.codec import to_builtins
from domain.engine import Command, Event, Refusal
from domain.lifecycle import Cancel, Resign
from domain.rng import Rng, seed_commitment
from domain.tournaments import TournamentState, decide, fold, formats, match_seed, pairing_round, seed_for
from domain.tournaments.commands import (
    Advance,
    CreateTournament,
    Join,
    OpenTable,
    RecordResult,
    Start,
    Withdraw,
)
from domain.tournaments.events import MatchResult, TableOpened, TournamentCreated, TournamentEvent
from domain.tournaments.results import entrant_results, players_of
from domain.tournaments.state import Round
from domain.tournaments.verify import team_seed
from ledger.events import StoredEvent, Visibility
from ledger.merkle import tournament_stream
from service.errors import ServiceError
from service.matches.matches import MatchService
from service.matches.model import PlannedMatch
from service.matches.tokens import derived_seat_token, new_secret, secret_hash
from service.streams import Loaded, Streams
from store.base import MatchExists, MatchNotFound
from store.tournaments import (
    NewTournament,
    TooManyRunning,
    TournamentNotFound,
    TournamentRecord,
    TournamentStore,
    status_after,
)
from store.transparency import TransparencyStore

log = logging.getLogger("turnstile.tournaments")

RETRIES = 50  # appends that may conflict in a row before giving up (each conflict means another process moved it)
CACHED = 64  # tournaments kept folded in a process
STEPS = 10_000  # what one drive may do at most: a tournament of bots plays itself to the end within it
MATCH_NAMESPACE = uuid.UUID("0b7d4c56-4f0e-4a55-8d7a-3c1f6a9e2e10")  # names the matches of tournaments


class TournamentPorts(TournamentStore, TransparencyStore, Protocol):
    """The tournament service's port: the tournaments' rows and streams, and the log's leaves to check them against."""


class NotYourTournament(ServiceError):
    """Only the app that created a tournament may start it or withdraw its entrants."""

    code, kind = "not-your-tournament", "forbidden"
    detail = "only the app that created this tournament may do this"


class TooManyTournaments(ServiceError):
    """The app has as many tournaments running as it may (`TURNSTILE_TOURNAMENTS_RUNNING_PER_APP`)."""

    code, kind = "too-many-tournaments", "too-many"


class WrongPlaceCode(ServiceError):
    """No open place of this tournament has this join code."""

    code, kind = "wrong-place-code", "forbidden"
    detail = "no open place of this tournament has this join code"


# A tournament as stored: its row, its events (as stored and decoded) and their fold.
LoadedTournament = Loaded[TournamentRecord, TournamentState]


class TournamentDecider:
    """The tournament aggregate for the stream mechanism (service/streams.py): its events fold into the standings
    and rounds, and a command is decided with the RNG of the seed it is played from and the round it pairs."""

    category = "tournament"

    def log_stream(self, tournament_id: str) -> str:
        return tournament_stream(tournament_id)

    def decode(self, stored: Sequence[StoredEvent]) -> list[Event]:
        return decode(stored)

    def fold(self, events: Sequence[Event], state: TournamentState | None) -> TournamentState:
        return fold(list(events), state)

    def decide(self, loaded: LoadedTournament, command: Command) -> list[Event]:
        state = loaded.state
        return decide(state, command, Rng.derive(seed_for(loaded.record.seed, state, command), pairing_round(state)))

    def encode(self, event: Event) -> dict[str, Any]:
        return to_builtins(event)  # type: ignore[no-any-return]

    def advanced(self, record: TournamentRecord, appended: Sequence[StoredEvent],
                 payloads: Sequence[dict[str, Any]]) -> TournamentRecord:
        last = appended[-1]
        return msgspec.structs.replace(record, version=last.version, head_hash=last.hash, updated_at=last.recorded_at,
                                       status=status_after(payloads, record.status))


class TournamentStreams:
    """The tournament store seen as a stream store; a start appends only under the owner's cap of running
    tournaments (`running_cap`), counted in the append's own transaction."""

    def __init__(self, store: TournamentStore, running_cap: int | None = None) -> None:
        self.store = store
        self.running_cap = running_cap

    def read_stream(self, tournament_id: str, from_version: int) -> tuple[TournamentRecord, list[StoredEvent]]:
        return self.store.tournament_with_events(tournament_id, from_version)

    def append_stream(self, tournament_id: str, expected_version: int,
                      payloads: Sequence[dict[str, Any]]) -> list[StoredEvent]:
        return self.store.append_tournament(tournament_id, expected_version, payloads, running_cap=self.running_cap)


@dataclass(frozen=True)
class CreatedTournament:
    """A new tournament and the join code of each open place (shown once)."""

    loaded: LoadedTournament
    codes: dict[int, str]


def match_id_of(tournament_id: str, number: int, table: int, team: int | None) -> str:
    """The id of a round's table's match (a cooperative table: of one team's), the same whoever opens it."""
    return str(uuid.uuid5(MATCH_NAMESPACE, f"{tournament_id}/{number}/{table}/{'' if team is None else team}"))


def decode(stored: Sequence[Any]) -> list[Event]:
    """The stored payloads as tournament events."""
    return [msgspec.convert(e.payload, TournamentEvent) for e in stored]


def owes_match(state: TournamentState, current: Round) -> list[tuple[int, tuple[int, ...], int | None]]:
    """(table, entrants seated, team) of every match of the round still to open: a competitive table's one match, or
    each team's at a cooperative table; none for an entrant whose result is in (a withdrawal's forfeit)."""
    owed: list[tuple[int, tuple[int, ...], int | None]] = []
    for number, table in enumerate(current.tables):
        done = {r.entrant for r in current.results[number]}
        opened = current.matches[number]
        if state.created.cooperative:
            owed.extend((number, (e,), e) for e in table
                        if e not in done and not any(e in m.entrants for m in opened))
        elif not opened and not set(table) <= done:
            owed.append((number, table, None))
    return owed


class BackgroundDriver:
    """One thread that drives the tournaments handed to it, each once however often it is handed over meanwhile."""

    def __init__(self, drive: Callable[[str], object]) -> None:
        self._drive = drive
        self._waiting: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def hand_over(self, tournament_id: str) -> None:
        """Drive `tournament_id` on the background thread soon."""
        with self._lock:
            if tournament_id in self._pending:
                return
            self._pending.add(tournament_id)
            if self._thread is None:  # a daemon: a drive cut short by the process's end is the sweep's to finish
                self._thread = threading.Thread(target=self._run, name="turnstile-tournaments", daemon=True)
                self._thread.start()
        self._waiting.put(tournament_id)

    def _run(self) -> None:
        while True:
            tournament_id = self._waiting.get()
            with self._lock:
                self._pending.discard(tournament_id)
            try:
                self._drive(tournament_id)
            except Exception:  # logged; the sweep drives it again
                log.exception("tournament %s: the background drive failed", tournament_id)


class TournamentService:
    """Creates tournaments and runs them on the match service's matches. `budget_s`: how long a drive a request
    started may run before the background driver takes over (None: to the end, on the caller's thread)."""

    def __init__(self, store: TournamentPorts, matches: MatchService, *, budget_s: float | None = None,
                 matches_max: int = 512, running_per_app: int = 10) -> None:
        self.store = store
        self.matches = matches
        self.budget_s = budget_s
        self.matches_max = matches_max  # the matches one tournament's format may plan (refused at creation past it)
        self.running_per_app = running_per_app  # tournaments an app may have running (a start past it: refused)
        self.background = BackgroundDriver(self.drive)
        self._driving = threading.local()
        self.streams: Streams[TournamentRecord, TournamentState, Command] = Streams(
            TournamentDecider(), TournamentStreams(store, running_per_app), store, cached=CACHED, retries=RETRIES)
        matches.enders.append(self.match_ended)

    # ---- reading -------------------------------------------------------------------------------------------

    def load(self, tournament_id: str) -> LoadedTournament:
        """The tournament as stored now; RecordCorrupt when its chain does not reach the head its row records, or
        its events are not those the transparency log holds (service/streams.py)."""
        return self.streams.load(tournament_id)

    def readable(self, tournament_id: str, app: str | None) -> LoadedTournament:
        """The tournament as `app` (None: anyone) may read it: a private one of another app does not exist."""
        loaded = self.load(tournament_id)
        if loaded.record.visibility == "private" and (app is None or app != loaded.record.owner):
            raise TournamentNotFound(tournament_id)
        return loaded

    def revealed_seed(self, loaded: LoadedTournament) -> str | None:
        """The tournament's seed, once it has finished and the store holds no match of it still dealing (a match a
        crash left uncalled-off, however it came to be: the stream does not say, the store does); else None. With
        the seed a seat works out a dealing match's server part and chooses its deal with its own entropy."""
        if not loaded.state.finished or self.store.dealing_tournament_matches(loaded.record.id):
            return None
        return loaded.record.seed

    def owned(self, tournament_id: str, app: str) -> LoadedTournament:
        """The tournament, if `app` created it (a private one of another app does not exist; else 403)."""
        loaded = self.readable(tournament_id, app)
        if loaded.record.owner != app:
            raise NotYourTournament(tournament_id)
        return loaded

    # ---- commands ------------------------------------------------------------------------------------------

    def create(self, owner: str, command: CreateTournament) -> CreatedTournament:
        """Open a tournament for the app `owner`: a secret seed committed to in `tournament.created`, and a join code
        for each open place. With option `entropy: "seats"` each match is a fair deal: the server's part is the seed
        the tournament derives for it (committed to before any seat's entropy), the deal waits for the seats'."""
        seed = secrets.token_hex(32)
        command = msgspec.structs.replace(command, seed_commitment=seed_commitment(seed))
        (created,) = decide(None, command, Rng.derive(seed, 1))
        assert isinstance(created, TournamentCreated)
        planned = formats.planned_matches(created, len(created.entrants))
        if planned > self.matches_max:
            raise Refusal("too-many-matches", f"this tournament would play {planned} matches; this server plays at "
                                              f"most {self.matches_max} for one tournament")
        codes = {i: new_secret("join") for i, e in enumerate(created.entrants) if e.open}
        visibility: Visibility = command.visibility  # type: ignore[assignment]  # checked by decide
        new = NewTournament(id=str(uuid.uuid4()), game=command.game, format=command.format, owner=owner,
                            visibility=visibility, seed=seed, token_secret=secrets.token_hex(32),
                            places={str(i): secret_hash(code) for i, code in codes.items()})
        self.store.create_tournament(new, to_builtins(created))
        return CreatedTournament(loaded=self.load(new.id), codes=codes)

    def join(self, tournament_id: str, code: str, handle: str, members: tuple[str, ...] = ()) -> LoadedTournament:
        """Fill the open place whose join code is `code` (anyone holding the code may). A private tournament exists
        only for a caller holding one of its codes: a wrong code is an unknown id, not an existence oracle."""
        record = self.store.get_tournament(tournament_id)
        if record is None:
            raise TournamentNotFound(tournament_id)
        digest = secret_hash(code)
        place = next((int(i) for i, h in record.places.items() if hmac.compare_digest(h, digest)), None)
        if place is None:
            if record.visibility == "private":
                raise TournamentNotFound(tournament_id)
            raise WrongPlaceCode(tournament_id)
        return self.send(tournament_id, Join(handle=handle, entrant=place, members=members))[0]

    def start(self, tournament_id: str, app: str, entropy: str | None = None) -> LoadedTournament:
        """Close entries, pair round 1 and open its matches (a tournament of bots plays on to its end). `entropy`:
        the organiser's, mixed into the committed seed (`played_seed`): the server did not choose the seed played."""
        self.owned(tournament_id, app)
        try:  # the cap is counted in the start's append, so two starts at once never both pass it
            self.send(tournament_id, Start(entropy=entropy))
        except TooManyRunning as cap:
            raise TooManyTournaments(f"this app has {cap.running} tournaments running, as many as it may; start this "
                                     "one once another has finished") from cap
        self.drive(tournament_id, budget_s=self.budget_s)
        return self.load(tournament_id)

    def withdraw(self, tournament_id: str, app: str, entrant: int) -> LoadedTournament:
        """An entrant leaves: never paired again; its pending match is forfeited: called off if it was never dealt
        (a fair deal still waiting for its seats' entropy), else its seats there resign."""
        self.owned(tournament_id, app)
        loaded, events = self.send(tournament_id, Withdraw(entrant=entrant))
        for event in events:
            if isinstance(event, MatchResult) and event.match_id and not self._call_off(event.match_id):
                self._resign(loaded.state, event, entrant)
        self.drive(tournament_id, budget_s=self.budget_s)
        return self.load(tournament_id)

    def _call_off(self, match_id: str) -> bool:
        """Call off a match of the tournament that was never dealt (`match.ended`, reason `cancelled`, as the match
        service calls off any match not dealt): True when it is over now without having been dealt by this call
        (it was dealing, or is gone); False when it has been dealt, so is played or over."""
        try:
            self.matches.play(match_id, None, Cancel(), expected_version=None, command_id=None)
        except MatchNotFound:
            return True
        except Refusal as refusal:  # dealt (and played, or over): its seats resign, or its end stands
            log.info("match %s: not called off (%s)", match_id, refusal)
            return False
        log.info("match %s: called off before it was dealt", match_id)
        return True

    def _call_off_dealing(self, tournament_id: str, through_round: int) -> None:
        """Call off every match of rounds up to `through_round` still waiting for its seats' entropy. Its round is
        over, so no such match counts any more; and once the seed is revealed a seat could work out the match's
        server part and choose its deal with its own entropy: none may be dealing when the tournament finishes."""
        for match_id, number in self.store.dealing_tournament_matches(tournament_id):
            if number <= through_round:
                self._call_off(match_id)

    def _resign(self, state: TournamentState, forfeit: MatchResult, entrant: int) -> None:
        """Resign the withdrawn entrant's seats in the match it forfeited (if it is still being played)."""
        table = state.rounds[forfeit.round - 1].tables[forfeit.table]
        seats = range(state.created.seats) if state.created.cooperative else [table.index(entrant)]
        for seat in seats:
            try:
                self.matches.play(forfeit.match_id, seat, Resign(), expected_version=None,
                                  command_id=f"tournament-withdrawal:{seat}")
            except (Refusal, MatchNotFound) as exc:  # over already, or resigned: the forfeit stands either way
                log.info("match %s: seat %s not resigned (%s)", forfeit.match_id, seat, exc)
                return

    def send(self, tournament_id: str, command: Command) -> tuple[LoadedTournament, list[Event]]:
        """Decide `command` on the stream as stored and append what it records (a conflict decides again)."""
        return self.streams.send(tournament_id, command)

    # ---- running -------------------------------------------------------------------------------------------

    def match_ended(self, match_id: str) -> None:
        """A match ended (the match service says so after the append): drive its tournament, if it has one."""
        link = self.store.tournament_link(match_id)
        if link is not None:
            self.drive(link.tournament_id, budget_s=self.budget_s)

    def sweep(self) -> int:
        """Call off the orphans of finished tournaments, then drive every running tournament (catching up on results
        a crash left unrecorded); how many moved on."""
        self.call_off_orphans()
        moved = 0
        for tournament_id in self.store.running_tournaments():
            try:
                moved += self.drive(tournament_id) > 0
            except Exception:
                log.exception("tournament %s: the sweep could not drive it", tournament_id)
        return moved

    def call_off_orphans(self) -> int:
        """Call off every match still dealing of a tournament that has finished: opened for a round another process
        moved past, by a process that stopped before calling it off (`_open`). Until then its seed stays hidden
        (`revealed_seed`); how many were called off."""
        orphans = self.store.orphaned_dealing_matches()
        for match_id, tournament_id in orphans:
            log.warning("tournament %s: match %s still dealing after the finish; calling it off", tournament_id,
                        match_id)
            self._call_off(match_id)
        return len(orphans)

    def drive(self, tournament_id: str, *, budget_s: float | None = None) -> int:
        """Open, record and advance until nothing is left to do now; the number of steps taken. A drive of the same
        tournament already under way on this thread (a bot match it opened ended at once) leaves the work to it.
        With `budget_s`, a drive still going after that long hands the rest to the background driver."""
        busy: set[str] = self._driving.__dict__.setdefault("busy", set())
        if tournament_id in busy:
            return 0
        busy.add(tournament_id)
        until = None if budget_s is None else time.monotonic() + budget_s
        try:
            for steps in range(STEPS):
                if until is not None and time.monotonic() >= until:
                    self.background.hand_over(tournament_id)
                    return steps
                if not self._step(tournament_id):
                    return steps
            log.warning("tournament %s: stopped after %d steps; the sweep goes on", tournament_id, STEPS)
            return STEPS
        finally:
            busy.discard(tournament_id)

    def _step(self, tournament_id: str) -> bool:
        """One thing to do now (open a match, record a result, advance the round); False when there is none."""
        loaded = self.load(tournament_id)
        state, current = loaded.state, loaded.state.current
        if not state.started or state.finished or current is None:
            return False
        owed = owes_match(state, current)
        if owed:
            table, seated, team = owed[0]
            self._open(loaded, current.number, table, seated, team)
            return True
        for table, opened in enumerate(current.matches):
            done = {r.entrant for r in current.results[table]}
            for match_opened in opened:
                seated = match_opened.entrants or current.tables[table]
                if not set(seated) <= done and self._record(tournament_id, state, match_opened, table):
                    return True
        if current.over:
            self._call_off_dealing(tournament_id, current.number)  # before the finish reveals the seed
            return self._quietly(tournament_id, Advance(), "round-not-over")
        return False

    def _open(self, loaded: LoadedTournament, number: int, table: int, seated: tuple[int, ...],
              team: int | None) -> None:
        """Create a table's match (or one team's) and record it: players in seat order, the game's options and the
        move deadline, the recorded edition, a seed derived from the tournament's, derived seat tokens."""
        record, state = loaded.record, loaded.state
        created = state.created
        match_id = match_id_of(record.id, number, table, team)
        played = seed_for(record.seed, state)
        seed = match_seed(played, number, table) if team is None else team_seed(played, number, table, team)
        secret = record.token_secret
        self.store.link_tournament_match(match_id, record.id, number, table)
        options = dict(created.options)
        if created.move_deadline is not None:
            options["move_deadline"] = created.move_deadline
        try:
            self.matches.create(created.game, players_of(state, seated), options, owner=record.owner,
                                visibility=record.visibility, rules_version=created.rules_version,
                                planned=PlannedMatch(id=match_id, seed=seed,
                                                     token_of=lambda seat: derived_seat_token(secret, match_id, seat)))
        except MatchExists:  # opened before a crash, or by another process just now: it is the same match
            log.info("tournament %s: match %s exists already", record.id, match_id)
        entrants = () if team is None else seated
        if not self._quietly(record.id, OpenTable(round=number, table=table, match_id=match_id, entrants=entrants),
                             "table-already-opened"):
            recorded = self.load(record.id).state
            if not any(m.match_id == match_id for r in recorded.rounds for t in r.matches for m in t):
                # Created for a round another process has moved past (or a tournament it has finished): nobody will
                # play it, and a seed revealed meanwhile would let a seat choose its deal.
                self._call_off(match_id)

    def _record(self, tournament_id: str, state: TournamentState, opened: TableOpened, table: int) -> bool:
        """Record the result of a match that has ended; False while it is being played."""
        loaded = self.matches.load(opened.match_id)
        ended = loaded.state.ended
        if ended is None:
            return False
        seated = opened.entrants or state.rounds[opened.round - 1].tables[table]
        turns = getattr(loaded.state.game_state, "turn", None) if state.created.cooperative else None
        results = entrant_results(seated, ended, loaded.state.resigned, turns)
        return self._quietly(tournament_id, RecordResult(round=opened.round, table=table, results=results,
                                                         match_id=opened.match_id), "result-already-recorded")

    def _quietly(self, tournament_id: str, command: Command, done: str) -> bool:
        """Send a command whose refusal `done` means another process did it first: True when this one did."""
        try:
            self.send(tournament_id, command)
        except Refusal as refusal:
            if refusal.code in (done, "not-current-round", "tournament-finished"):
                return False
            raise
        return True

    # ---- lists and the owning app's view -------------------------------------------------------------------

    def listed(self, reader: str | None, *, mine: bool = False, game: str | None = None, status: str | None = None,
             after: tuple[str, str] | None = None, limit: int = 50) -> list[TournamentRecord]:
        """Tournaments newest first: public ones and the reader's own (`mine`: its own only)."""
        return self.store.list_tournaments(reader=reader, mine=mine, game=game, status=status, after=after,
                                           limit=limit)
