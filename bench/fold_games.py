"""Per game: events in a random match, time to fold a whole match, and the cost of one move (legal + decide).

    uv run python bench/fold_games.py [--matches 20]

Random play from the legal list (domain.playout), seeds bench-0..N-1, each game at its first sample set-up.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

from domain import match
from domain.catalog import GAMES
from domain.engine import setups
from domain.playout import play


def main() -> None:
    """Print a Markdown table row per game."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    print("| game | set-up | events/match (median) | fold a match (median) | per move (median) | peak fold memory |")
    print("|---|---|---|---|---|---|")
    for game in GAMES:
        seats, options = setups(game)[0]
        events, folds, per_move, peaks = [], [], [], []
        for n in range(args.matches):
            started = time.perf_counter()
            played = play(game, seats, options, seed=f"bench-{n}")
            per_move.append((time.perf_counter() - started) / max(1, len(played.moves)))
            events.append(len(played.events))
            started = time.perf_counter()
            match.fold(game, played.events)
            folds.append(time.perf_counter() - started)
            tracemalloc.start()
            match.fold(game, played.events)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        print(f"| {game.slug} | {seats} seats {options or ''} | {statistics.median(events):.0f} | "
              f"{statistics.median(folds) * 1e3:.2f} ms | {statistics.median(per_move) * 1e6:.0f} µs | "
              f"{statistics.median(peaks) / 1024:.0f} KiB |")


if __name__ == "__main__":
    main()
