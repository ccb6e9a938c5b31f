"""A digest of every decision each rules edition makes on a fixed set of seeded random playouts.

An edition is frozen: once released, the same playouts must give the same events forever. `digest(game)` plays each
of the edition's sample set-ups with a few fixed seeds (set-up, every command, every event, the outcome) and hashes
it all; `DIGESTS` (edition_digests.json beside this file) holds the digest of every released edition. Add the digest
of a new edition with `uv run python -m tests.editions.digests` (it writes only the missing ones; an existing one is
never rewritten: an edition that changed is a bug, or a new edition).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from domain.catalog import EDITIONS
from domain.codec import encode
from domain.engine import Game, setups
from domain.playout import play

FILE = Path(__file__).resolve().parent / "edition_digests.json"
SEEDS = 6
# Games whose edition switches need more playouts to be reached (a Tourist queued behind a Commuter waiting at the end
# of its line comes up in about one random Expect Delays game in 50).
MORE_SEEDS = {"expect-delays": 48}
MAX_MOVES = 4000


def digest(game: Game[Any]) -> str:
    """SHA-256 over every event and command of a few seeded playouts of each of the edition's sample set-ups."""
    total = hashlib.sha256()
    for seats, options in setups(game):
        for n in range(MORE_SEEDS.get(game.slug, SEEDS)):
            played = play(game, seats, options, seed=f"edition-digest-{game.slug}-{seats}-{n}", max_moves=MAX_MOVES)
            for event in played.events:
                total.update(encode(event) + b"\n")
            for seat, command in played.moves:
                total.update(f"{seat}:".encode() + encode(command) + b"\n")
    return total.hexdigest()


def recorded() -> dict[str, str]:
    """The recorded digests, by `<game>@<rules_version>`."""
    return json.loads(FILE.read_text()) if FILE.exists() else {}


def key(game: Game[Any]) -> str:
    """The digest's name: `<game>@<rules_version>`."""
    return f"{game.slug}@{game.rules_version}"


def main() -> int:
    """Write the digests of editions that have none; never rewrite one."""
    digests = recorded()
    for editions in EDITIONS.values():
        for game in editions.values():
            if key(game) not in digests:
                digests[key(game)] = digest(game)
                print(f"recorded {key(game)}: {digests[key(game)]}")
    FILE.write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
