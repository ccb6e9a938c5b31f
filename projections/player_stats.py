"""Per-player, per-game statistics: played, won, lost, drawn, scores, placement and win streaks."""

from __future__ import annotations

from typing import Any

from domain.handles import identity
from projections import common
from projections.log import Docs, LogEntry, Projection, check_lifecycle

NAME = "player-stats"
STATS = "stats"  # key: "<game>|<player identity>", group: the player's identity
PLAYER = "player"  # key: the player's identity; which games they played


def stats_key(game: str, player: str) -> str:
    """The key of one player's statistics in one game, whichever way the handle is spelt."""
    return f"{game}|{identity(player)}"


def empty(game: str, player: str) -> dict[str, Any]:
    """Statistics of a player who has not finished a match of this game yet."""
    return {"game": game, "player": player, "played": 0, "won": 0, "lost": 0, "drawn": 0, "score_total": 0.0,
            "best_score": None, "placement_total": 0, "current_win_streak": 0, "longest_win_streak": 0,
            "position": 0}


def verdict(result: dict[str, Any], results: list[dict[str, Any]], cooperative: bool,
            team_won: bool | None) -> str:
    """won, lost or drawn: a shared first place is a draw; a team result applies to every seat."""
    if cooperative:
        return "won" if team_won else "lost"
    if not result["winner"]:
        return "lost"
    return "drawn" if sum(1 for r in results if r["winner"]) > 1 else "won"


def updated(doc: dict[str, Any], result: dict[str, Any], outcome: str, position: int) -> dict[str, Any]:
    """A player's statistics after one more finished match."""
    streak = doc["current_win_streak"] + 1 if outcome == "won" else 0
    score = float(result["score"])
    best = score if doc["best_score"] is None else max(doc["best_score"], score)
    played = doc["played"] + 1
    new = {**doc, "played": played, outcome: doc[outcome] + 1, "score_total": doc["score_total"] + score,
           "best_score": best, "placement_total": doc["placement_total"] + int(result["rank"]),
           "current_win_streak": streak, "longest_win_streak": max(doc["longest_win_streak"], streak),
           "position": position}
    new["mean_score"] = new["score_total"] / played
    new["mean_placement"] = new["placement_total"] / played
    return new


def apply(docs: Docs, entry: LogEntry) -> None:
    """Fold one log entry into player statistics."""
    check_lifecycle(NAME, entry)
    if common.before_start(docs, entry):
        return
    if entry.type == "match.started":
        common.started(NAME, docs, entry)
        return
    if entry.type != "match.ended":
        return
    info = common.known(NAME, docs, entry)
    docs.delete(common.MATCH, entry.match_id)
    if not common.counted(info) or not common.played(entry):
        return
    game = info["game"]
    found, _, cooperative, team_won = common.results(NAME, entry)
    for result in sorted(found, key=lambda r: r["seat"]):
        player = info["players"][result["seat"]]  # as this match wrote it; the documents keep the first spelling
        key = stats_key(game, player)
        doc = docs.get(STATS, key) or empty(game, player)
        docs.put(STATS, key, updated(doc, result, verdict(result, found, cooperative, team_won), entry.position),
                 group=identity(player))
        games = docs.get(PLAYER, identity(player)) or {"player": player, "games": {}}
        docs.put(PLAYER, identity(player), {**games, "games": {**games["games"], game: doc["played"] + 1}})


PROJECTION = Projection(name=NAME, version=3, apply=apply)  # 2: only public matches of a server seed count;
# 3: one player per handle identity ("Ada" and "ada" are one)
