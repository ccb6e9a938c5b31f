"""`turnstile witness keygen` and `turnstile witness serve`: a witness of transparency logs (c2sp.org/tlog-witness).

    turnstile witness keygen --out witness.key --name NAME     a new Ed25519 witness key; prints its verifier key
    turnstile witness serve --key witness.key --logs logs.txt --state URL --listen HOST:PORT [--prefix /]

The logs file names the logs the witness cosigns, one trusted log key a line: `<origin> <verifier key>`, the key as
`turnstile log keygen` prints it (`<name>+<hash>+<base64>`); blank lines and `#` comments are skipped. The state
(sqlite:///witness.db or postgresql://...) keeps, per origin, the size and root last cosigned, across restarts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cli.errors import UserError
from cli.help import Defaults


def cmd_keygen(args: argparse.Namespace) -> int:
    """Write a new witness key file (owner-readable only; never over an existing one) and print its verifier key."""
    from ledger.cosignature import Cosigner
    from ledger.notes import NoteError, Signer
    from service.log.transparency import write_key

    try:
        cosigner = Cosigner.generate(args.name)
        write_key(Path(args.out), Signer(cosigner.name, cosigner.seed))
    except FileExistsError:
        raise UserError(f"{args.out} exists: a witness key is never overwritten") from None
    except NoteError as exc:
        raise UserError(str(exc)) from None
    print(f"wrote {args.out}: keep it private; give logs the verifier key below", file=sys.stderr)
    print(cosigner.verifier().text())
    return 0


def listen_address(text: str) -> tuple[str, int]:
    """HOST:PORT (an IPv6 host in brackets, [::1]:8080)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"--listen is HOST:PORT, e.g. 127.0.0.1:7380, not {text!r}")
    return host.strip("[]"), int(port)


def load_witness(key: str, logs: str, state: str) -> Any:
    """The witness the options name (service.witness.Witness); UserError for a bad file or state URL."""
    from ledger.cosignature import Cosigner
    from ledger.notes import NoteError
    from service.witness import Witness, parse_logs
    from store.witness_state import WitnessState

    try:
        cosigner = Cosigner.parse(Path(key).read_text(encoding="utf-8"))
    except NoteError as exc:
        raise UserError(f"{key}: {exc}") from None
    try:
        trusted = parse_logs(Path(logs).read_text(encoding="utf-8"))
    except ValueError as exc:
        raise UserError(f"{logs}: {exc}") from None
    if not trusted:
        raise UserError(f"{logs} names no log: write one `<origin> <verifier key>` a line")
    return Witness(cosigner, trusted, WitnessState(state))


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve `POST <prefix>/add-checkpoint` until stopped."""
    import uvicorn

    from api.witness_app import create_witness_app

    witness = load_witness(args.key, args.logs, args.state)
    host, port = args.listen
    print(f"witness {witness.cosigner.verifier().text()} for {len(witness.logs)} log(s) on {host}:{port}",
          file=sys.stderr, flush=True)
    uvicorn.run(create_witness_app(witness, args.prefix), host=host, port=port, log_level="warning")
    return 0


def register(sub: Any) -> None:
    """Add `witness keygen` and `witness serve`."""
    witness = sub.add_parser("witness", help="a witness of transparency logs: cosigns their checkpoints",
                             description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
                             ).add_subparsers(dest="witness_command", required=True)
    keygen = witness.add_parser("keygen", help="make a new witness key", formatter_class=Defaults)
    keygen.add_argument("--out", required=True, metavar="FILE", help="the key file to write")
    keygen.add_argument("--name", required=True,
                        help="the witness's name (no spaces or '+'), a schema-less URL, e.g. witness.example/w1")
    keygen.set_defaults(run=cmd_keygen)
    serve = witness.add_parser(
        "serve", help="serve POST <prefix>/add-checkpoint (c2sp.org/tlog-witness)", formatter_class=Defaults,
        description="Cosign the checkpoints of the logs in --logs that extend the last one cosigned. The logs file: "
                    "one trusted log key a line, `<origin> <verifier key>` (the key as `turnstile log keygen` "
                    "prints it); blank lines and lines starting with # are skipped.")
    serve.add_argument("--key", required=True, metavar="FILE", help="the witness key file (witness keygen)")
    serve.add_argument("--logs", required=True, metavar="FILE",
                       help="the trusted logs: `<origin> <verifier key>` a line")
    serve.add_argument("--state", required=True, metavar="URL",
                       help="where the last cosigned checkpoints are kept: sqlite:///witness.db or postgresql://...")
    serve.add_argument("--listen", required=True, type=listen_address, metavar="HOST:PORT",
                       help="the address to serve on, e.g. 127.0.0.1:7380")
    serve.add_argument("--prefix", default="/", help="the submission prefix the route is under")
    serve.set_defaults(run=cmd_serve)
