"""Response messages of statistics, ratings, leaderboards and projection status."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec


class LeaderboardEntry(msgspec.Struct, frozen=True):
    """A rated player: `ordinal` (mu - 3 sigma) is the conservative rating the board is ordered by."""

    player: str
    ordinal: float
    mu: float
    sigma: float
    matches: int
    gained: Annotated[float | None, msgspec.Meta(
        description="On a board by period, seat count or edition: the rating (ordinal) gained in the matches it "
                    "counts, which orders it; `matches` and `wins` count those matches")] = None
    wins: int | None = None


class Leaderboard(msgspec.Struct, frozen=True):
    """One page of a game's leaderboard; `position` is the global log position it is computed up to."""

    game: str
    min_matches: int
    position: int
    items: list[LeaderboardEntry]
    next_cursor: str | None
    editions: Annotated[list[str], msgspec.Meta(
        description="The rules editions whose matches the ratings count: every edition of the game (a rating is "
                    "the player's strength at the game, whichever edition they played); GET /v1/games/{game}/stats "
                    "splits the statistics by edition")] = []
    period: Literal["week", "month", "all"] = "all"
    since: Annotated[str | None, msgspec.Meta(
        description="The first instant the period counts (UTC); null for `all`")] = None
    seats: int | None = None
    edition: str | None = None


class PlayerGameStats(msgspec.Struct, frozen=True):
    """A player's record in one game."""

    game: str
    played: int
    won: int
    lost: int
    drawn: int
    mean_score: float | None
    best_score: float | None
    mean_placement: float | None
    current_win_streak: int
    longest_win_streak: int
    rating: LeaderboardEntry | None


class PlayerStats(msgspec.Struct, frozen=True):
    """A player's statistics in every game they finished."""

    player: str
    position: int
    games: list[PlayerGameStats]


class Player(msgspec.Struct, frozen=True):
    """A player: how many matches of each game they finished."""

    player: str
    position: int
    games: dict[str, int]


class EditionStats(msgspec.Struct, frozen=True, kw_only=True):
    """Statistics of a game's matches: of all of them (GameStats), or of those of one rules edition."""

    started: int
    finished: int
    win_rate_by_seat: dict[str, float]
    scores: dict[str, int]
    moves_mean: float | None
    moves_min: int | None
    moves_max: int | None
    end_reasons: Annotated[dict[str, int], msgspec.Meta(
        description="Finished matches by the code of their end reason (e.g. `team-lost`; a match's own `outcome."
                    "reason` may add a detail after a colon)")]
    cooperative_played: int
    cooperative_win_rate: float | None
    solo_scores: dict[str, int]


class GameStats(EditionStats, frozen=True, kw_only=True):
    """Statistics of one game over every match folded so far, of every rules edition; `editions` splits them by the
    edition the matches were played under."""

    game: str
    position: int
    editions: dict[str, EditionStats] = {}


class ProjectionStatus(msgspec.Struct, frozen=True):
    """How far one projection has folded the log, its lag, and the error it stopped on, if any."""

    name: str
    version: int
    position: int
    lag: int
    error: str | None
    error_position: int | None
    updated_at: str


class ProjectionList(msgspec.Struct, frozen=True):
    """Every projection and the head of the global log."""

    # The position of the newest event of any match (private ones too): it moves with every append.
    head: int
    items: list[ProjectionStatus]
