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

Two fields serve the insights queries (service/reads/insights.py), which the stores answer with SQL aggregates over
a table of these rows: `band`, the low end of the seat's rating band (None: unrated), and `reps`, which of the
match's rows stand for it when a length is averaged. A length counts each match once per group; a group fixes the
match-wide dimensions and some of the per-seat ones (`PER_SEAT`), so bit m of `reps` is set on the lowest seat among
the match's rows that share their labels of the per-seat dimensions in subset m. A query that neither groups nor
filters by `seat` (with it, a match has one row per group anyway) sums only the rows whose bit for its subset is
set: one row per match and group, without a DISTINCT.
"""

from __future__ import annotations

import math
from typing import Any

from domain.lifecycle import BOT_PREFIX
from projections import common, ratings
from projections.game_stats import reason_code
from projections.log import Docs, LogEntry, Projection, check_lifecycle

NAME = "insights"
FACT = "fact"
RATING = "rating"  # key: "<game>|<player>"
BAND = 5.0  # rating bands are this wide, in ordinal points (OpenSkill: a new player is at 0)
PER_SEAT = ("opening", "bot", "rating_band", "player")  # the dimensions that differ between a match's rows


def band_of(rating: float | None) -> float | None:
    """The low end of a rating's band, or None for an unrated seat."""
    return None if rating is None else math.floor(rating / BAND) * BAND


def label(name: str, row: dict[str, Any]) -> str:
    """A fact row's value of a dimension, as text (`bot`: the policy or `human`; `rating_band`: `lo..hi` or
    `unrated`; `opening`, `edition`: `none` when there is none)."""
    if name == "bot":
        return row["bot"] or "human"
    if name == "rating_band":
        low = band_of(row["rating_before"])
        return "unrated" if low is None else f"{low:g}..{low + BAND:g}"
    value = row[name]
    return "none" if value is None else str(value)


def subset(names: set[str]) -> int:
    """The bit of `reps` for the per-seat dimensions in `names` (others are ignored)."""
    return 1 << sum(1 << i for i, name in enumerate(PER_SEAT) if name in names)


def representatives(rows: list[dict[str, Any]]) -> list[int]:
    """Each row's `reps`: bit m set when the row has the lowest seat among the rows sharing its labels of the
    per-seat dimensions in subset m (the rows of one match)."""
    reps = [0] * len(rows)
    for m in range(1 << len(PER_SEAT)):
        names = [name for i, name in enumerate(PER_SEAT) if m >> i & 1]
        lowest: dict[tuple[str, ...], int] = {}
        for index, row in enumerate(rows):
            key = tuple(label(name, row) for name in names)
            if key not in lowest or row["seat"] < rows[lowest[key]]["seat"]:
                lowest[key] = index
        for index in lowest.values():
            reps[index] |= 1 << m
    return reps


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
            "opening": info["openings"].get(str(seat)), "cooperative": cooperative, "position": entry.position,
            "band": band_of(before.get(player))})
    for row, reps in zip(rows, representatives(rows), strict=True):
        row["reps"] = reps
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


PROJECTION = Projection(name=NAME, version=4, apply=apply)  # 2: `ended_at`, `mu_after`, `sigma_after`; 3: `band`,
# `reps` (the stores keep the rows in a table of their own, insight_facts); 4: the same rows, folded again so that
# the stores' rollups of their sums (insight_rollups) hold every row written before them. (The cells of all seven
# dimensions moved to insight_cells by a migration that carried their sums over: no new version, no fold again.)
