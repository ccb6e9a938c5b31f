"""A tournament's record as the service exports it: the stream, and the record of every match it opened."""

from __future__ import annotations

from domain.engine import Event
from domain.tournaments.events import TableOpened
from ledger.merkle import tournament_stream
from ledger.records import encode_record
from ledger.tournament_records import FORMAT, MatchEntry, TournamentExport, TournamentHeader, TournamentLine
from service.reads.audit import Audit
from service.tournaments.tournaments import LoadedTournament


def export(loaded: LoadedTournament, audit: Audit, seed: str | None, *, full: bool = False) -> TournamentExport:
    """The record of a tournament, with the record of every match it opened as `audit` exports it to a spectator
    (complete once the match has ended; `full`: every match complete, for operators). `seed`: the seed as the service
    reveals it (`TournamentService.revealed_seed`: None until finished with no match still dealing)."""
    record = loaded.record
    header = TournamentHeader(record=FORMAT, tournament_id=record.id, game=record.game, format=record.format,
                              visibility=record.visibility, status=record.status, version=record.version,
                              head_hash=record.head_hash, created_at=record.created_at,
                              seed=seed if loaded.state.finished else None,
                              transparency=None if audit.log is None else audit.log.record_proof(
                                  tournament_stream(record.id), record.version))
    lines = [TournamentLine(version=e.version, event=e.payload, recorded_at=e.recorded_at, prev_hash=e.prev_hash,
                            hash=e.hash) for e in loaded.stored]
    matches = [MatchEntry(match_id=m, record=encode_record(audit.export(m, None, full=full)).decode())
               for m in opened_matches(loaded.events)]
    return TournamentExport(header=header, events=lines, matches=matches)


def opened_matches(events: list[Event]) -> list[str]:
    """The ids of the matches a record opened, in order."""
    return [e.match_id for e in events if isinstance(e, TableOpened)]
