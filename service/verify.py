"""The verifier: is a match record intact, fair and played by the rules? Pure, over a parsed record.

Checks, in order: `chain` (every hash recomputes, links to its predecessor and ends at the header's head),
`seed` (the revealed seed matches its commitment), `rules` (the record's rules version is this server's),
`fold` (the events decode and fold from `match.started` with consecutive versions), `redecide` (every recorded
command, re-decided from the state before it with `Rng.derive(seed, version)`, gives exactly the recorded
events; set-up from `match.open_match`) and `outcome` (the recorded `match.ended` is the one the rules give).
The verdict names the first failing event; `rules-version-changed` says "recorded under other rules", not "tampered".
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.catalog import by_slug
from domain.rng import seed_commitment
from service.records import Record, RecordError, RecordLine, parse_record
from service.rules_checks import Check, check_fold, check_outcome, check_redecide
from store.base import StoredEvent
from store.chain import canonical, verify_chain

# The verdict code of each check's failure.
FAILURE_CODES = {"format": "malformed-record", "game": "unknown-game", "chain": "chain-broken",
                 "seed": "seed-mismatch", "rules": "rules-version-changed", "fold": "fold-failed",
                 "redecide": "decision-mismatch", "outcome": "outcome-mismatch"}


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    """The answer of a verification. `ok`: no check failed; `code` "verified" when every check passed,
    "partial" when none failed but some could not run (seed not revealed, redacted record), else the failure."""

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


def verify_text(text: str | bytes) -> Verdict:
    """Verify a record given as NDJSON text."""
    try:
        record = parse_record(text)
    except RecordError as exc:
        return _verdict([Check(name="format", status="failed", detail=exc.message, version=exc.version)], None)
    return verify_record(record)


def verify_record(record: Record) -> Verdict:
    """Run every check on a parsed record and sum them up in a verdict."""
    header, lines = record.header, record.lines
    checks = [check_format(record), check_chain(record)]
    checks.append(check_seed(record))
    game = by_slug(header.game)
    if game is None:
        checks.append(Check(name="game", status="failed", detail=f"no game is called {header.game!r} here"))
        return _verdict(checks, record)
    recorded = lines[0].event.get("rules_version") if lines else None
    if recorded != game.rules_version:
        checks.append(Check(name="rules", status="failed", version=1,
                            detail=f"recorded under {game.slug} rules version {recorded!r}; this server has "
                                   f"{game.rules_version!r}, so the moves cannot be re-decided here"))
        return _verdict(checks, record)
    checks.append(Check(name="rules", status="passed", detail=f"rules version {game.rules_version!r}"))
    if record.redacted:
        why = "the record withholds hidden information until the match ends; export it again after the end"
        checks.extend(Check(name=name, status="not-run", detail=why) for name in ("fold", "redecide", "outcome"))
        return _verdict(checks, record)
    fold, states = check_fold(game, record)
    checks.append(fold)
    checks.append(check_redecide(game, record, states))
    checks.append(check_outcome(game, record, states) if fold.status == "passed" else
                  Check(name="outcome", status="not-run", detail="the record does not fold"))
    return _verdict(checks, record)


def check_format(record: Record) -> Check:
    """The header's status agrees with the events; a finished match's record withholds nothing."""
    lines = record.lines
    ended = bool(lines) and lines[-1].type == "match.ended"
    complete = len(lines) == record.header.version  # else the chain check names the missing events
    if complete and ended != (record.header.status == "finished"):
        return Check(name="format", status="failed", version=lines[-1].version if lines else None,
                     detail=f"the header says {record.header.status!r} but the events "
                            f"{'end' if ended else 'do not end'} with match.ended")
    if lines and lines[0].type == "match.started" and canonical(lines[0].event) != _started_of(record.header):
        return Check(name="format", status="failed", version=1,
                     detail="the header disagrees with match.started (game, rules version, players, options, seed "
                            "commitment)")
    if ended and record.redacted:
        first = next(line.version for line in lines if line.redacted)
        return Check(name="format", status="failed", version=first,
                     detail="a finished match's record is public: no line may be redacted")
    return Check(name="format", status="passed", detail=f"{len(lines)} events, {record.header.status}")


def check_chain(record: Record) -> Check:
    """Every hash recomputes and links to its predecessor; the chain ends at the header's head."""
    lines, header = record.lines, record.header
    failures: list[tuple[int, str]] = []
    gap = next((i + 1 for i, line in enumerate(lines) if line.version != i + 1), None)
    if gap is not None:
        failures.append((gap, f"event {gap} is missing or out of order"))
    runs: list[list[StoredEvent]] = [[]]
    for line in lines:
        link = _link(header.match_id, line)
        if link is None:  # withheld: a new run starts after it
            runs.append([])
        if link is not None:
            runs[-1].append(link)
    broken = [v for v in (verify_chain(run) for run in runs) if v is not None]
    if broken:
        failures.append((min(broken), f"event {min(broken)} does not hash to its recorded hash or link to its "
                                      "predecessor"))
    last = lines[-1] if lines else None
    if last is None or last.version != header.version:
        at = min(len(lines) + 1, header.version)
        failures.append((at, f"the events do not end at the recorded head, version {header.version}"))
    elif header.head_hash is not None and last.hash != header.head_hash:
        failures.append((last.version, "the last event's hash is not the recorded head hash"))
    if failures:
        version, detail = min(failures)
        return Check(name="chain", status="failed", version=version, detail=detail)
    checked = sum(len(run) for run in runs)
    if checked < len(lines):
        return Check(name="chain", status="partial",
                     detail=f"{checked} of {len(lines)} hashes checked; the others are withheld until the end")
    return Check(name="chain", status="passed", detail=f"{checked} hashes link up to the head")


def _started_of(header: Any) -> Any:
    return canonical({"type": "match.started", "game": header.game, "rules_version": header.rules_version,
                      "players": list(header.players), "options": header.options,
                      "seed_commitment": header.seed_commitment})


def _link(match_id: str, line: RecordLine) -> StoredEvent | None:
    """The line as a chain link, or None when its content or its predecessor's hash is withheld."""
    if line.redacted or line.hash is None or line.prev_hash is None:
        return None
    return StoredEvent(match_id, line.version, 0, line.type, line.event, line.seat, line.command, None,
                       line.recorded_at, line.prev_hash, line.hash)


def check_seed(record: Record) -> Check:
    """The revealed seed hashes to the commitment published at creation (in the header and `match.started`)."""
    header = record.header
    if header.seed is None:
        when = "the record does not reveal it" if header.status == "finished" else "it is revealed when the match ends"
        return Check(name="seed", status="not-revealed", detail=f"the seed cannot be checked: {when}")
    published = {header.seed_commitment}
    if record.lines and record.lines[0].type == "match.started":
        published.add(str(record.lines[0].event.get("seed_commitment")))
    if published != {seed_commitment(header.seed)}:
        return Check(name="seed", status="failed", version=1,
                     detail="the revealed seed does not match the commitment published when the match was created")
    return Check(name="seed", status="passed", detail="the seed matches its commitment")


def _verdict(checks: list[Check], record: Record | None) -> Verdict:
    """Sum up: the earliest failure (tampering before a rules change), else verified or partial."""
    failures = [c for c in checks if c.status == "failed"]
    order = list(FAILURE_CODES)
    tampered = [c for c in failures if c.name != "rules"]
    first = min(tampered or failures, key=lambda c: (c.version or 0, order.index(c.name)), default=None)
    passed = [c.name for c in checks if c.status == "passed"]
    if first is not None:
        at = f" at version {first.version}" if first.version is not None else ""
        code, message = FAILURE_CODES[first.name], f"{first.name} check failed{at}: {first.detail}"
    elif len(passed) == len(checks):
        code, message = "verified", "the record is intact, fair, and played by the rules"
    else:
        code = "partial"
        details = dict.fromkeys(c.detail for c in checks if c.status != "passed")
        message = "no check failed; not checked: " + "; ".join(details)
    header = record.header if record is not None else None
    return Verdict(ok=first is None, code=code, message=message, failed_version=None if first is None else
                   first.version, passed=passed, checks=checks,
                   match_id=header.match_id if header else None, game=header.game if header else None,
                   version=header.version if header else None,
                   finished=header is not None and header.status == "finished")
