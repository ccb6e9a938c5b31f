"""A tournament's record, and its verifier: is it intact, fair, and does every round follow from its seed and results?

The record is one JSON document: a header (the tournament, its head, and the seed once it has finished), every event
with its place in the hash chain, and the record of every match it opened (each the NDJSON its own export gives).
Checks, in order: `format`, `chain` (every hash recomputes and links, ending at the header's head), `seed` (the
revealed seed matches the commitment in `tournament.created`), `pairings` (`rederive`: every event, each round's
pairing and standings included, is what the seed and the record's own causes give), `matches` (every match the
record opened is present, verifies on its own, seats the round's table in order under the tournament's game,
edition and options, and was dealt from the seed the tournament derives for it; in a fair-deal tournament whose
record reveals the seed, no match was still dealing when it was revealed: each was dealt or called off at or before
`tournament.finished`, or the check fails `seed-revealed-while-dealing`) and `results` (each recorded result is what
its match's end gives). A tournament still being played verifies "so far": chain and matches only.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec

from domain.engine import Event
from domain.rng import seed_commitment
from domain.tournaments import TournamentState, fold, match_seed, rederive, seed_for
from domain.tournaments.events import MatchResult, TableOpened, TournamentEvent
from domain.tournaments.results import entrant_results, players_of
from domain.tournaments.verify import team_seed
from ledger.chain import GENESIS, verify_chain
from ledger.events import StoredEvent
from ledger.json_limits import MAX_DEPTH, too_deep
from ledger.records import LogProof, Record, RecordError, parse_record
from ledger.replay import replay
from ledger.rules_checks import Check
from ledger.verify import verify_record

FORMAT = "turnstile.tournament-record/1"
FAILURES = {"format": "malformed-record", "chain": "chain-broken", "seed": "seed-mismatch",
            "pairings": "pairing-mismatch", "matches": "match-mismatch", "results": "result-mismatch"}


class TournamentHeader(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Which tournament, its status and head; the seed once it has finished."""

    record: str
    tournament_id: str
    game: str
    format: str
    visibility: str
    status: str
    version: int
    head_hash: str
    created_at: str
    seed: str | None = None
    # The head event's place in the transparency log (the stream "tournament:<id>"), once it is sequenced and
    # signed; records exported before tournaments joined the log carry none.
    transparency: LogProof | None = None


class TournamentLine(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One event with its place in the chain."""

    version: int
    event: dict[str, Any]
    recorded_at: str
    prev_hash: str
    hash: str


class MatchEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One match the tournament opened: its id and its own record (NDJSON, as GET /v1/matches/{id}/export gives)."""

    match_id: str
    record: str


class TournamentExport(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A tournament's whole record."""

    header: TournamentHeader
    events: list[TournamentLine]
    matches: list[MatchEntry] = []


class TournamentVerdict(msgspec.Struct, frozen=True, kw_only=True):
    """The answer of a verification: `ok` when no check failed; `code` "verified" (every check passed),
    "verified-so-far" (still being played: chain and matches passed; pairings are checked once the seed is
    revealed) or the failure's."""

    ok: bool
    code: str
    message: str
    tournament_id: str | None
    checks: list[Check]


def verify(document: Any) -> TournamentVerdict:
    """Run every check on a tournament record (its JSON text, or the decoded document) and sum them up."""
    try:
        if isinstance(document, str | bytes):
            # Checked before decoding, as the decoder (and every later step) recurses into the values.
            if too_deep(document):
                raise ValueError(f"the record nests deeper than {MAX_DEPTH} levels")
            document = msgspec.json.decode(document)
        exported = msgspec.convert(document, TournamentExport)
        if exported.header.record != FORMAT or not exported.events:
            raise ValueError(f"not a {FORMAT} record with events")
        events: list[Event] = [msgspec.convert(line.event, TournamentEvent) for line in exported.events]
        state = fold(events)
    except (msgspec.ValidationError, msgspec.DecodeError, ValueError, IndexError, KeyError, RecursionError) as exc:
        return _verdict(None, [Check(name="format", status="failed", detail=str(exc))])
    header = exported.header
    checks = [Check(name="format", status="passed", detail=FORMAT), _chain(exported)]
    if header.seed is None:
        why = "the seed is revealed when the tournament finishes"
        checks += [Check(name="seed", status="not-run", detail=why), Check(name="pairings", status="not-run",
                                                                          detail=why)]
    elif seed_commitment(header.seed) != state.created.seed_commitment:
        checks += [Check(name="seed", status="failed", detail="the seed does not match the commitment", version=1)]
    else:
        checks.append(Check(name="seed", status="passed", detail="the seed matches the commitment"))
        mismatch = rederive(events, header.seed)
        checks.append(Check(name="pairings", status="passed", detail="every event follows from the seed and the "
                                                                      "record's causes") if mismatch is None else
                      Check(name="pairings", status="failed", detail=mismatch.reason, version=mismatch.index + 1))
    matches, results = _matches(exported, events, state)
    checks += [matches, results]
    return _verdict(header, checks)


def _chain(exported: TournamentExport) -> Check:
    header, lines = exported.header, exported.events
    links = [StoredEvent(header.tournament_id, line.version, line.version, str(line.event.get("type", "")),
                         line.event, None, None, None, line.recorded_at, line.prev_hash, line.hash) for line in lines]
    broken = verify_chain(links)
    if broken is None and links[0].prev_hash != GENESIS:
        broken = 1
    if broken is not None:
        return Check(name="chain", status="failed", detail=f"event {broken} does not hash or link", version=broken)
    if links[-1].version != header.version or links[-1].hash != header.head_hash:
        return Check(name="chain", status="failed", code="truncated", version=links[-1].version,
                     detail=f"the events end at version {links[-1].version}, the header's head is {header.version}")
    return Check(name="chain", status="passed", detail=f"{len(links)} events chain up to the recorded head")


def _matches(exported: TournamentExport, events: list[Event], state: TournamentState) -> tuple[Check, Check]:
    """Every opened match present, verifying, seated and dealt as the tournament says; every result its match's."""
    given = {m.match_id: m.record for m in exported.matches}
    ends: dict[str, tuple[Any, Any]] = {}
    end: tuple[Any, Any] | None
    played = None if exported.header.seed is None else seed_for(exported.header.seed, state)
    try:
        revealed_at = _revealed_at(exported, state)
    except ValueError as exc:
        return _failed("matches", state.version, f"the finish's time does not read: {exc}"), _not_run()
    for index, event in enumerate(events, start=1):
        if not isinstance(event, TableOpened):
            continue
        text = given.get(event.match_id)
        if text is None:
            return _failed("matches", index, f"match {event.match_id} is not in the record"), _not_run()
        problem, end = _match_problem(text, event, state, played)
        if problem is None and revealed_at is not None:
            dealing = _dealing_after(parse_record(text), revealed_at)
            if dealing is not None:
                return Check(name="matches", status="failed", version=index, code="seed-revealed-while-dealing",
                             detail=f"match {event.match_id}: {dealing}"), _not_run()
        if problem is not None:
            return _failed("matches", index, f"match {event.match_id}: {problem}"), _not_run()
        ends[event.match_id] = end
    checked = 0
    for index, event in enumerate(events, start=1):
        if not isinstance(event, MatchResult) or any(r.forfeit == "withdrawal" for r in event.results):
            continue  # a withdrawal's forfeit follows from the withdrawal (the pairings check re-derives it)
        end = ends.get(event.match_id)
        if end is None or end[0] is None:
            return (Check(name="matches", status="passed", detail="every match verifies"),
                    _failed("results", index, f"match {event.match_id or '?'} has no end in the record"))
        ended, final = end
        table = state.rounds[event.round - 1].tables[event.table]
        seated = next(m.entrants for m in state.rounds[event.round - 1].matches[event.table]
                      if m.match_id == event.match_id) or table
        turns = getattr(final.game_state, "turn", None) if state.created.cooperative else None
        if entrant_results(seated, ended, final.resigned, turns) != event.results:
            return (Check(name="matches", status="passed", detail="every match verifies"),
                    _failed("results", index, f"the result of match {event.match_id} is not what it ended with"))
        checked += 1
    return (Check(name="matches", status="passed", detail=f"{len(ends)} matches verify, seated and dealt as paired"),
            Check(name="results", status="passed", detail=f"{checked} results are their matches' own"))


def _revealed_at(exported: TournamentExport, state: TournamentState) -> datetime | None:
    """When a fair-deal tournament whose record reveals its seed revealed it (its `tournament.finished`); None when
    the record reveals none, or its matches' deals do not wait for their seats (nothing to deal after it)."""
    if exported.header.seed is None or state.created.options.get("entropy") != "seats":
        return None
    finished = [line for line in exported.events if line.event.get("type") == "tournament.finished"]
    return _moment(finished[0].recorded_at) if finished else None


def _dealing_after(record: Record, revealed_at: datetime) -> str | None:
    """Why the match was still dealing when the seed was revealed (None: it was dealt or called off by then). It
    stops dealing with its `match.entropy-closed` (the deal follows in that append) or an end before any deal."""
    stopped = next((line for line in record.lines if line.type in ("match.entropy-closed", "match.ended")), None)
    if stopped is None:
        return "still dealing in a record that reveals the tournament's seed"
    try:
        late = _moment(stopped.recorded_at) > revealed_at
    except ValueError as exc:
        return f"the time of its {stopped.type} does not read: {exc}"
    if late:
        return (f"dealing until {stopped.recorded_at} ({stopped.type} at version {stopped.version}), after the "
                f"tournament revealed its seed at {revealed_at.isoformat()}: a seat could choose its deal")
    return None


def _moment(stamp: str) -> datetime:
    """A recorded time as an aware datetime (the store's ISO 8601 text)."""
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _match_problem(text: str, opened: TableOpened, state: TournamentState,
                   seed: str | None) -> tuple[str | None, tuple[Any, Any]]:
    """Why one opened match does not fit (None: it fits), and its (end, final state) once it has ended (`seed`: the
    played seed, once revealed)."""
    try:
        record = parse_record(text)
    except RecordError as exc:
        return f"unreadable record: {exc.message}", (None, None)
    verdict = verify_record(record)
    if not verdict.ok or record.header.match_id != opened.match_id:
        return f"does not verify: {verdict.message}", (None, None)
    created, header = state.created, record.header
    table = state.rounds[opened.round - 1].tables[opened.table]
    seated = opened.entrants or table
    seatings = (players_of(state, seated), players_of(state, seated, named=False))  # the latter: older records
    options = dict(created.options) | ({} if created.move_deadline is None else
                                       {"move_deadline": created.move_deadline})
    if (header.game, header.rules_version) != (created.game, created.rules_version) \
            or list(header.players) not in seatings or any(header.options.get(k) != v for k, v in options.items()):
        return "is not the game, edition, options or seating the tournament paired", (None, None)
    if seed is not None and header.seed is not None:
        team = opened.entrants[0] if opened.entrants else None
        wanted = match_seed(seed, opened.round, opened.table) if team is None else \
            team_seed(seed, opened.round, opened.table, team)
        # A fair deal (option `entropy: "seats"`): the server's part is the derived seed, the deal's seed is its and
        # the seats' entropy (the match's own verification checks that); otherwise the derived seed deals alone.
        fair = created.options.get("entropy") == "seats"
        dealt = (header.server_seed, "server+seats") if fair else (header.seed, "server")
        if dealt != (wanted, header.seed_source):
            return "was not dealt from the seed the tournament derives for it", (None, None)
    if header.status != "finished":
        return None, (None, None)
    _, final, _ = replay(record, None)
    return None, (final.ended, final)


def _failed(name: str, version: int, detail: str) -> Check:
    return Check(name=name, status="failed", detail=detail, version=version)


def _not_run() -> Check:
    return Check(name="results", status="not-run", detail="the matches do not verify")


def _verdict(header: TournamentHeader | None, checks: list[Check]) -> TournamentVerdict:
    failed = next((c for c in checks if c.status == "failed"), None)
    tid = None if header is None else header.tournament_id
    if failed is not None:
        at = f" at event {failed.version}" if failed.version is not None else ""
        return TournamentVerdict(ok=False, code=failed.code or FAILURES[failed.name], tournament_id=tid, checks=checks,
                                 message=f"{failed.name} check failed{at}: {failed.detail}")
    if all(c.status == "passed" for c in checks):
        return TournamentVerdict(ok=True, code="verified", tournament_id=tid, checks=checks,
                                 message="the record is intact, every round follows from the seed and the results, "
                                         "and every match verifies")
    return TournamentVerdict(ok=True, code="verified-so-far", tournament_id=tid, checks=checks,
                             message="the chain and every match so far verify; the pairings are checked against "
                                     "the seed once the tournament finishes and reveals it")
