"""Match summaries: status, players, scores, ranks, end reason, moves and duration of every match."""

from __future__ import annotations

from projections import common
from projections.log import Docs, LogEntry, Projection, check_lifecycle

NAME = "match-summaries"
SUMMARY = "summary"


def apply(docs: Docs, entry: LogEntry) -> None:
    """Fold one log entry into the summaries."""
    check_lifecycle(NAME, entry)
    if common.before_start(docs, entry):
        return
    if entry.type == "match.started":
        info = common.started(NAME, docs, entry)
        docs.put(SUMMARY, entry.match_id, summary(entry.match_id, info, entry), group=info["game"])
        return
    info = common.count_move(common.known(NAME, docs, entry), entry)
    docs.put(common.MATCH, entry.match_id, info, group=info["game"])
    doc = docs.get(SUMMARY, entry.match_id) or summary(entry.match_id, info, entry)
    doc = {**doc, "moves": info["moves"], "version": entry.version, "position": entry.position}
    if entry.type == "match.entropy-closed":  # dealt: the seats' entropy is in (or its deadline ran out)
        doc["status"] = "active"
    if entry.type == "match.ended":
        found, reason, cooperative, team_won = common.results(NAME, entry)
        doc.update(status="finished", end_reason=reason, cooperative=cooperative, team_won=team_won,
                   results=[{**r, "player": info["players"][r["seat"]]} for r in found],
                   ended_at=entry.recorded_at,
                   duration_seconds=common.seconds_between(info["started_at"], entry.recorded_at))
    docs.put(SUMMARY, entry.match_id, doc, group=info["game"])


def summary(match_id: str, info: dict[str, object], entry: LogEntry) -> dict[str, object]:
    """A new summary for a started match."""
    dealing = (entry.payload.get("options") or {}).get("entropy") == "seats"  # no deal until the seats' entropy
    return {"match_id": match_id, "game": info["game"], "players": info["players"],
            "status": "dealing" if dealing else "active",
            "seed_source": info["seed_source"],
            "moves": 0, "version": entry.version, "position": entry.position, "started_at": entry.recorded_at,
            "ended_at": None, "duration_seconds": None, "end_reason": None, "results": [], "cooperative": False,
            "team_won": None}


PROJECTION = Projection(name=NAME, version=2, apply=apply)  # 2: summaries say who chose the seed
