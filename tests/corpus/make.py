"""Write a small finished record for every registered game that lacks one: `uv run python -m tests.corpus.make`.

Each record is the smallest of a few seeded random matches at the game's sample set-ups, played with
`domain.playout.play` and chained exactly as the store chains events (with a fixed `recorded_at`), so the
same code always writes the same bytes. Records are evidence: they are never rewritten unless asked
(`--game SLUG --force`), because the point of the corpus is that old records keep verifying.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from domain.catalog import GAMES, by_slug
from domain.engine import Game, setups
from domain.playout import play
from ledger.records import Record, encode_record, playout_record

CORPUS = Path(__file__).resolve().parent
SEEDS = 6
COMMAND = "uv run python -m tests.corpus.make"


def path_of(slug: str) -> Path:
    """Where the record of a game lives."""
    return CORPUS / f"{slug}.ndjson"


def smallest_record(game: Game[Any]) -> Record:
    """The finished record with the fewest events among a few seeded matches of each sample set-up."""
    best: Record | None = None
    for seats, options in setups(game):
        for n in range(SEEDS):
            played = play(game, seats, options, seed=f"corpus-{game.slug}-{seats}-{n}")
            if played.state is None or not played.state.finished:
                continue
            record = playout_record(played, match_id=f"corpus-{game.slug}")
            if best is None or len(record.lines) < len(best.lines):
                best = record
    if best is None:
        raise SystemExit(f"{game.slug}: no seeded match finished")
    return best


def main(argv: list[str] | None = None) -> int:
    """Write the missing records (or, with --force, the named games' records)."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__)
    parser.add_argument("--game", action="append", default=[], metavar="SLUG", help="only this game")
    parser.add_argument("--force", action="store_true", help="rewrite existing records of the named games")
    args = parser.parse_args(argv)
    if args.force and not args.game:
        parser.error("--force rewrites evidence: name the games with --game")
    games = [by_slug(slug) for slug in args.game] if args.game else list(GAMES)
    for slug, game in zip(args.game or [g.slug for g in GAMES], games, strict=True):
        if game is None:
            parser.error(f"no registered game is called {slug!r}")
        path = path_of(slug)
        if path.exists() and not args.force:
            continue
        record = smallest_record(game)
        path.write_bytes(encode_record(record))
        print(f"wrote {path.relative_to(CORPUS.parent.parent)} ({len(record.lines)} events)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
