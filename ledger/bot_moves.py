"""The `bots` check: every move of a bot that sees only its seat (a search level `bot:ismcts-<n>`, or a competitive
game's `bot:greedy`, the generic `Lookahead`: `domain.bots.sees_only_its_seat`) is the move that bot chooses from its
seat's view.

Such a bot's move is a pure function of what its seat sees, the match's draw seed, the seat, the version and the
bot's name, so with the seed revealed anyone re-runs it: fold to the state before the move, hand the bot the same
inputs (the bot reads the state only through `Game.determinize`, which keeps nothing the seat cannot see), and
compare. A server that let its bot look at the hidden cards, or played any other move under a bot's name, records a
move the honest bot would not choose, and fails here (`bot-mismatch`).

Re-running a top-level search costs up to a second a move, so a caller may re-decide a sample (`sample`: how many
of the bot's decisions, chosen by `salt`, which a verifier draws itself so the server cannot tell which will be
checked); the check then says `partial` with how many it re-ran.
"""

from __future__ import annotations

import hashlib
from typing import Any

from domain import bots, match
from domain.codec import command_from_builtins, to_builtins
from domain.engine import Game, Refusal
from domain.match import MatchState
from domain.rng import Rng
from ledger.chain import canonical
from ledger.records import Record
from ledger.rules_checks import Check


def decisions(game: Game[Any], record: Record, states: list[MatchState]) -> list[tuple[int, int, str, MatchState]]:
    """Each decision of a bot that sees only its seat in a finished record: (its first line's index, seat, the bot's
    name, the state before it)."""
    header, lines = record.header, record.lines
    levels = {seat: bots.bot_name(player) for seat, player in enumerate(header.players)}
    out = []
    position = next((i for i, line in enumerate(lines) if line.command is not None), len(lines))
    while position < len(lines) and position <= len(states):
        line, state = lines[position], states[position - 1]
        if line.command is None:  # not after set-up in a record that re-decides (the check runs only then)
            position += 1
            continue
        command = command_from_builtins(game, line.command)
        events = match.decide(game, state, line.seat, command, Rng.derive(str(header.seed), state.version))
        level = levels.get(line.seat) if line.seat is not None else None
        if bots.sees_only_its_seat(game, level) and not str(line.command.get("type", "")).startswith("match."):
            out.append((position, int(line.seat), str(level), state))  # type: ignore[arg-type]
        position += max(1, len(events))
    return out


def chosen(position: int, salt: bytes) -> bytes:
    """The order in which a sample picks decisions: by a hash of the verifier's salt and the line."""
    return hashlib.sha256(salt + position.to_bytes(8, "big")).digest()


def check_bots(game: Game[Any], record: Record, states: list[MatchState], *, sample: int | None = None,
               salt: bytes = b"") -> Check:
    """Re-decide every move of a bot that sees only its seat (or `sample` of them) from its seat's view; it must be
    the recorded move."""
    seed = record.header.seed
    if not any(bots.sees_only_its_seat(game, bots.bot_name(player)) for player in record.header.players):
        return Check(name="bots", status="passed", detail="no bot whose moves are re-decided plays in this match")
    if seed is None:
        return Check(name="bots", status="not-revealed", detail="the bots' moves are re-decided once the seed is out")
    try:
        found = decisions(game, record, states)
    except (Refusal, ValueError) as exc:
        return Check(name="bots", status="not-run", detail=f"the moves cannot be walked: {exc}")
    picked = found if sample is None else sorted(sorted(found, key=lambda d: chosen(d[0], salt))[:sample])
    for position, seat, level, state in picked:
        line = record.lines[position]
        move = bots.policy(game, level)(state.game_state, seat, bots.bot_rng(seed, state.version))
        if canonical(to_builtins(move)) != canonical(line.command):
            return Check(name="bots", status="failed", version=line.version, code="bot-mismatch",
                         detail=f"seat {seat} ({bots.player(level)}) played {line.command} at version "
                                f"{line.version}; from its seat's view that bot chooses {to_builtins(move)}")
    if len(picked) < len(found):
        return Check(name="bots", status="partial",
                     detail=f"{len(picked)} of {len(found)} bot moves re-decided from their seat's view (a "
                            f"sample); every one matched")
    return Check(name="bots", status="passed",
                 detail=f"{len(found)} bot moves re-decided from their seat's view, every one as recorded")
