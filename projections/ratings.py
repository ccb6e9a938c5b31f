"""Ratings per game with openskill (Plackett-Luce, free-for-all with ties), in global log order.

Cooperative and solo matches are not rated, nor a match where one player holds several seats, nor a match whose
seed the caller chose (tests and teaching), nor one abandoned or called off (a draw or a timeout is rated).
Leaderboards order players by the conservative rating `ordinal` (mu - 3 sigma).
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from domain.handles import identity
from projections import common
from projections.log import Docs, LogEntry, Projection, check_lifecycle

NAME = "ratings"
RATING = "rating"  # key: "<game>|<player identity>", group: game, rank: ordinal
MODEL = PlackettLuce()

HISTORY = 200  # ratings kept per player and game


def rating_key(game: str, player: str) -> str:
    """The key of a player's rating in a game, whichever way the handle is spelt."""
    return f"{game}|{identity(player)}"


def rate(current: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) per player from their ranks (1 = best, equal = tie)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in current]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def rated_match(info: dict[str, Any], entry: LogEntry) -> list[tuple[str, int]] | None:
    """(player, rank) per seat of a match that counts for ratings, else None."""
    found, _, cooperative, _ = common.results(NAME, entry)
    players = [info["players"][r["seat"]] for r in found]
    if not common.counted(info) or not common.played(entry) or cooperative or len(found) < 2 \
            or len({identity(player) for player in players}) < len(players):
        return None
    return [(player, int(result["rank"])) for player, result in zip(players, found, strict=True)]


def apply(docs: Docs, entry: LogEntry) -> None:
    """Fold one log entry into ratings."""
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
    seats = rated_match(info, entry)
    if seats is None:
        return
    game = info["game"]
    before = [docs.get(RATING, rating_key(game, player)) for player, _ in seats]
    current = [(d["mu"], d["sigma"]) if d else (MODEL.mu, MODEL.sigma) for d in before]
    for (player, _), doc, (mu, sigma) in zip(seats, before, rate(current, [rank for _, rank in seats]), strict=True):
        ordinal = mu - 3 * sigma
        matches = (doc["matches"] if doc else 0) + 1
        # The last HISTORY ratings, by the position of the match that set each: the rating history charts draw them.
        history = [*(doc.get("history", []) if doc else [])[1 - HISTORY:], [entry.position, ordinal]]
        docs.put(RATING, rating_key(game, player),
                 {"game": game, "player": doc["player"] if doc else player,  # the spelling seen first
                  "mu": mu, "sigma": sigma, "ordinal": ordinal, "matches": matches,
                  "position": entry.position, "history": history}, group=game, rank=ordinal)


PROJECTION = Projection(name=NAME, version=4, apply=apply)  # 2: only public matches of a server seed are rated;
# 3: each rating keeps its history; 4: one rating per handle identity ("Ada" and "ada" are one player)
