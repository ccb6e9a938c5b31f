"""A bot ladder (issue 41): head-to-head results of neighbouring bot levels at two seats, in every game.

Each pairing plays `--matches` matches (half with each level in seat 0), every seat played by its bot exactly as the
service plays it (`domain.bots.next_bot_move`: the seed, the version, the seat's view). A win is a lone first place;
shared first places count half. Mass Transit is cooperative: each level plays as a team of two, and the table gives
its team's win rate. With `--verify`, one record with the top level is built and `ledger.verify` timed on it (every
search bot move re-run).

    uv run python bench/bot_ladder.py --matches 10
    uv run python bench/bot_ladder.py --games metro-x,terminus --matches 4 --verify
    uv run python bench/bot_ladder.py --games expect-delays --pairing ismcts-2:ismcts-3 --first 8 --matches 8 --each
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import bots  # noqa: E402
from domain.catalog import GAMES, game_of  # noqa: E402
from domain.engine import Command, Game  # noqa: E402
from domain.match import MatchState  # noqa: E402
from domain.playout import Chooser, Playout, play  # noqa: E402
from ledger.records import playout_record  # noqa: E402
from ledger.verify import verify_record  # noqa: E402


def bot_chooser(game: Game[Any], seed: str) -> Chooser:
    """Every seat is a bot: the service's choice of which bot moves, and its move."""

    def choose(state: MatchState, seats: list[int]) -> tuple[int, Command]:
        found = bots.next_bot_move(game, state, seed)
        assert found is not None
        return found

    return choose


def match_of(game: Game[Any], names: list[str], seed: str) -> Playout:
    """One match between the named bots (one a seat)."""
    return play(game, len(names), None, seed, chooser=bot_chooser(game, seed),
                names=[bots.player(name) for name in names])


def pairing(game: Game[Any], low: str, high: str, matches: int, first: int = 0,
            each: bool = False) -> tuple[float, float, int]:
    """`high`'s score against `low` (wins + half the shared wins), matches played, and the mean moves a match; the
    matches' seeds are numbered from `first` (a later run adds matches of new seeds); `each`: print every match."""
    score, moves = 0.0, 0
    for n in range(first, first + matches):
        names = [low, high] if n % 2 == 0 else [high, low]
        played = match_of(game, names, f"ladder-{game.slug}-{low}-{high}-{n}")
        assert played.state is not None and played.state.ended is not None
        firsts = [r.seat for r in played.state.ended.results if r.rank == 1]
        if names.index(high) in firsts:
            score += 1.0 / len(firsts)
        moves += len(played.moves)
        if each:
            won = "won" if names.index(high) in firsts else "lost"
            print(f"  seed {n}: {high} in seat {names.index(high)} {won}{' (shared)' if len(firsts) > 1 else ''}, "
                  f"{len(played.moves)} moves", flush=True)
    return score, matches, moves // max(1, matches)


def team(game: Game[Any], name: str, matches: int) -> tuple[int, int]:
    """Wins of a two-seat team of one level in a cooperative game."""
    won = 0
    for n in range(matches):
        played = match_of(game, [name, name], f"ladder-{game.slug}-team-{name}-{n}")
        assert played.state is not None and played.state.ended is not None
        won += bool(played.state.ended.team_won)
    return won, matches


def verify_time(slug: str) -> None:
    """Build one record where the top level plays the level below, and time its verification."""
    game = game_of(slug)
    top = list(bots.SEARCH)[-1]
    played = match_of(game, [list(bots.SEARCH)[-2], top], f"verify-{slug}")
    record = playout_record(played, match_id=f"ladder-{slug}")
    started = time.process_time()
    verdict = verify_record(record)
    spent = time.process_time() - started
    check = next(c for c in verdict.checks if c.name == "bots")
    print(f"verify {slug}: {len(played.moves)} moves, {verdict.code}, {spent:.1f} s CPU ({check.detail})",
          flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--games", default=",".join(game.slug for game in GAMES))
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--pairing", default=None, metavar="LOW:HIGH", help="only this pairing (competitive games)")
    parser.add_argument("--first", type=int, default=0, help="the first match's seed number")
    parser.add_argument("--each", action="store_true", help="print every match's result")
    args = parser.parse_args()
    for slug in args.games.split(","):
        game = game_of(slug)
        names = bots.names(game)
        started = time.process_time()
        if game.cooperative:
            for name in names:
                won, played = team(game, name, args.matches)
                print(f"{slug:<14} team of {name:<9} won {won}/{played} ({100 * won / played:.0f} %)", flush=True)
        else:
            pairs = [tuple(args.pairing.split(":", 1))] if args.pairing else list(zip(names, names[1:], strict=False))
            for low, high in pairs:
                score, played, moves = pairing(game, low, high, args.matches, args.first, args.each)
                print(f"{slug:<14} {high:<9} vs {low:<9} {score:4.1f}/{played} ({100 * score / played:3.0f} %), "
                      f"{moves} moves a match", flush=True)
        print(f"{slug:<14} ({time.process_time() - started:.0f} s CPU)", flush=True)
        if args.verify:
            verify_time(slug)
    return 0


if __name__ == "__main__":
    sys.exit(main())
