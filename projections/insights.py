"""Insights: one fact row per seat of each finished match, the rows the insights API groups and measures (issue 42).

A fact (kind `fact`, key `<match id>:<seat>`, group: the game) holds the game, its rules edition, the number of seats,
the seat, its player, the bot's policy when a bot held it, the seat's rating before the match (the same OpenSkill
ratings as projections/ratings.py, kept here too so the fold stands alone; None when the match is not rated) and
its mu and sigma after it (`mu_after`, `sigma_after`: a row alone says what the match gained), its
rank, score and result (`win`, `loss` or `draw`; a cooperative game's seats share the team's result), the match's
length in moves and seconds, its end reason (code), the month and the instant (`ended_at`) it ended, and the
opening: the seat's first decision, named by the game's event it produced (the event's tag without the game's
prefix). Only what statistics count is
kept: public matches of a server seed that were played to a result.
"""

from __future__ import annotations

from typing import Any

from domain.lifecycle import BOT_PREFIX
from projections import common, ratings
from projections.game_stats import reason_code
from projections.log import Docs, LogEntry, Projection, check_lifecycle

NAME = "insights"
FACT = "fact"
RATING = "rating"  # key: "<game>|<player>"


def opening(game: str, event_type: str) -> str:
    """A decision named by the game's event it produced: the tag without its game's (or `match.`) prefix."""
    for prefix in (f"{game}.", "match."):
        if event_type.startswith(prefix):
            return event_type[len(prefix):]
    return event_type


def result_of(found: list[dict[str, Any]], result: dict[str, Any], cooperative: bool, team_won: bool | None) -> str:
    """`win`, `loss` or `draw` for one seat: a cooperative game's seats share the team's; every seat ranked alike
    (more than one) is a draw."""
    if cooperative:
        return "win" if team_won else "loss"
    if len(found) > 1 and len({r["rank"] for r in found}) == 1:
        return "draw"
    return "win" if result["winner"] else "loss"


def facts(info: dict[str, Any], entry: LogEntry, before: dict[str, float | None],
          after: dict[str, tuple[float, float]]) -> list[dict[str, Any]]:
    """The fact rows of a finished match (`before`: each player's rating before it, `after`: their (mu, sigma)
    after it, when rated)."""
    found, reason, cooperative, team_won = common.results(NAME, entry)
    game, players = info["game"], info["players"]
    seconds = common.seconds_between(info["started_at"], entry.recorded_at)
    rows = []
    for result in found:
        seat = int(result["seat"])
        player = players[seat]
        rows.append({
            "match_id": entry.match_id, "game": game, "edition": info["rules_version"], "seats": len(players),
            "seat": seat, "player": player,
            "bot": player[len(BOT_PREFIX):] if player.startswith(BOT_PREFIX) else None,
            "rating_before": before.get(player), "mu_after": after[player][0] if player in after else None,
            "sigma_after": after[player][1] if player in after else None, "rank": int(result["rank"]),
            "score": float(result["score"]),
            "result": result_of(found, result, cooperative, team_won), "moves": info["moves"],
            "seconds": seconds, "end_reason": reason_code(reason), "month": entry.recorded_at[:7],
            "ended_at": entry.recorded_at,
            "opening": info["openings"].get(str(seat)), "cooperative": cooperative, "position": entry.position})
    return rows


def rate(docs: Docs, info: dict[str, Any],
         entry: LogEntry) -> tuple[dict[str, float | None], dict[str, tuple[float, float]]]:
    """Each rated player's ordinal before this match and (mu, sigma) after it, moving the ratings on (none for an
    unrated match)."""
    seats = ratings.rated_match(info, entry)
    if seats is None:
        return {}, {}
    game = info["game"]
    held = [docs.get(RATING, ratings.rating_key(game, player)) for player, _ in seats]
    current = [(d["mu"], d["sigma"]) if d else (ratings.MODEL.mu, ratings.MODEL.sigma) for d in held]
    before = {player: mu - 3 * sigma for (player, _), (mu, sigma) in zip(seats, current, strict=True)}
    after = {}
    for (player, _), (mu, sigma) in zip(seats, ratings.rate(current, [rank for _, rank in seats]), strict=True):
        docs.put(RATING, ratings.rating_key(game, player), {"mu": mu, "sigma": sigma})
        after[player] = (mu, sigma)
    return dict(before), after


def apply(docs: Docs, entry: LogEntry) -> None:
    """Fold one log entry into the fact rows."""
    check_lifecycle(NAME, entry)
    if common.before_start(docs, entry):
        return
    if entry.type == "match.started":
        info = common.started(NAME, docs, entry)
        docs.put(common.MATCH, entry.match_id, {**info, "openings": {}}, group=info["game"])
        return
    info = common.count_move(common.known(NAME, docs, entry), entry)
    if entry.seat is not None and entry.command_id is not None and entry.type not in common.DEAL \
            and str(entry.seat) not in info["openings"]:
        info = {**info, "openings": {**info["openings"], str(entry.seat): opening(info["game"], entry.type)}}
    if entry.type != "match.ended":
        docs.put(common.MATCH, entry.match_id, info)
        return
    docs.delete(common.MATCH, entry.match_id)
    if not common.counted(info) or not common.played(entry):
        return
    for row in facts(info, entry, *rate(docs, info, entry)):
        docs.put(FACT, f"{entry.match_id}:{row['seat']}", row, group=info["game"], rank=float(entry.position))


PROJECTION = Projection(name=NAME, version=2, apply=apply)  # 2: `ended_at`, `mu_after`, `sigma_after`
