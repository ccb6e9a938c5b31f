"""The verifier: is a match record intact, fair and played by the rules? Pure, over a parsed record.

Checks, in order: `format` (header and events agree), `chain` (every hash recomputes, links to its predecessor
and ends at the header's head: version and hash), `seed` (the revealed seed matches its commitment, and the
players' entropy was mixed in when they gave some; for `entropy: "seats"` the revealed server part matches
`server_seed_commitment` and the seed is `rng.deal_seed` of it and the seats' recorded entropy), `entropy`
(`entropy: "seats"` only: the commitment precedes every entropy event, each bot seat's entropy is the server's,
drawn in the append that created the match (else `bot-entropy`), each seat adds at most once, the deal comes
after `match.entropy-closed`, which names exactly the absent seats), `rules` (this release has the record's rules
edition: every edition ever released stays runnable, so only a record of a newer release fails it,
`unknown-edition`), `commitments` (format 2: with the seed revealed, each commitment opens to its full event and
command, and each public form is that event's honest redaction), `fold` (the events decode and fold from
`match.started`),
`redecide` (every recorded command, re-decided from the state before it with `Rng.derive(seed, version)`, gives
exactly the recorded events; set-up from `match.open_match`), `bots` (only when a search bot plays: each of its
moves is the one that bot chooses from its seat's view, ledger/bot_moves.py; `bot-mismatch`), `deadlines` (each
`match.timed-out` is recorded at or after the seat's deadline, from the recorded times) and `outcome` (the recorded
`match.ended` is the one the rules give). The verdict names the first failing event; `unknown-edition` says
"recorded under rules this release does not have" (a newer release's), not "tampered".
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain import bots, timing
from domain.catalog import by_slug, edition
from domain.codec import event_from_builtins
from domain.editions import UnknownEdition
from domain.engine import Game
from domain.lifecycle import is_bot
from domain.rng import deal_seed, mixed_seed, seed_commitment
from ledger.bot_moves import check_bots
from ledger.chain import SCHEME_FULL, canonical, opened_commitment, verify_chain
from ledger.events import StoredEvent
from ledger.records import Record, RecordError, RecordHeader, RecordLine, parse_record, seats_entropy
from ledger.rules_checks import Check, check_deadlines, check_fold, check_outcome, check_redecide
from ledger.sealing import public_form

# The verdict code of each check's failure (a check may name a more precise one, e.g. the chain's "truncated").
FAILURE_CODES = {"format": "malformed-record", "game": "unknown-game", "chain": "chain-broken",
                 "seed": "seed-mismatch", "entropy": "entropy-order", "rules": "unknown-edition",
                 "commitments": "commitment-mismatch",
                 "fold": "fold-failed", "redecide": "decision-mismatch", "deadlines": "early-timeout",
                 "outcome": "outcome-mismatch", "bots": "bot-mismatch"}


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    """The answer of a verification. `ok`: no check failed. `code`: "verified" when every check passed;
    "verified-so-far" for a match still being played whose whole chain, up to the head it records, passed and
    no check failed (the seed and the hidden parts are checked after the end); "partial" when none failed but
    some could not run (e.g. an old-format record that withholds hashes); else the failure."""

    ok: bool
    code: str
    message: str
    failed_version: int | None
    passed: list[str]
    checks: list[Check]
    match_id: str | None = None
    game: str | None = None
    version: int | None = None
    finished: bool = False


def verify_text(text: str | bytes, *, bot_sample: int | None = None, bot_salt: bytes = b"") -> Verdict:
    """Verify a record given as NDJSON text."""
    try:
        record = parse_record(text)
    except RecordError as exc:
        return _verdict([Check(name="format", status="failed", detail=exc.message, version=exc.version)], None)
    return verify_record(record, bot_sample=bot_sample, bot_salt=bot_salt)


def verify_record(record: Record, *, held_seed: str | None = None, bot_sample: int | None = None,
                  bot_salt: bytes = b"") -> Verdict:
    """Run every check on a parsed record and sum them up in a verdict.

    `held_seed`: the seed that salts the match's commitments, as its server holds it (an operator's audit of a stored
    match): the commitments of a match still being played are opened with it, so a hidden part or a command edited
    since it was sealed fails `commitments` before the end. The verdict of an intact live record stays
    `verified-so-far`: the seed itself is checked against its commitment only once the record reveals it.
    """
    header, lines = record.header, record.lines
    checks = [check_format(record), check_chain(record)]
    checks.append(check_seed(record))
    if _seats(record):
        checks.append(check_entropy(record))
    if by_slug(header.game) is None:
        checks.append(Check(name="game", status="failed", detail=f"no game is called {header.game!r} here"))
        return _verdict(checks, record)
    recorded = lines[0].event.get("rules_version") if lines else header.rules_version
    try:
        game = edition(header.game, str(recorded))
    except UnknownEdition as unknown:
        checks.append(Check(name="rules", status="failed", version=1, detail=str(unknown)))
        return _verdict(checks, record)
    assert game is not None
    checks.append(Check(name="rules", status="passed",
                        detail=f"played and re-decided under {game.slug} rules edition {game.rules_version!r}"))
    if header.scheme != SCHEME_FULL:
        checks.append(check_commitments(game, record, held_seed))
    if record.redacted:
        why = "the record withholds hidden information until the match ends; export it again after the end"
        checks.extend(Check(name=name, status="not-run", detail=why) for name in ("fold", "redecide", "outcome"))
        return _verdict(checks, record)
    fold, states = check_fold(game, record)
    checks.append(fold)
    redecided = check_redecide(game, record, states)
    checks.append(redecided)
    if any(bots.sees_only_its_seat(game, bots.bot_name(player)) for player in header.players):
        checks.append(check_bots(game, record, states, sample=bot_sample, salt=bot_salt)
                      if redecided.status == "passed" else
                      Check(name="bots", status="not-run", detail="the record's decisions are not re-decided"))
    if _timed(record):
        checks.append(check_deadlines(record, states) if fold.status == "passed" else
                      Check(name="deadlines", status="not-run", detail="the record does not fold"))
    checks.append(check_outcome(game, record, states) if fold.status == "passed" else
                  Check(name="outcome", status="not-run", detail="the record does not fold"))
    return _verdict(checks, record)


def _timed(record: Record) -> bool:
    """Whether the match runs clocks (`move_deadline`, `abandon_after`) or records a timeout or abandonment."""
    options = record.header.options or {}
    return any(options.get(name) for name in timing.NAMES) or any(
        line.type == "match.timed-out" or (line.command or {}).get("type") == "match.abandon" for line in record.lines)


def _seats(record: Record) -> bool:
    """Whether the record is of an `entropy: "seats"` match, or holds entropy events as if it were."""
    return record.header.entropy == "seats" or record.header.seed_source == "server+seats" or any(
        line.type.startswith("match.entropy-") for line in record.lines)


def check_format(record: Record) -> Check:
    """The header's status agrees with the events; a finished match's record withholds nothing."""
    lines = record.lines
    ended = bool(lines) and lines[-1].type == "match.ended"
    complete = len(lines) == record.header.version  # else the chain check names the missing events
    if complete and ended != (record.header.status == "finished"):
        return Check(name="format", status="failed", version=lines[-1].version if lines else None,
                     detail=f"the header says {record.header.status!r} but the events "
                            f"{'end' if ended else 'do not end'} with match.ended")
    started = next((line for line in lines if line.type == "match.started"), None)
    if started is not None and canonical(started.event) != _started_of(record.header):
        return Check(name="format", status="failed", version=started.version,
                     detail="the header disagrees with match.started (game, rules version, players, options, seed "
                            "commitment)")
    if lines and lines[0].type == "match.opened" and _opened_differs(lines[0].event, record.header):
        return Check(name="format", status="failed", version=1,
                     detail="the header disagrees with match.opened (game, rules version, options, seed commitment)")
    if record.header.entropy != (record.header.options or {}).get("entropy"):
        return Check(name="format", status="failed", version=1,
                     detail="the header's `entropy` is not the match's option `entropy`")
    if ended and record.redacted:
        first = next(line.version for line in lines if line.redacted)
        return Check(name="format", status="failed", version=first,
                     detail="a finished match's record is public: no line may be redacted")
    return Check(name="format", status="passed", detail=f"{len(lines)} events, {record.header.status}")


def check_chain(record: Record) -> Check:
    """Every hash recomputes and links to its predecessor; the chain ends at the header's head (version, hash)."""
    lines, header = record.lines, record.header
    failures: list[tuple[int, str, str]] = []  # (version, code, detail)
    gap = next((i + 1 for i, line in enumerate(lines) if line.version != i + 1), None)
    if gap is not None:
        failures.append((gap, "chain-broken", f"event {gap} is missing or out of order"))
    runs: list[list[StoredEvent]] = [[]]
    for line in lines:
        link = _link(header, line)
        if link is None:  # withheld (format 1 only): a new run starts after it
            runs.append([])
        else:
            runs[-1].append(link)
    if header.scheme != SCHEME_FULL and len(runs) > 1:
        first = next(line.version for line in lines if _link(header, line) is None)
        failures.append((first, "chain-broken", f"event {first} lacks its hash or commitment (format 2 has both)"))
    broken = [v for v in (verify_chain(run) for run in runs) if v is not None]
    if broken:
        failures.append((min(broken), "chain-broken",
                         f"event {min(broken)} does not hash to its recorded hash or link to its predecessor"))
    failures.extend(_head_failures(record))
    if failures:
        version, code, detail = min(failures)
        return Check(name="chain", status="failed", version=version, detail=detail, code=code)
    checked = sum(len(run) for run in runs)
    if checked < len(lines):
        return Check(name="chain", status="partial",
                     detail=f"{checked} of {len(lines)} hashes checked; the others are withheld until the end")
    return Check(name="chain", status="passed",
                 detail=f"{checked} hashes link up to the recorded head, version {header.version}")


def _head_failures(record: Record) -> list[tuple[int, str, str]]:
    """The events must end exactly at the head the header records: its version, and its hash."""
    lines, header = record.lines, record.header
    last = lines[-1] if lines else None
    if last is None or last.version < header.version:
        at = 1 if last is None else last.version + 1
        return [(at, "truncated", f"the record stops at version {at - 1}; the match's recorded head is version "
                                  f"{header.version}")]
    if last.version > header.version:
        return [(header.version + 1, "head-mismatch",
                 f"the record goes on past the match's recorded head, version {header.version}")]
    if header.head_hash is not None and last.hash != header.head_hash:
        return [(last.version, "head-mismatch", "the last event's hash is not the recorded head hash")]
    if header.head_hash is None and header.scheme != SCHEME_FULL:
        return [(last.version, "head-mismatch", "the header records no head hash")]
    return []


def _opened_differs(opened: dict[str, Any], header: RecordHeader) -> bool:
    """Whether `match.opened` says other than the header about what both state (all but the players)."""
    said = {k: v for k, v in canonical(opened).items() if k not in ("type", "seats")}
    expected = {k: v for k, v in _started_of(header).items() if k not in ("type", "players")}
    return bool(said != expected)


def _started_of(header: RecordHeader) -> Any:
    started = {"type": "match.started", "game": header.game, "rules_version": header.rules_version,
               "players": list(header.players), "options": header.options, "seed_commitment": header.seed_commitment}
    if header.seed_source != "server":  # match.started leaves both out at their defaults
        started["seed_source"] = header.seed_source
    if header.client_entropy is not None:
        started["client_entropy"] = header.client_entropy
    if header.visibility != "public":
        started["visibility"] = header.visibility
    if header.rematch_of is not None:
        started["rematch_of"] = header.rematch_of
    if header.server_seed_commitment is not None:
        started["server_seed_commitment"] = header.server_seed_commitment
    return canonical(started)


def _link(header: RecordHeader, line: RecordLine) -> StoredEvent | None:
    """The line as a chain link, or None when what its hash covers, or its predecessor's hash, is withheld."""
    if line.hash is None or line.prev_hash is None:
        return None
    if header.scheme == SCHEME_FULL:
        if line.redacted:
            return None
        return StoredEvent(header.match_id, line.version, 0, line.type, line.event, line.seat, line.command, None,
                           line.recorded_at, line.prev_hash, line.hash)
    if line.commitment is None:
        return None
    return StoredEvent(header.match_id, line.version, 0, line.type, line.event, line.seat, line.command, None,
                       line.recorded_at, line.prev_hash, line.hash, public_payload=line.public_event,
                       commitment=line.commitment)


def check_seed(record: Record) -> Check:
    """The revealed seed hashes to the commitment published at creation (in the header and `match.started`),
    and is derived from the server's part and the players' entropy when they gave some."""
    header = record.header
    if _seats(record):
        return _check_seats_seed(record)
    if header.seed is None:
        when = "the record does not reveal it" if header.status == "finished" else "it is revealed when the match ends"
        return Check(name="seed", status="not-revealed", detail=f"the seed cannot be checked: {when}")
    if header.server_seed_commitment is not None and header.server_seed_commitment != seed_commitment(
            header.server_seed or header.seed):
        return Check(name="seed", status="failed", version=1,
                     detail="the server's revealed part does not match its published `server_seed_commitment`")
    published = {header.seed_commitment}
    if record.lines and record.lines[0].type in ("match.started", "match.opened"):
        published.add(str(record.lines[0].event.get("seed_commitment")))
    if published != {seed_commitment(header.seed)}:
        return Check(name="seed", status="failed", version=1,
                     detail="the revealed seed does not match the commitment published when the match was created")
    if header.seed_source == "server+client":
        if header.server_seed is None or header.client_entropy is None:
            return Check(name="seed", status="failed", version=1,
                         detail="the players' entropy was mixed in, but the record lacks it or the server's part")
        if mixed_seed(header.server_seed, header.client_entropy) != header.seed:
            return Check(name="seed", status="failed", version=1,
                         detail="the seed is not the server's part mixed with the players' entropy")
        return Check(name="seed", status="passed",
                     detail="the seed matches its commitment and mixes the players' entropy into the server's part")
    if header.seed_source == "caller":
        return Check(name="seed", status="passed",
                     detail="the seed matches its commitment; the caller chose it (tests and teaching), so the deal "
                            "proves nothing about fairness and the match is not rated")
    return Check(name="seed", status="passed", detail="the seed matches its commitment")


def _check_seats_seed(record: Record) -> Check:
    """`entropy: "seats"`: the revealed server part matches the commitment published first (in the header and the
    first event), and the seed is the deal's seed of that part and each seat's recorded entropy (README)."""
    header, lines = record.header, record.lines
    if header.server_seed is None:
        when = "the record does not reveal it" if header.status == "finished" else "it is revealed when the match ends"
        return Check(name="seed", status="not-revealed", detail=f"the server's part cannot be checked: {when}")
    published = {header.seed_commitment, header.server_seed_commitment}
    if lines and lines[0].type in ("match.started", "match.opened"):
        published |= {str(lines[0].event.get("seed_commitment")), str(lines[0].event.get("server_seed_commitment"))}
    if published != {seed_commitment(header.server_seed)}:
        return Check(name="seed", status="failed", version=1,
                     detail="the revealed server part does not match the commitment published before the seats' "
                            "entropy")
    entropy, closed = seats_entropy(lines, len(header.players))
    expected = deal_seed(header.server_seed, entropy) if closed else None
    if header.seed != expected:
        return Check(name="seed", status="failed", version=1,
                     detail="the seed is not sha256 of the server's part and the seats' entropy as the README lays "
                            "it out" if closed else "a match never dealt reveals no seed")
    return Check(name="seed", status="passed",
                 detail="the server's part matches the commitment it published first, and the seed is derived from "
                        "it and every seat's entropy" if closed else
                        "the server's part matches its commitment; the match was never dealt")


def check_entropy(record: Record) -> Check:
    """`entropy: "seats"`: the first event publishes `server_seed_commitment` and every entropy event follows it; each
    seat adds at most once, all before `match.entropy-closed`, which comes once, names exactly the seats without
    entropy, and precedes the deal.

    A bot's seat has exactly one entropy, and it is the server's: drawn when the match was created (`source:
    server`, no command, in the run of events right after the first, recorded with it), before any seat's own could
    exist; else (`bot-entropy`) the server could have left its bot silent, read the people's entropy and picked the
    bot's to choose the deal. Server-drawn entropy is a bot seat's only, and a person's seat adds its own with its own
    command."""
    header, lines = record.header, record.lines

    def failed(version: int, detail: str, code: str = "entropy-order") -> Check:
        return Check(name="entropy", status="failed", version=version, detail=detail, code=code)

    if header.entropy != "seats":
        return failed(1, "entropy events in a match whose option `entropy` is not \"seats\"")
    first = lines[0] if lines else None
    if first is None or first.type not in ("match.started", "match.opened") or \
            not first.event.get("server_seed_commitment"):
        return failed(1, "the first event does not publish the server's commitment before the seats' entropy")
    seats = len(header.players)
    bots = {seat for seat, player in enumerate(header.players) if is_bot(player)}
    drawn = 1 + next((i for i, line in enumerate(lines[1:]) if line.command is not None
                      or line.type != "match.entropy-added"), len(lines) - 1)  # lines[1:drawn]: created with lines[0]
    added: set[int] = set()
    closed_at: int | None = None
    for index, line in enumerate(lines[1:], start=1):
        event = line.event
        if line.type == "match.entropy-added":
            seat = event.get("seat")
            if closed_at is not None or not isinstance(seat, int) or not 0 <= seat < seats or seat in added:
                return failed(line.version, f"seat {seat}'s entropy is out of order (after the deal, twice, or no "
                                            f"such seat)")
            source = event.get("source", "seat")
            at_creation = index < drawn and line.recorded_at == first.recorded_at
            if seat in bots and not (source == "server" and at_creation):
                how = ("added by a command" if line.command is not None else
                       f"source {source!r}" if source != "server" else "recorded after the match was created")
                return failed(line.version, f"seat {seat} is a bot's: its entropy must be drawn by the server when "
                                            f"the match is created (source \"server\", no command, before any seat's "
                                            f"own), not {how}", "bot-entropy")
            if seat not in bots and source == "server":
                return failed(line.version, "server-drawn entropy is a bot seat's, recorded with the first event")
            if seat not in bots and (source != "seat" or line.command is None):
                return failed(line.version, f"seat {seat}'s entropy is the seat's own: added by its command")
            added.add(seat)
        elif line.type == "match.entropy-closed":
            absent = sorted(set(range(seats)) - added)
            if closed_at is not None or list(event.get("absent") or []) != absent:
                return failed(line.version, f"match.entropy-closed must come once and name the absent seats {absent}")
            closed_at = line.version
        elif not line.type.startswith("match.") and closed_at is None:
            return failed(line.version, "the deal precedes match.entropy-closed")
    silent = sorted(bots - {line.event.get("seat") for line in lines[1:drawn]})
    if silent:
        return failed(1, f"seat {silent[0]} is a bot's, but the server drew no entropy for it when the match was "
                         f"created (before any seat's own)", "bot-entropy")
    return Check(name="entropy", status="passed",
                 detail=f"the commitment precedes all {len(added)} entropy events, the bots' drawn by the server at "
                        f"creation; the deal follows their closing"
                 if closed_at is not None else f"the commitment precedes all {len(added)} entropy events, the bots' "
                                               f"drawn by the server at creation; no deal yet")


def check_commitments(game: Game[Any], record: Record, held_seed: str | None = None) -> Check:
    """Format 2: with the seed revealed, every commitment opens to its line's full event and command, and every
    public form (what spectators saw, and what the chain hashed) is that event's redaction for a spectator. The
    salts of an `entropy: "seats"` match come from the server's part (the only secret there is before the deal).
    A record that does not reveal the seed is opened with `held_seed` when given (the server's, for its operator)."""
    seed = record.header.server_seed if _seats(record) else record.header.seed
    if seed is None:
        seed = held_seed
    if seed is None:
        return Check(name="commitments", status="not-revealed",
                     detail="the commitments are opened with the seed when the match ends")
    if record.redacted:
        return Check(name="commitments", status="not-run", detail="the record withholds what the commitments cover")
    for line in record.lines:
        if opened_commitment(seed, line.version, line.event, line.command) != line.commitment:
            return Check(name="commitments", status="failed", version=line.version,
                         detail=f"event {line.version} is not the event (and command) its commitment was made to")
        try:
            shown = canonical(public_form(game, event_from_builtins(game, line.event)))
            honest = shown == canonical(line.public_event) or _older_shape(game, shown, line.public_event)
        except msgspec.ValidationError:
            continue  # the fold check names an event that does not decode
        if not honest:
            return Check(name="commitments", status="failed", version=line.version,
                         detail=f"the public form of event {line.version} is not its redaction for spectators")
    return Check(name="commitments", status="passed",
                 detail=f"{len(record.lines)} commitments open to their events; every public form is honest")


def _older_shape(game: Game[Any], shown: Any, public: Any) -> bool:
    """A public form recorded before fields were added to its event (or in an edition's older shape): every field it
    has is the honest one, and read as today (defaults, upcasters) it is the whole honest public form."""
    recorded = canonical(public)
    if not isinstance(recorded, dict) or not isinstance(shown, dict) or not set(recorded) <= set(shown):
        return False
    if any(shown[key] != value for key, value in recorded.items()):
        return False
    return bool(canonical(public_form(game, event_from_builtins(game, public))) == shown)


def _verdict(checks: list[Check], record: Record | None) -> Verdict:
    """Sum up: the earliest failure (tampering before a rules change), else verified or partial."""
    failures = [c for c in checks if c.status == "failed"]
    order = list(FAILURE_CODES)
    tampered = [c for c in failures if c.name != "rules"]
    first = min(tampered or failures, key=lambda c: (c.version or 0, order.index(c.name)), default=None)
    passed = [c.name for c in checks if c.status == "passed"]
    header = record.header if record is not None else None
    if first is not None:
        at = f" at version {first.version}" if first.version is not None else ""
        code, message = first.code or FAILURE_CODES[first.name], f"{first.name} check failed{at}: {first.detail}"
    elif len(passed) == len(checks):
        code, message = "verified", "the record is intact, fair, and played by the rules"
    elif header is not None and header.status in ("open", "dealing", "active") and "chain" in passed:
        code = "verified-so-far"
        later = "the seed is" if "commitments" in passed else "the seed and the hidden parts are"
        message = (f"the chain is intact up to the recorded head (version {header.version}) and no check failed; "
                   f"{later} revealed and checked when the match ends")
    else:
        code = "partial"
        details = dict.fromkeys(c.detail for c in checks if c.status != "passed")
        message = "no check failed; not checked: " + "; ".join(details)
    return Verdict(ok=first is None, code=code, message=message, failed_version=None if first is None else
                   first.version, passed=passed, checks=checks,
                   match_id=header.match_id if header else None, game=header.game if header else None,
                   version=header.version if header else None,
                   finished=header is not None and header.status == "finished")
