"""`turnstile dump --month YYYY-MM`: cut the dump of the public matches a month ended (service/reads/dumps.py).

    turnstile dump --month 2026-10 --out dumps/   # dumps/2026-10/<game>-2026-10.ndjson.gz and manifest.json
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.errors import UserError
from cli.help import Defaults


def cmd_dump(args: argparse.Namespace) -> int:
    """Cut one month's dump from the store named by TURNSTILE_DATABASE_URL; print its manifest's files."""
    from service.log.transparency import Unsigned
    from service.reads.audit import Audit
    from service.reads.dumps import DumpError, cut
    from service.reads.exports import Exports
    from service.runtime import Runtime
    from settings import Settings
    from store.base import utc_now

    settings = Settings.from_env()
    folder = Path(args.out or settings.dumps_dir or "dumps")
    runtime = Runtime.open(settings, "cli")
    try:
        store, log = runtime.store, runtime.log
        try:
            checkpoint: str | None = log.checkpoint().note
        except Unsigned:
            checkpoint = None
        try:
            manifest = cut(Exports(store, Audit(store, log=log)), folder, args.month, utc_now(), checkpoint)
        except DumpError as exc:
            raise UserError(str(exc)) from None
    finally:
        runtime.close()
    for file in manifest.files:
        print(f"{file.name}: {file.records} records, {file.bytes} bytes, sha256 {file.sha256}")
    print(f"{args.month}: cut after cursor {manifest.after} up to {manifest.cut}")
    return 0


def register(sub: Any) -> None:
    """Add `dump`."""
    dump = sub.add_parser("dump", help="cut a month's dump of finished public matches (NDJSON, gzip, manifest)",
                          formatter_class=Defaults)
    dump.add_argument("--month", required=True, metavar="YYYY-MM", help="the month, once it is over")
    dump.add_argument("--out", default=None, metavar="DIR",
                      help="the folder dumps are kept in, one per month (default: TURNSTILE_DUMPS_DIR, else dumps)")
    dump.set_defaults(run=cmd_dump)
