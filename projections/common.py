"""Helpers every projection uses: remembering a match's start and counting its moves."""

from __future__ import annotations

from typing import Any

from projections.log import Docs, LogEntry, ProjectionError, require

MATCH = "match"
OPENED = "opened"  # a match opened with open seats that has not started yet


def started(projection: str, docs: Docs, entry: LogEntry) -> dict[str, Any]:
    """Remember what `match.started` says (game, players, who chose the seed), for the projection's later events."""
    game, players = require(projection, entry, "game", "players")
    info = {"game": game, "players": list(players), "moves": 0, "last_command": None,
            "started_at": entry.recorded_at, "resigned": [], "seed_source": entry.payload.get("seed_source", "server"),
            "visibility": entry.payload.get("visibility", "public"),
            "rules_version": str(entry.payload.get("rules_version", "1"))}
    docs.put(MATCH, entry.match_id, info, group=game)
    return info


def before_start(docs: Docs, entry: LogEntry) -> bool:
    """Whether an entry belongs to a match that has not started (opened, a seat joined, called off): such entries
    count for nothing, and the projection skips them. Only opening, a late start and an end look at a document."""
    if entry.type == "match.opened":
        docs.put(OPENED, entry.match_id, {"opened_at": entry.recorded_at})
        return True
    if entry.type == "match.seat-joined":
        return True
    if entry.type == "match.started" and entry.version > 1:  # it followed match.opened
        docs.delete(OPENED, entry.match_id)
    if entry.type == "match.ended" and docs.get(OPENED, entry.match_id) is not None:  # called off before the start
        docs.delete(OPENED, entry.match_id)
        return True
    return False


def counted(info: dict[str, Any]) -> bool:
    """Whether a match counts in statistics, ratings and leaderboards: only a public one, and not when the caller
    chose its seed (whoever chose it could pick the deal; such matches are for tests and teaching)."""
    return info.get("seed_source", "server") != "caller" and info.get("visibility", "public") == "public"


NOT_PLAYED = ("abandoned", "cancelled", "aborted")  # ends that are no result (a draw, a timeout are results)


def played(entry: LogEntry) -> bool:
    """Whether a `match.ended` is a result that statistics and ratings count (not an abandonment or a call-off)."""
    return entry.payload.get("reason") not in NOT_PLAYED


def known(projection: str, docs: Docs, entry: LogEntry) -> dict[str, Any]:
    """The remembered match of an event; a match never started is an error, not a skip."""
    info = docs.get(MATCH, entry.match_id)
    if info is None:
        raise ProjectionError(projection, entry, "event of a match whose match.started was never seen")
    return info


DEAL = ("match.entropy-added", "match.entropy-closed")  # a seat's entropy, the deal: no one's move


def count_move(info: dict[str, Any], entry: LogEntry) -> dict[str, Any]:
    """A move is one accepted command: count it on its first event (never a seat's entropy, nor the deal, whose
    set-up events follow `match.entropy-closed` under its command)."""
    if entry.type in DEAL:
        return {**info, "last_command": entry.command_id}
    if entry.command_id is None or entry.command_id == info["last_command"]:
        return info
    return {**info, "moves": info["moves"] + 1, "last_command": entry.command_id}


def results(projection: str, entry: LogEntry) -> tuple[list[dict[str, Any]], str, bool, bool | None]:
    """The fields of `match.ended`: results, reason, cooperative, team_won."""
    found, reason = require(projection, entry, "results", "reason")
    return list(found), reason, bool(entry.payload.get("cooperative", False)), entry.payload.get("team_won")


def seconds_between(start: str, end: str) -> float | None:
    """Seconds between two ISO 8601 UTC stamps (`YYYY-MM-DDTHH:MM:SS[.ffffff]` with Z or +00:00)."""
    try:
        return _epoch(end) - _epoch(start)
    except (ValueError, IndexError):
        return None


def _epoch(stamp: str) -> float:
    """Seconds since 1970 of an ISO 8601 UTC stamp, computed without a clock or datetime."""
    date, _, time = stamp.replace("Z", "").split("+")[0].partition("T")
    year, month, day = (int(p) for p in date.split("-"))
    hours, minutes, seconds = time.split(":")
    # Days from civil (Howard Hinnant's algorithm): exact for the proleptic Gregorian calendar.
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    days = era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468
    return days * 86400 + int(hours) * 3600 + int(minutes) * 60 + float(seconds)
