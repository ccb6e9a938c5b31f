"""What one move costs in-process (decide, seal, append, fold), per store and game: the median and p90 of many.

    uv run python bench/move_cost.py [--moves 2000] [--store sqlite|postgres|both]

Random legal moves through `MatchService.play`, one match at a time (a new one when a match ends), so the figure is
the latency of a move with a warm cache and no HTTP. PostgreSQL runs in a throwaway database on the server named by
TURNSTILE_DATABASE_URL. Written to run unchanged against older checkouts too (compare with `--repo`), which is how
the cost of record scheme 2 (public forms and commitments) was measured; see bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

GAMES = ("expect-delays", "touched-on", "terminus")


@contextmanager
def store_url(kind: str) -> Iterator[str]:
    """A fresh store of a kind, dropped afterwards."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.db"
        return
    import psycopg

    server = os.environ.get("TURNSTILE_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"turnstile_bench_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def create(service: Any, slug: str, players: list[str]) -> str:
    """A new match (the create signature changed over time: the seed went from positional to keyword)."""
    try:
        created = service.create(slug, players, None)
    except TypeError:
        created = service.create(slug, players, None, None)
    return str(created.record.id)


def move_times(url: str, slug: str, moves: int, seed: int) -> list[float]:
    """Seconds per move over `moves` random legal moves."""
    from domain import match
    from domain.catalog import by_slug
    from service.matches.matches import MatchService
    from store.factory import open_store

    game = by_slug(slug)
    assert game is not None
    store = open_store(url)
    service = MatchService(store)
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(game.min_seats if slug != "expect-delays" else 2)]
    times: list[float] = []
    match_id = create(service, slug, players)
    while len(times) < moves:
        state = service.load(match_id).state
        seats = match.to_move(game, state)
        if not seats:
            match_id = create(service, slug, players)
            continue
        seat = rng.choice(seats)
        command = rng.choice(match.legal(game, state, seat))
        began = time.perf_counter()
        service.play(match_id, seat, command, expected_version=state.version, command_id=None)
        times.append(time.perf_counter() - began)
    store.close()
    return times


def main() -> int:
    """Print one line per (store, game): median and p90 milliseconds per move."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000, help="moves per store and game (default 2000)")
    parser.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]),
                        help="the checkout whose code to measure (default: this one)")
    args = parser.parse_args()
    sys.path.insert(0, args.repo)
    kinds = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    print(f"# {args.repo}: {args.moves} moves per row")
    for kind in kinds:
        for slug in GAMES:
            with store_url(kind) as url:
                times = sorted(move_times(url, slug, args.moves, seed=7))
            median = statistics.median(times) * 1000
            p90 = times[int(len(times) * 0.9)] * 1000
            print(f"{kind:8} {slug:14} median {median:6.2f} ms   p90 {p90:6.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
