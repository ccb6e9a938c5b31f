"""How long a bot takes to decide one move (issue 41): `greedy` and every search level in every game, on one core.

Positions come from seeded random play (two seats, default options) at spread depths, keeping those where the seat to
move has a real choice; each level decides each position once through the bot policy (`domain.bots.policy`, as the
service calls it). Prints mean, 90th percentile and max per game and level (ms), and checks the targets: the top
level within 1 s a move, the lowest search level within 50 ms and `greedy` within 20 ms (means).

    uv run python bench/bot_speed.py                 # 12 positions a game
    uv run python bench/bot_speed.py --positions 4   # quicker
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import bots  # noqa: E402
from domain.catalog import GAMES  # noqa: E402
from domain.engine import Game  # noqa: E402
from domain.playout import play  # noqa: E402

TOP_S, LOWEST_S, GREEDY_S = 1.0, 0.050, 0.020


def positions(game: Game[Any], count: int) -> list[tuple[Any, int]]:
    """`count` tables with a seat to move that has two legal moves or more."""
    out: list[tuple[Any, int]] = []
    seed = 0
    while len(out) < count and seed < 20 * count:
        state = play(game, 2, None, f"bench-{seed}", max_moves=3 + (seed * 37) % 120).state
        seed += 1
        if state is None or state.ended is not None:
            continue
        table = state.game_state
        for seat in game.to_move(table):
            if len(game.legal(table, seat)) > 1:
                out.append((table, seat))
                break
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    searches = list(bots.SEARCH)
    names = ["greedy", *searches]
    ok = True
    print(f"{'game':<14} {'level':<9} {'mean ms':>8} {'p90 ms':>8} {'max ms':>8}")
    for game in GAMES:
        tables = positions(game, args.positions)
        for name in names:
            chosen = bots.policy(game, name)
            times = []
            for n, (table, seat) in enumerate(tables):
                started = time.process_time()
                chosen(table, seat, bots.bot_rng("bench", n))
                times.append(time.process_time() - started)
            times.sort()
            mean, p90, worst = statistics.fmean(times), times[int(0.9 * (len(times) - 1))], times[-1]
            print(f"{game.slug:<14} {name:<9} {mean * 1e3:8.1f} {p90 * 1e3:8.1f} {worst * 1e3:8.1f}")
            if name == searches[-1] and worst > TOP_S:
                ok = False
                print(f"  ! {game.slug}: {name} took {worst:.2f} s on a move (target {TOP_S} s)")
            if name == searches[0] and mean > LOWEST_S:
                ok = False
                print(f"  ! {game.slug}: {name} took {mean * 1e3:.0f} ms a move on average (target 50 ms)")
            if name == "greedy" and mean > GREEDY_S:
                ok = False
                print(f"  ! {game.slug}: {name} took {mean * 1e3:.0f} ms a move on average (target 20 ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
