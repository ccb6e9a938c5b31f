"""Per-game statistics: win rate by seat order, score distribution, match length, end reasons,
cooperative win rate and solo score table; over every rules edition, and for each edition apart (`editions`)."""

from __future__ import annotations

from typing import Any

from projections import common
from projections.log import Docs, LogEntry, Projection, check_lifecycle

NAME = "game-stats"
GAME = "game"


def empty(game: str) -> dict[str, Any]:
    """Statistics of a game with no match yet."""
    return {"game": game, "started": 0, "finished": 0, "wins_by_seat": {}, "finished_by_seats": {},
            "scores": {}, "moves_total": 0, "moves_min": None, "moves_max": None, "end_reasons": {},
            "cooperative_played": 0, "cooperative_won": 0, "solo_scores": {}, "lengths": {}, "editions": {},
            "position": 0}


def _edition_empty(game: str) -> dict[str, Any]:
    """Statistics of one rules edition of a game with no match yet (the game's shape, without its bookkeeping)."""
    return {key: value for key, value in empty(game).items() if key not in ("game", "position", "editions")}


def bump(counts: dict[str, int], key: object, by: int = 1) -> dict[str, int]:
    """A copy of `counts` with `key` increased."""
    return {**counts, str(key): counts.get(str(key), 0) + by}


def finished(doc: dict[str, Any], info: dict[str, Any], entry: LogEntry) -> dict[str, Any]:
    """The game's statistics after one more finished match."""
    found, reason, cooperative, team_won = common.results(NAME, entry)
    moves = info["moves"]
    doc = {**doc, "finished": doc["finished"] + 1, "end_reasons": bump(doc["end_reasons"], reason_code(reason)),
           "finished_by_seats": bump(doc["finished_by_seats"], len(found)), "moves_total": doc["moves_total"] + moves,
           "moves_min": moves if doc["moves_min"] is None else min(doc["moves_min"], moves),
           "moves_max": moves if doc["moves_max"] is None else max(doc["moves_max"], moves),
           "lengths": bump(doc.get("lengths", {}), str(moves))}
    for result in found:
        doc["scores"] = bump(doc["scores"], _score(result["score"]))
    if cooperative:
        doc["cooperative_played"] += 1
        doc["cooperative_won"] += bool(team_won)
    elif len(found) == 1:
        doc["solo_scores"] = bump(doc["solo_scores"], _score(found[0]["score"]))
    else:
        for result in found:
            if result["winner"]:
                doc["wins_by_seat"] = bump(doc["wins_by_seat"], result["seat"])
    doc["moves_mean"] = doc["moves_total"] / doc["finished"]
    doc["cooperative_win_rate"] = (doc["cooperative_won"] / doc["cooperative_played"]
                                   if doc["cooperative_played"] else None)
    return doc


def reason_code(reason: str) -> str:
    """The stable code of a recorded end reason: the part before its first ':' (a game may write its detail after
    it, e.g. Mass Transit's "team-lost: seat 0 could not play two cards; ..."), so each kind of ending is one bucket.
    Recorded reasons stay as they are: the code is derived here."""
    return reason.partition(":")[0].strip()


def _score(score: float) -> str:
    """A score as a table key: integral scores without a decimal point."""
    return str(int(score)) if float(score).is_integer() else str(score)


def apply(docs: Docs, entry: LogEntry) -> None:
    """Fold one log entry into game statistics."""
    check_lifecycle(NAME, entry)
    if common.before_start(docs, entry):
        return
    if entry.type == "match.started":
        info = common.started(NAME, docs, entry)
        if not common.counted(info):
            return
        doc = docs.get(GAME, info["game"]) or empty(info["game"])
        editions = doc.get("editions", {})
        edition = editions.get(info["rules_version"]) or _edition_empty(info["game"])
        editions = {**editions, info["rules_version"]: {**edition, "started": edition["started"] + 1}}
        docs.put(GAME, info["game"], {**doc, "started": doc["started"] + 1, "editions": editions,
                                      "position": entry.position})
        return
    info = common.count_move(common.known(NAME, docs, entry), entry)
    if entry.type != "match.ended":
        docs.put(common.MATCH, entry.match_id, info)
        return
    if not common.counted(info) or not common.played(entry):
        docs.delete(common.MATCH, entry.match_id)
        return
    doc = finished(docs.get(GAME, info["game"]) or empty(info["game"]), info, entry)
    editions = doc.get("editions", {})
    edition = finished(editions.get(info["rules_version"]) or _edition_empty(info["game"]), info, entry)
    docs.put(GAME, info["game"], {**doc, "editions": {**editions, info["rules_version"]: edition},
                                  "position": entry.position})
    docs.delete(common.MATCH, entry.match_id)


PROJECTION = Projection(name=NAME, version=5, apply=apply)  # 2: only public matches of a server seed count;
# 3: match lengths counted one by one (the distribution); 4: end reasons by code, their detail left out;
# 5: each rules edition's statistics apart (`editions`)
