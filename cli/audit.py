"""`turnstile verify` and `turnstile replay`: audit records, from files or from the store.

    turnstile verify RECORD.ndjson [...]     verify exported records ("-" reads standard input)
    turnstile verify EXPORT.ndjson           verify every record of a bulk export (GET /v1/exports/matches)
    turnstile verify --match ID [...]        verify matches of the store named by TURNSTILE_DATABASE_URL
    turnstile verify --all                   verify every match of that store
    turnstile verify CUP.json                verify an exported tournament record (GET /v1/tournaments/{id}/record)
    turnstile verify --tournament ID         verify a tournament of the store, with every match it opened
    turnstile verify RECORD --key FILE_OR_URL [--checkpoint OLD --url URL]
                                             also check the record's transparency log proof (and that the server's
                                             current tree still extends a checkpoint kept from before, and the
                                             record's: exit 1 naming a rollback or fork otherwise)
    turnstile verify RECORD --policy FILE [--checkpoint OLD --url URL]
                                             check the record's tlog-proof offline against a witness policy: the
                                             log's signature, the quorum of cosignatures, the head's inclusion
    turnstile verify RECORD --bots sample=N  re-run only N of the search bots' moves (picked by a salt drawn here,
                                             so the server cannot know which); default `--bots all`
    turnstile replay RECORD.ndjson --to N    print the table after event N (default: the last)
    turnstile replay --match ID --to N

`verify` prints one line per record (`--json`: one JSON verdict per line) and exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from ledger.tournament_records import TournamentVerdict
from ledger.verify import Verdict


def register(sub: Any) -> None:
    """Add the `verify` and `replay` sub-commands to the `turnstile` parser."""
    verify = sub.add_parser("verify", help="verify match records: hash chain, seed, rules, outcome")
    verify.add_argument("records", nargs="*", metavar="RECORD.ndjson", help="exported records ('-': stdin)")
    verify.add_argument("--match", action="append", default=[], metavar="ID", help="a match of the store")
    verify.add_argument("--all", action="store_true", help="every match of the store")
    verify.add_argument("--tournament", action="append", default=[], metavar="ID",
                        help="a tournament of the store (its record and every match it opened)")
    verify.add_argument("--json", action="store_true", help="print each verdict as a JSON line")
    verify.add_argument("--bots", type=bot_sample, default=None, metavar="all|sample=N",
                        help="re-decide every search bot move (all, the default: up to a second a move at the top "
                             "level) or a random sample of N of them")
    verify.add_argument("--key", metavar="FILE_OR_URL", default=None,
                        help="the log's public key (a key file, or a server URL): check each record's log proof")
    verify.add_argument("--url", metavar="URL", default=None,
                        help="the record's server: its log key (without --key) and consistency proofs")
    verify.add_argument("--policy", metavar="FILE", default=None,
                        help="a witness policy (c2sp.org/tlog-policy): check each record's tlog-proof offline (its "
                             "log's signature, the quorum of cosignatures, the inclusion of its head); with --url and "
                             "--checkpoint, the server's current checkpoint must meet the quorum too")
    verify.add_argument("--checkpoint", metavar="OLD", default=None,
                        help="a checkpoint kept from before (its signed note): the server's current tree (--url) "
                             "must still extend it, and the record's tree be part of it")
    verify.set_defaults(run=cmd_verify)
    replay = sub.add_parser("replay", help="print the table of a match at a version")
    source = replay.add_mutually_exclusive_group(required=True)
    source.add_argument("record", nargs="?", metavar="RECORD.ndjson", help="an exported record ('-': stdin)")
    source.add_argument("--match", metavar="ID", help="a match of the store")
    replay.add_argument("--to", type=int, default=None, metavar="N", help="the version (default: the last)")
    replay.set_defaults(run=cmd_replay)


@functools.cache  # a record file is read once, also when its log proof is checked after its verdict (stdin too)
def _read(path: str) -> bytes:
    return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()


def bot_sample(text: str) -> int | None:
    """`--bots`: `all` (None) or `sample=N` (N >= 1)."""
    if text == "all":
        return None
    name, _, count = text.partition("=")
    if name != "sample" or not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError("expected `all` or `sample=N` (N >= 1)")
    return int(count)


def _verdicts(args: argparse.Namespace) -> Iterator[tuple[str, Verdict | TournamentVerdict]]:
    from ledger import tournament_records
    from ledger.verify import verify_text
    from service.reads.audit import Audit

    salt = os.urandom(16)  # the sample of bot moves is the verifier's choice, unknown to the server
    for path in args.records:
        text = _read(path)
        if _is_export(text):  # GET /v1/exports/matches (or a dump): each line holds a record
            for line in text.splitlines():
                if line.strip():
                    exported = msgspec.json.decode(line)
                    yield f"{path}#{exported.get('cursor')}", verify_text(
                        str(exported.get("record", "")), bot_sample=args.bots, bot_salt=salt)
            continue
        yield path, tournament_records.verify(text) if _is_tournament(text) else verify_text(
            text, bot_sample=args.bots, bot_salt=salt)
    if args.tournament:
        yield from _stored_tournaments(args.tournament)
    if args.match or args.all:
        from service.log.transparency import Transparency
        from settings import Settings
        from store.factory import open_store

        store = open_store(Settings.from_env().database_url)
        try:
            audit = Audit(store, log=Transparency(store, None))  # the log's leaves, to compare: no key needed
            for match_id in [*args.match, *(audit.match_ids() if args.all else [])]:
                yield match_id, audit.verify(match_id)
        finally:
            store.close()


def _is_export(text: bytes) -> bool:
    """An export's line is `{"cursor", "record": "<NDJSON text>"}`; a record's first line has no cursor."""
    from ledger.json_limits import too_deep

    first = text.lstrip().split(b"\n", 1)[0]
    if too_deep(first):  # not an export line; the record's own check names it malformed
        return False
    try:
        value = msgspec.json.decode(first)
    except msgspec.DecodeError:
        return False
    return isinstance(value, dict) and "cursor" in value and isinstance(value.get("record"), str)


def _is_tournament(text: bytes) -> bool:
    """A tournament's record is one JSON document (`header`, `events`, `matches`); a match's is NDJSON."""
    return text.lstrip()[:1] == b"{" and b'"turnstile.tournament-record/' in text[:4096]


def _header(text: bytes) -> Any:
    """The header of a record file, a match's or a tournament's (RecordError or ValueError when it is neither)."""
    from ledger.records import parse_record
    from ledger.tournament_records import TournamentExport

    if _is_tournament(text):
        from ledger.json_limits import MAX_DEPTH, too_deep

        if too_deep(text):
            raise ValueError(f"not a tournament record: it nests deeper than {MAX_DEPTH} levels")
        try:
            return msgspec.json.decode(text, type=TournamentExport).header
        except msgspec.MsgspecError as exc:
            raise ValueError(f"not a tournament record: {exc}") from None
    return parse_record(text).header


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify each record; exit status 1 if any failed."""
    if not (args.records or args.match or args.all or args.tournament):
        print("turnstile verify: name a RECORD.ndjson, --match ID, --tournament ID or --all", file=sys.stderr)
        return 2
    failed = checked = 0
    _read.cache_clear()  # files are read afresh by each command
    from service.log.log_client import LogCheckFailed, Unreachable
    from store.base import MatchNotFound
    from store.tournaments import TournamentNotFound

    try:
        log_check = _log_check(args)
        for name, verdict in _verdicts(args):
            checked += 1
            failed += not verdict.ok
            print(msgspec.json.encode(verdict).decode() if args.json else describe(name, verdict), flush=True)
            if log_check is not None and name in args.records:
                failed += not log_check(name)
    except (OSError, MatchNotFound, TournamentNotFound, Unreachable, LogCheckFailed) as exc:
        print(f"turnstile verify: {exc}", file=sys.stderr)
        return 2
    if not args.json:
        print(f"{checked} checked, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


def _log_check(args: argparse.Namespace) -> Callable[[str], bool] | None:
    """With --key, --url or --checkpoint: a check of one record file's transparency log proof (and, with --checkpoint,
    that the server's current tree extends the kept checkpoint and the record's) that prints one line and says
    whether it held."""
    from ledger.notes import Checkpoint
    from ledger.records import RecordError
    from service.log.log_client import (
        LogCheckFailed,
        LogServer,
        check_cosigned,
        check_current,
        check_extends,
        check_record,
        load_policy,
        load_verifier,
        opened,
    )

    if not (args.key or args.url or args.checkpoint or args.policy):
        return None
    if args.checkpoint and not args.url:
        raise LogCheckFailed("--checkpoint needs --url: the record's server gives the consistency proof")
    server = LogServer(args.url) if args.url else None
    policy = load_policy(args.policy) if args.policy else None
    if args.key:
        verifier = load_verifier(args.key)
    elif policy is not None:  # the policy names the log's key: no network needed
        verifier = policy.logs[0].verifier
    else:
        verifier = server.verifier()  # type: ignore[union-attr]
    kept = None if not args.checkpoint else opened(Path(args.checkpoint).read_text(encoding="utf-8"), verifier,
                                                    f"the kept checkpoint {args.checkpoint}")
    current: list[Checkpoint] = []  # the server's current checkpoint, once it is seen to extend the kept one

    def check(path: str) -> bool:
        try:
            header = _header(_read(path))
            if policy is not None:
                checkpoint = check_cosigned(header, policy)
                said = f"head event is leaf of the tree of {checkpoint.size} cosigned by the policy's quorum"
            else:
                checkpoint = check_record(header, verifier)
                said = f"head event is leaf of the signed tree of {checkpoint.size} (key {verifier.key_id})"
            if kept is not None and server is not None:
                # The record's checkpoint alone proves nothing about today's log (it may be the kept one itself):
                # the server's current tree must extend the kept one, and the record's tree be a prefix of it.
                if not current:
                    current.append(check_current(kept, server, verifier, policy))
                now = current[0]
                if checkpoint.size > now.size:
                    raise LogCheckFailed(f"rollback: the record's checkpoint signed a tree of {checkpoint.size} "
                                         f"leaves, the server's current one has {now.size}")
                check_extends(kept, checkpoint, server)
                check_extends(checkpoint, now, server)
                said += (f"; consistent with the kept checkpoint of {kept.size} and the server's current one of "
                         f"{now.size}")
        except (LogCheckFailed, RecordError, ValueError) as exc:
            print(f"FAIL {path} (transparency log): {exc}", flush=True)
            return False
        print(f"OK   {path} (transparency log): {said}", flush=True)
        return True

    return check


def _stored_tournaments(ids: list[str]) -> Iterator[tuple[str, TournamentVerdict]]:
    """Verdicts of tournaments of the store: each exported as its API would (with its matches) and verified."""
    from ledger import tournament_records
    from service.matches.matches import MatchService
    from service.reads.audit import Audit
    from service.tournaments import records as tournament_exports
    from service.tournaments.tournaments import TournamentService
    from settings import Settings
    from store.factory import open_store

    store = open_store(Settings.from_env().database_url)
    try:
        tournaments, audit = TournamentService(store, MatchService(store)), Audit(store)
        for tournament_id in ids:
            loaded = tournaments.load(tournament_id)
            exported = tournament_exports.export(loaded, audit, tournaments.revealed_seed(loaded), full=True)
            yield tournament_id, tournament_records.verify(msgspec.to_builtins(exported))
    finally:
        store.close()


def describe(name: str, verdict: Verdict | TournamentVerdict) -> str:
    """One line for people: OK/FAIL, what was checked, and the first failure."""
    mark = "OK  " if verdict.ok else "FAIL"
    if isinstance(verdict, TournamentVerdict):
        return f"{mark} {name} (tournament): {verdict.code}: {verdict.message}"
    what = f"{verdict.game}, {verdict.version} events" if verdict.game else "not a record"
    return f"{mark} {name} ({what}): {verdict.code}: {verdict.message}"


def cmd_replay(args: argparse.Namespace) -> int:
    """Print the table after event N of a record or a stored match."""
    from ledger.records import RecordError, parse_record
    from ledger.replay import NotReplayable, UnknownVersion, picture, replay
    from service.reads.audit import Audit
    from store.base import MatchNotFound, RecordCorrupt

    try:
        if args.match:
            from settings import Settings
            from store.factory import open_store

            store = open_store(Settings.from_env().database_url)
            try:
                record = Audit(store).export(args.match, None, full=True)
            finally:
                store.close()
        else:
            record = parse_record(_read(args.record))
        game, state, set_up = replay(record, args.to)
    except (OSError, RecordError, MatchNotFound, RecordCorrupt, UnknownVersion, NotReplayable) as exc:
        print(f"turnstile replay: {exc}", file=sys.stderr)
        return 2
    print(picture(game, state, record.header.version, set_up), end="")
    return 0
