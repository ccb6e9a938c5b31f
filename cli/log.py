"""`turnstile log keygen` and `turnstile log watch`: the transparency log's key, and a witness of its checkpoints.

    turnstile log keygen --out log.key [--name ORIGIN]   a new Ed25519 signing key (set TURNSTILE_LOG_KEY to it)
    turnstile log watch --url URL --state FILE           check each new checkpoint extends the last one seen
"""

from __future__ import annotations

import argparse
import sys
import time
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
    """Check the server's checkpoints as they come: exit 1 with a clear message at the first fork or rollback."""
    from service.log.log_client import LogCheckFailed, LogServer, Unreachable, load_verifier, witness

    server = LogServer(args.url)
    state = Path(args.state)
    try:
        verifier = load_verifier(args.key) if args.key else server.verifier()
    except (Unreachable, LogCheckFailed, OSError) as exc:
        print(f"turnstile log watch: {exc}", file=sys.stderr)
        return 2
    while True:
        try:
            print(witness(server, verifier, state), flush=True)
        except LogCheckFailed as exc:
            print(f"turnstile log watch: LOG MISBEHAVED: {exc} (the last good checkpoint is kept in {state})",
                  file=sys.stderr, flush=True)
            return 1
        except Unreachable as exc:
            print(f"turnstile log watch: {exc}", file=sys.stderr, flush=True)
            if args.once:
                return 2
        if args.once:
            return 0
        time.sleep(args.interval)


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
    watch.add_argument("--once", action="store_true", help="check once and exit (0: consistent)")
    watch.add_argument("--interval", type=float, default=10.0, help="seconds between checks")
    watch.set_defaults(run=cmd_watch)
