"""Page cursors: transparent keysets, each with the pattern the OpenAPI document states for it.

One rule for every cursor: a value matching its pattern is a place in the order, accepted as it is (it needs no
lookup, so a cursor naming a match or player that does not exist pages on from where it would be); any other value
is 400 `invalid-cursor`. The patterns below are both what the schema says and what the code checks.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from api.problems import ApiError
from ledger.events import MatchRecord

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)

# `<created_at in microseconds since 1970>|<match id>`: the (created_at, id) keyset of the listing.
MATCHES_PATTERN = r"^[0-9]{1,16}\|[^\u0000]{1,64}$"
# `<rating ordinal as Python writes a float>|<player>`: the (rank, player) keyset of a leaderboard.
LEADERBOARD_PATTERN = r"^-?[0-9]{1,16}(\.[0-9]{1,20})?(e[-+][0-9]{1,3})?\|[^\u0000]{1,64}$"
# `<created_at as the store writes it>|<tournament id>`: the (created_at, id) keyset of the tournaments listing.
TOURNAMENTS_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z\|[^\u0000|]{1,64}$"
_MATCHES = re.compile(MATCHES_PATTERN)
_TOURNAMENTS = re.compile(TOURNAMENTS_PATTERN)
_LEADERBOARD = re.compile(LEADERBOARD_PATTERN)


def _invalid(cursor: str) -> ApiError:
    return ApiError(400, "invalid-cursor", f"{cursor[:100]!r} is not a cursor: pass a next_cursor as it was given")


def match_cursor(record: MatchRecord) -> str:
    """The cursor of the page after `record`."""
    micros = (datetime.fromisoformat(record.created_at) - EPOCH) // MICROSECOND
    return f"{micros}|{record.id}"


def match_after(cursor: str | None) -> tuple[datetime, str] | None:
    """The (created_at, id) a matches cursor stands for; 400 `invalid-cursor` if it is not one."""
    if cursor is None:
        return None
    if not _MATCHES.fullmatch(cursor):
        raise _invalid(cursor)
    micros, _, match_id = cursor.partition("|")
    return EPOCH + int(micros) * MICROSECOND, match_id


def leaderboard_cursor(rank: float, player: str) -> str:
    """The cursor of the leaderboard page after the entry (`rank`, `player`)."""
    return f"{rank!r}|{player}"


def leaderboard_after(cursor: str | None) -> tuple[float, str] | None:
    """The (rank, player) a leaderboard cursor stands for; 400 `invalid-cursor` if it is not one."""
    if cursor is None:
        return None
    if not _LEADERBOARD.fullmatch(cursor):
        raise _invalid(cursor)
    rank, _, player = cursor.partition("|")
    return float(rank), player


def tournament_cursor(created_at: str, tournament_id: str) -> str:
    """The cursor of the tournaments page after this one."""
    return f"{created_at}|{tournament_id}"


def tournament_after(cursor: str | None) -> tuple[str, str] | None:
    """The (created_at, id) a tournaments cursor stands for; 400 `invalid-cursor` if it is not one."""
    if cursor is None:
        return None
    if not _TOURNAMENTS.fullmatch(cursor):
        raise _invalid(cursor)
    created_at, _, tournament_id = cursor.partition("|")
    return created_at, tournament_id
