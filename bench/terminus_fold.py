"""Time to fold a complete random Terminus match (median over a few seeds, per set-up).

Run: `uv run python bench/terminus_fold.py [seeds]`. Each match is played once with the random playout (uniform
over `legal`) and a purposeful policy (rarely passes, prefers building: long matches with many Builds); the
recorded events are then folded from nothing, timed, several times; the median fold time is printed.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from domain import match
from domain.engine import Command
from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.match import MatchState
from domain.playout import Chooser, play
from domain.rng import Rng

SETUPS: tuple[tuple[int, dict[str, Any]], ...] = ((2, {"automa": True}), (3, {}), (5, {}))


def purposeful(rng: Rng) -> Chooser:
    """A random policy that seldom passes and prefers Builds, so matches run long."""

    def choose(state: MatchState, seats: list[int]) -> tuple[int, Command]:
        seat = rng.choice([s for s in seats if match.legal(GAME, state, s)])
        legal = match.legal(GAME, state, seat)
        keep = [c for c in legal if not isinstance(c, (C.Pass, C.EndTurn, C.FinishBuild))]
        if keep and rng.below(100) < 96:
            builds = [c for c in keep if isinstance(c, (C.StartBuild, C.BuildLink, C.BuildHub, C.IncreaseCapacity))]
            return seat, rng.choice(builds if builds and rng.below(100) < 70 else keep)
        return seat, rng.choice(legal)

    return choose


def fold_time(events: list[Any], repeats: int = 5) -> float:
    """Median seconds to fold `events` from nothing."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        match.fold(GAME, events)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(seeds: int = 5) -> None:
    for policy in ("random", "purposeful"):
        for seats, options in SETUPS:
            folds, sizes, plays = [], [], []
            for n in range(seeds):
                seed = f"bench-{n}"
                chooser = purposeful(Rng.derive(seed, -1)) if policy == "purposeful" else None
                start = time.perf_counter()
                played = play(GAME, seats, options, seed, chooser=chooser)
                plays.append(time.perf_counter() - start)
                folds.append(fold_time(played.events))
                sizes.append(len(played.events))
            print(
                f"{policy:10} {seats}p {options!s:18} events median {statistics.median(sizes):5.0f}  "
                f"fold median {statistics.median(folds) * 1000:7.2f} ms  play median {statistics.median(plays):.3f} s"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
