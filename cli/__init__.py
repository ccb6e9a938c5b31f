"""`turnstile`: serve the API, run the workers, manage app keys, audit records, write the OpenAPI file.

Every command reads its configuration from `settings.Settings` (the environment). A mistake of the user's (a bad
option, an unreachable database, an unknown match) is one line on standard error and exit status 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from cli import audit, background, dump, log, serve, witness
from cli.errors import UserError


def parser() -> argparse.ArgumentParser:
    """The command line."""
    root = argparse.ArgumentParser(prog="turnstile", description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = root.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in (serve.register, background.register, audit.register, dump.register, log.register,
                     witness.register):
        register(sub)
    return root


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `turnstile` command."""
    from domain.engine import Refusal
    from service.log.transparency import LogKeyError
    from settings import SettingsError
    from store.base import StoreError

    args = parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return int(run(args))
    except (UserError, SettingsError, StoreError, Refusal, LogKeyError, OSError) as exc:
        print(f"turnstile {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
