"""Statistics, ratings, leaderboards and projection status, read from the projections' documents."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, get
from litestar.params import FromPath, Parameter

from api import cursors
from api.deps import Stats
from api.problem_codes import problem_responses
from api.stats_schemas import (
    EditionStats,
    GameStats,
    Leaderboard,
    LeaderboardEntry,
    Player,
    PlayerGameStats,
    PlayerStats,
    ProjectionList,
    ProjectionStatus,
)
from domain.catalog import UnknownGame, by_slug
from domain.engine import Game
from projections import game_stats, player_stats, ratings

MinPosition = Annotated[int | None, Parameter(le=2**53 - 1,
                                              description="Answer only with data folded at least this far "
                                                          "(e.g. the position a move returned)")]

# What anyone may learn from GET /v1/projections (said in the OpenAPI document).
PROJECTIONS_SHOW = (
    "Each projection's position, its lag behind the head of the global log, and the error it stopped on. Public: "
    "the head and the positions count every event of every match, private and unlisted ones included, so a reader "
    "can tell that (and how much) the log moved between two reads, never which match moved nor what was played. "
    "A `position` is what `min_position` of the statistics reads waits for.")


def known_game(game: str) -> Game[Any]:
    """The game of the catalog (at its current edition); 404 for a game it does not have."""
    found = by_slug(game)
    if found is None:
        raise UnknownGame(game)
    return found


def entry(doc: dict[str, Any]) -> LeaderboardEntry:
    """A rating document as a leaderboard entry."""
    return LeaderboardEntry(player=doc["player"], ordinal=doc["ordinal"], mu=doc["mu"], sigma=doc["sigma"],
                            matches=doc["matches"])


def win_rates(doc: dict[str, Any]) -> dict[str, float]:
    """Wins per seat position over the competitive matches with more than one seat."""
    by_seats = doc["finished_by_seats"]
    competitive = sum(n for seats, n in by_seats.items() if int(seats) > 1) - doc["cooperative_played"]
    return {seat: wins / competitive for seat, wins in doc["wins_by_seat"].items()} if competitive else {}


def edition_stats(doc: dict[str, Any]) -> EditionStats:
    """The statistics of a game's document (all its editions) or of one edition's part of it."""
    return EditionStats(started=doc["started"], finished=doc["finished"], win_rate_by_seat=win_rates(doc),
                        scores=doc["scores"], moves_mean=doc.get("moves_mean"), moves_min=doc["moves_min"],
                        moves_max=doc["moves_max"], end_reasons=doc["end_reasons"],
                        cooperative_played=doc["cooperative_played"],
                        cooperative_win_rate=doc.get("cooperative_win_rate"), solo_scores=doc["solo_scores"])


class StatsController(Controller):
    """Read models folded from the global log by the workers."""

    tags = ["statistics"]

    @get("/v1/leaderboards/{game:str}", summary="A game's leaderboard", operation_id="getLeaderboard",
         sync_to_thread=True,
         responses=problem_responses("unknown-game", "invalid-cursor", "not-yet"))
    def leaderboard(
        self,
        game: FromPath[str],
        stats: Stats,
        min_matches: Annotated[int, Parameter(ge=0, le=10_000)] = 1,
        cursor: Annotated[str | None, Parameter(
            description="A `next_cursor`: `<ordinal>|<player>`, the place on the board to go on after; any value of "
                        "this pattern is one, other values are 400 `invalid-cursor`",
            schema_extra={"pattern": cursors.LEADERBOARD_PATTERN})] = None,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
        min_position: MinPosition = None,
    ) -> Leaderboard:
        """Players by conservative rating (mu - 3 sigma), best first, with at least `min_matches` rated matches."""
        known_game(game)
        after = cursors.leaderboard_after(cursor)
        stats, position = stats.fresh(ratings.NAME, min_position)
        rows = stats.leaderboard(game, min_matches, after, limit + 1)
        page = rows[:limit]
        next_cursor = cursors.leaderboard_cursor(page[-1].rank, page[-1].doc["player"]) if len(rows) > limit else None
        editions = [edition.rules_version for edition in known_game(game).editions]
        return Leaderboard(game=game, min_matches=min_matches, position=position,
                           items=[entry(r.doc) for r in page], next_cursor=next_cursor, editions=editions)

    @get("/v1/players/{player:str}", summary="A player", operation_id="getPlayer", sync_to_thread=True,
         responses=problem_responses("unknown-player", "not-yet"))
    def player(self, player: FromPath[str], stats: Stats, min_position: MinPosition = None) -> Player:
        """Which games a player has finished matches of, and how many. A handle names its player whatever its case
        ("Ada" is "ada"); `player` is the spelling first seen."""
        stats, position = stats.fresh(player_stats.NAME, min_position)
        name, games = stats.player_games(player)
        return Player(player=name, position=position, games=games)

    @get("/v1/players/{player:str}/stats", summary="A player's statistics", operation_id="getPlayerStats",
         sync_to_thread=True,
         responses=problem_responses("unknown-player", "not-yet"))
    def player_stats(self, player: FromPath[str], stats: Stats, min_position: MinPosition = None) -> PlayerStats:
        """Per game: played, won, lost, drawn, scores, placement, streaks and rating, whatever the handle's case
        (`player`: the spelling first seen)."""
        stats, position = stats.fresh(player_stats.NAME, min_position)
        name, _ = stats.player_games(player)
        games = [PlayerGameStats(
            game=doc["game"], played=doc["played"], won=doc["won"], lost=doc["lost"], drawn=doc["drawn"],
            mean_score=doc.get("mean_score"), best_score=doc["best_score"], mean_placement=doc.get("mean_placement"),
            current_win_streak=doc["current_win_streak"], longest_win_streak=doc["longest_win_streak"],
            rating=None if rated is None else entry(rated)) for doc, rated in stats.player_stats(player)]
        return PlayerStats(player=name, position=position, games=games)

    @get("/v1/games/{game:str}/stats", summary="A game's statistics", operation_id="getGameStats", sync_to_thread=True,
         responses=problem_responses("unknown-game", "not-yet"))
    def game_stats(self, game: FromPath[str], stats: Stats, min_position: MinPosition = None) -> GameStats:
        """Win rate by seat, score distribution, match length, end reasons, cooperative and solo results."""
        known_game(game)
        stats, position = stats.fresh(game_stats.NAME, min_position)
        doc = stats.game_stats(game)
        whole = edition_stats(doc)
        editions = {edition: edition_stats(part) for edition, part in sorted(doc.get("editions", {}).items())}
        return GameStats(game=game, position=position, **msgspec.structs.asdict(whole), editions=editions)

    @get("/v1/projections", summary="Projection status", operation_id="getProjections",
         sync_to_thread=True, responses=problem_responses(), description=PROJECTIONS_SHOW)
    def projections(self, stats: Stats) -> ProjectionList:
        """Each projection's position, lag behind the head of the log, and the error it stopped on."""
        head, states = stats.projections()
        items = [ProjectionStatus(name=p.name, version=p.version, position=c.position if c else 0, lag=p.lag,
                                  error=c.error if c else None, error_position=c.error_position if c else None,
                                  updated_at=c.updated_at if c else "")
                 for p in states for c in [p.checkpoint]]
        return ProjectionList(head=head, items=items)
