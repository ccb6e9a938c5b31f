"""Replay and audit over a store: any moment of any match, its record, and the verification of records."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import msgspec

from domain import match
from domain.catalog import by_slug, game_of
from domain.codec import event_from_builtins
from domain.engine import Game
from domain.match import MatchState
from ledger.chain import GENESIS, verify_chain
from ledger.events import MatchRecord, StoredEvent, chain_break, commitment_break
from ledger.records import LogProof, Record, build_record
from ledger.replay import UnknownVersion
from ledger.rules_checks import Check
from ledger.verify import Verdict, verify_record
from service.log.transparency import Transparency, check_against_log, leaves_disagreement, log_disagreement
from service.matches.deadlines import at
from service.matches.model import status_of
from store.base import MatchNotFound, RecordCorrupt, match_key
from store.exports import ExportStore
from store.replica import ReadStore
from store.transparency import LogLeaf


@dataclass(frozen=True)
class Moment:
    """A match at one version: the row as it is now, the state after event `state.version`, and whether
    the table exists yet (set-up is one atomic append; no one ever saw the moments inside it)."""

    record: MatchRecord
    game: Game[Any]
    state: MatchState
    set_up: bool
    events: tuple[StoredEvent, ...] = ()  # the stored events up to `state.version`

    @property
    def status(self) -> str:
        """The match's status at this version (open, active or finished), not today's."""
        return status_of(self.state)

    @property
    def to_move(self) -> list[int]:
        """The seats to move at this version (none during set-up)."""
        return match.to_move(self.game, self.state) if self.set_up else []

    def deadlines(self) -> dict[int, datetime]:
        """Each seat to move at this version and when its time ran (or runs) out then, with a move deadline."""
        seconds = self.state.options.get("move_deadline")
        if not seconds or not self.state.since:
            return {}
        times = {e.version: at(e.recorded_at) for e in self.events}
        return {s: times[self.state.since[s]] + timedelta(seconds=seconds) for s in self.to_move}

    @property
    def public(self) -> bool:
        """Once a match has ended its whole record is public."""
        return self.record.status == "finished"


@dataclass(frozen=True)
class PageRead:
    """A page of finished matches (their rows as listed) with what checking and proving them needs from the stores:
    each match's events and log leaves, and each record's log proof (None: its head is in no signed tree yet)."""

    records: list[MatchRecord]
    events: dict[str, list[StoredEvent]]
    leaves: dict[str, list[LogLeaf]]
    proofs: list[LogProof | None]


READS = 3  # reads of a match row that a concurrent append moved on, before its disagreement with the log counts


class Audit:
    """Replays, records and verification of the matches of one store."""

    def __init__(self, store: ReadStore, primary: Audit | None = None, log: Transparency | None = None) -> None:
        self.store = store
        self.primary = primary  # when `store` is a replica: asked for a version the replica has not received yet
        self.log = log  # the transparency log: exports carry its proof; stored events are checked against it

    def state_at(self, match_id: str, version: int | None) -> Moment:
        """The match folded up to `version` (None: now); MatchNotFound, UnknownVersion or RecordCorrupt."""
        record, stored = self.intact(match_id)
        if self.primary is not None and version is not None and version > record.version:
            return self.primary.state_at(match_id, version)
        version = record.version if version is None else version
        if version > record.version:
            raise UnknownVersion(version, record.version)
        game = game_of(record.game, record.rules_version)
        state = match.fold(game, [event_from_builtins(game, e.payload) for e in stored[:version]])
        # Set-up events carry no command: the table is ready at the last of them.
        set_up = version == record.version or any(e.command is not None for e in stored[:version + 1])
        return Moment(record=record, game=game, state=state, set_up=set_up and state.game_state is not None,
                      events=tuple(stored[:version]))

    def intact(self, match_id: str) -> tuple[MatchRecord, list[StoredEvent]]:
        """The match row and all its events, or RecordCorrupt when they do not reach the head the row records, an
        event does not hash to its hash, or (the seed being the server's) a commitment does not open to its event's
        stored full payload and command."""
        record, stored, disagrees = self._settled(match_id, self._chain_intact)
        if disagrees and self.log is not None:  # logs it and raises RecordCorrupt
            check_against_log(self.log.store, match_id, record.version, stored, tail=self.primary is None)
        return record, stored

    def _settled(self, match_id: str, read: Callable[[str], tuple[MatchRecord, list[StoredEvent]]],
                 ) -> tuple[MatchRecord, list[StoredEvent], bool]:
        """The row and events by `read`, read again while they disagree with the log because a move landed meanwhile;
        and whether they still disagree with it (the log's leaves are read once when they agree).

        The row and its events are one read, the log's leaves another: a move committed and sequenced between the two
        puts a leaf past the row read. Only a row that stays as it was read is a tail cut (or an edit)."""
        for attempt in range(READS):
            record, stored = read(match_id)
            # a replica may lag the log's leaves: only the primary's row bounds them
            if self.log is None or log_disagreement(self.log.store, match_id, record.version, stored,
                                                     tail=self.primary is None) is None:
                return record, stored, False
            if attempt + 1 == READS or self.store.get_match(match_id) in (None, record):
                break
        return record, stored, True

    def _chain_intact(self, match_id: str) -> tuple[MatchRecord, list[StoredEvent]]:
        """The match row and all its events, or RecordCorrupt unless the events chain to the row's head, each hashes
        to its hash and each commitment opens."""
        record, stored = self.store.match_with_events(match_id)
        broken = chain_break(record.version, record.head_hash, 0, GENESIS, stored)
        if broken is not None:
            raise RecordCorrupt(match_id, broken)
        altered = verify_chain(stored)
        if altered is not None:
            raise RecordCorrupt(match_id, f"event {altered}'s stored fields do not hash to its recorded hash")
        unopened = commitment_break(record.seed, stored)
        if unopened is not None:
            raise RecordCorrupt(match_id, unopened)
        return record, stored

    def match(self, match_id: str) -> MatchRecord:
        """The match row, or MatchNotFound."""
        record = self.store.get_match(match_id)
        if record is None:
            raise MatchNotFound(match_id)
        return record

    def export(self, match_id: str, seat: int | None, *, full: bool = False) -> Record:
        """The record of a match: complete once it has ended (or with `full`, for operators), else for `seat`.

        A damaged stored record is not served (RecordCorrupt); `verify` is how an operator inspects one.
        """
        record, stored = self.intact(match_id)
        built = build_record(game_of(record.game, record.rules_version), record, stored, seat=seat, full=full)
        proof = None if self.log is None or not stored else self.log.record_proof(match_id, record.version)
        return built if proof is None else msgspec.structs.replace(
            built, header=msgspec.structs.replace(built.header, transparency=proof))

    def read_page(self, store: ExportStore, records: list[MatchRecord]) -> PageRead:
        """What `export_page` checks a page of finished matches (their rows as listed) with: their events, log leaves
        and log proofs, each read once for the page (the checkpoint and the proof nodes too) instead of once a
        record."""
        ids = [record.id for record in records]
        events = store.events_of(ids)
        leaves = self.log.store.log_leaves_of_streams(ids) if self.log is not None else {}
        proofs: list[LogProof | None] = [None] * len(records) if self.log is None \
            else self.log.record_proofs([(r.id, r.version) for r in records], leaves)
        return PageRead(records, events, leaves, proofs)

    def export_page(self, page: PageRead) -> list[Record | RecordCorrupt]:
        """The complete records of a page read by `read_page`, each checked as `intact` checks it (its events reach
        the row's head, each hashes to its hash, each commitment opens, the log's leaves hold them) and carrying its
        log proof, as `export` gives them. A record that fails a check here is built by `export` alone, which reads it
        again and refuses a damaged one (RecordCorrupt, in the record's place)."""
        built: list[Record | RecordCorrupt] = []
        for record, proof in zip(page.records, page.proofs, strict=True):
            stored = [e for e in page.events.get(record.id, []) if e.version <= record.version]
            intact = chain_break(record.version, record.head_hash, 0, GENESIS, stored) is None \
                and verify_chain(stored, record.seed) is None \
                and (self.log is None or leaves_disagreement(page.leaves.get(record.id, []), record.version, stored,
                                                             tail=self.primary is None) is None)
            if not intact or not stored:  # the careful path: read again, and refuse what is damaged
                try:
                    built.append(self.export(record.id, None))
                except RecordCorrupt as exc:
                    built.append(exc)
                continue
            one = build_record(game_of(record.game, record.rules_version), record, stored, seat=None)
            built.append(one if proof is None else msgspec.structs.replace(
                one, header=msgspec.structs.replace(one.header, transparency=proof)))
        return built

    def verify(self, match_id: str) -> Verdict:
        """Verify a stored match from its operator's record (every event; the seed only once it has ended).

        The header states the row's version, status and head hash, so events lost from storage show as `truncated`.
        The store holds the seed, so the commitments of a live match are opened too: a hidden part or a command
        edited in storage fails `commitments` (`commitment-mismatch`) before the end, not only once the seed is out.
        With the transparency log, a record that passed every check but disagrees with the log's leaves (a tail cut
        and its row rewritten, hashes spliced consistently) fails `log` with code `log-mismatch`.
        """
        record, stored, disagrees = self._settled(match_id, self.store.match_with_events)
        # The complete record needs no rules to build, so a match of a game no longer served still gets a verdict.
        verdict = verify_record(build_record(by_slug(record.game), record, stored, seat=None, full=True),
                                held_seed=record.seed)
        if not verdict.ok or self.log is None or not disagrees:
            return verdict
        try:
            check_against_log(self.log.store, match_id, record.version, stored, tail=self.primary is None)
        except RecordCorrupt as exc:
            failed = Check(name="log", status="failed", detail=exc.reason, code="log-mismatch")
            return msgspec.structs.replace(verdict, ok=False, code="log-mismatch", failed_version=None,
                                           message=f"log check failed: {exc.reason}",
                                           checks=[*verdict.checks, failed])
        return verdict

    def match_ids(self, page: int = 200) -> Iterator[str]:
        """Every match id in the store, page by page."""
        after: tuple[datetime, str] | None = None
        while True:
            records = self.store.list_matches(after=after, limit=page)
            yield from (r.id for r in records)
            if len(records) < page:
                return
            after = match_key(records[-1])
