"""`turnstile log keygen` and `turnstile log watch`: the transparency log's key, and a witness of its checkpoints.

    turnstile log keygen --out log.key [--name ORIGIN]   a new Ed25519 signing key (set TURNSTILE_LOG_KEY to it)
    turnstile log watch --url URL --state FILE           check each new checkpoint extends the last one seen
        [--once] [--interval S] [--refusals N] [--stale-after S]
        exit 1: fork or rollback; 2 (--once): unreachable; 3 (--once): consistent but stale
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cli.errors import UserError
from cli.help import Defaults

DEFAULTS = Defaults


def cmd_keygen(args: argparse.Namespace) -> int:
    """Write a new signer key file (owner-readable only; never over an existing one) and print its public half."""
    from ledger.notes import NoteError, Signer
    from service.log.transparency import write_key

    try:
        signer = Signer.generate(args.name)
        write_key(Path(args.out), signer)
    except FileExistsError:
        raise UserError(f"{args.out} exists: a log key is never overwritten") from None
    except NoteError as exc:
        raise UserError(str(exc)) from None
    print(f"wrote {args.out}: set TURNSTILE_LOG_KEY={args.out} and keep the file private", file=sys.stderr)
    print(signer.verifier().text())
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    """Check the server's checkpoints as they come: exit 1 with a clear message at the first fork or rollback (a proof
    refused up to a signed size: at once with --once, else after --refusals looks in a row), warn when the served
    checkpoint is stale (--once: exit 3), retry network errors."""
    from service.log.log_client import (
        LogCheckFailed,
        LogServer,
        RolledBack,
        Unreachable,
        load_verifier,
        observe,
        staleness,
    )

    server = LogServer(args.url)
    state = Path(args.state)
    try:
        verifier = load_verifier(args.key) if args.key else server.verifier()
    except (Unreachable, LogCheckFailed, OSError) as exc:
        print(f"turnstile log watch: {exc}", file=sys.stderr)
        return 2
    refusals = 0  # proofs refused up to a signed size in a row (network errors neither count nor reset it)
    while True:
        stale = None
        try:
            said, served = observe(server, verifier, state)
            refusals = 0
            print(said, flush=True)
            stale = staleness(server, served, args.stale_after, datetime.now(UTC))
        except RolledBack as exc:
            refusals += 1
            if args.once or refusals >= args.refusals:
                return _misbehaved(exc, state)
            print(f"turnstile log watch: {exc} ({refusals} of {args.refusals} in a row before the alarm)",
                  file=sys.stderr, flush=True)
        except LogCheckFailed as exc:
            return _misbehaved(exc, state)
        except Unreachable as exc:
            print(f"turnstile log watch: {exc}", file=sys.stderr, flush=True)
            if args.once:
                return 2
        if stale is not None:
            print(f"turnstile log watch: STALE: {stale}", file=sys.stderr, flush=True)
        if args.once:
            return 3 if stale is not None else 0
        time.sleep(args.interval)


def _misbehaved(exc: Exception, state: Path) -> int:
    print(f"turnstile log watch: LOG MISBEHAVED: {exc} (the last good checkpoint is kept in {state})",
          file=sys.stderr, flush=True)
    return 1


def register(sub: Any) -> None:
    """Add `log keygen` and `log watch`."""
    log = sub.add_parser("log", help="the transparency log: its key and a witness").add_subparsers(
        dest="log_command", required=True)
    keygen = log.add_parser("keygen", help="make a new log signing key", formatter_class=DEFAULTS)
    keygen.add_argument("--out", required=True, metavar="FILE", help="the key file to write")
    keygen.add_argument("--name", default="turnstile.local/log",
                        help="the log's origin (the key's name; no spaces or '+'), e.g. your server's host/log")
    keygen.set_defaults(run=cmd_keygen)
    watch = log.add_parser("watch", help="check every new checkpoint extends the last one seen",
                           formatter_class=DEFAULTS)
    watch.add_argument("--url", required=True, help="the server's root URL, e.g. https://turnstile.example")
    watch.add_argument("--state", required=True, metavar="FILE", help="where the last checkpoint seen is kept")
    watch.add_argument("--key", default=None, metavar="FILE_OR_URL",
                       help="the log's public key (default: the one the server publishes at GET /v1/log/key)")
    watch.add_argument("--once", action="store_true",
                       help="check once and exit: 0 consistent, 1 fork or rollback (a proof refused up to a signed "
                            "size included), 2 unreachable, 3 consistent but stale (see --stale-after)")
    watch.add_argument("--interval", type=float, default=10.0, help="seconds between checks")
    watch.add_argument("--refusals", type=int, default=3, metavar="N",
                       help="without --once: exit 1 (rollback) after N looks in a row whose proof up to a signed size "
                            "the server refused (404 beyond-tree); network errors are retried forever")
    watch.add_argument("--stale-after", type=float, default=600.0, metavar="SECONDS",
                       help="warn (STALE on stderr; --once: exit 3) when the served checkpoint was signed more than "
                            "SECONDS ago while the server's tree has grown past it (a front serving an old "
                            "checkpoint); an idle log, whose checkpoint rightly stops advancing, does not warn")
    watch.set_defaults(run=cmd_watch)
