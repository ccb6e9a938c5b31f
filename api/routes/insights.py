"""Insights: a metric of the finished matches' fact rows, grouped by one or two dimensions, with n and an interval."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from litestar import Controller, get
from litestar.params import FromPath, FromQuery, Parameter

from api.deps import Stats
from api.problem_codes import problem_responses
from api.problems import ApiError
from api.routes.stats import MinPosition, known_game
from domain.catalog import GAMES
from projections import insights, ratings
from service.reads.insights import SMALL, Group, Insights
from service.reads.statistics import UnknownPlayer
from store.replica import ReadStore

Metric = Literal["win_rate", "mean_rank", "mean_score", "length_moves", "length_seconds"]
Dimension = Literal["seat", "seats", "edition", "month", "opening", "bot", "rating_band"]
Filter = Annotated[str | None, Parameter(min_length=1, max_length=64)]
ABOUT = (
    "Each row: the group's dimension values, `n` (fact rows, one per seat of a finished match; for a length, "
    "matches), `value`, and its 95 % interval `low`..`high` (Wilson for `win_rate`, Student's t for a mean; null "
    f"for a single value); `small` marks a group of fewer than {SMALL}. `win_rate` counts wins (a draw is not one; a "
    "cooperative game's seats share the team's result). Dimensions: `seat`, `seats` (how many), `edition`, "
    "`month` (YYYY-MM the match ended), `opening` (the seat's first decision, named by the game's event it "
    "produced), `bot` (the policy, or `human`), `rating_band` (the seat's rating before the match, bands of 5 "
    "ordinal points, or `unrated`). Only public matches of a server seed played to a result count, as in the "
    "statistics; anyone can recompute every row from `GET /v1/exports/matches`.")


class InsightAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """A metric grouped by one or two dimensions, over the games (or one player's matches) asked for."""

    metric: Metric
    by: list[Dimension]
    game: str | None = None
    player: str | None = None
    position: int
    rows: list[Group]


def grouping(by: list[Dimension]) -> list[Dimension]:
    """One or two distinct dimensions, or 422 `bad-grouping`."""
    if not 1 <= len(by) <= 2 or len(set(by)) != len(by):
        raise ApiError(422, "bad-grouping", "group by one or two different dimensions (`by=seat&by=month`)")
    return by


def filters(seat: str | None, seats: str | None, edition: str | None, month: str | None, opening: str | None,
            bot: str | None, rating_band: str | None) -> dict[str, str]:
    """The dimension filters given."""
    given = {"seat": seat, "seats": seats, "edition": edition, "month": month, "opening": opening, "bot": bot,
             "rating_band": rating_band}
    return {name: value for name, value in given.items() if value is not None}


By = Annotated[list[Dimension], Parameter(description="One or two dimensions to group by (repeat `by`)",
                                          min_items=1, max_items=2)]


class RatingPoint(msgspec.Struct, frozen=True):
    """The player's conservative rating (`ordinal`, mu - 3 sigma) after the match that ended at log `position`."""

    position: int
    ordinal: float


class GameRating(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating in one game now, and its history (the last 200 rated matches, oldest first)."""

    game: str
    ordinal: float
    mu: float
    sigma: float
    matches: int
    history: list[RatingPoint]


class PlayerRatings(msgspec.Struct, frozen=True, kw_only=True):
    """A player's ratings, one per game rated in; `position`: the log position the ratings are folded up to."""

    player: str
    position: int
    games: list[GameRating]


def rated_games(store: ReadStore, player: str) -> list[GameRating]:
    """The player's rating in each game rated in, with its history: what GET /v1/players/{player}/ratings answers
    and the player's page draws."""
    games = []
    for game in GAMES:
        found = store.docs(ratings.NAME, ratings.RATING, key=ratings.rating_key(game.slug, player), limit=1)
        if found:
            doc = found[0].doc
            games.append(GameRating(game=game.slug, ordinal=doc["ordinal"], mu=doc["mu"], sigma=doc["sigma"],
                                    matches=doc["matches"], history=[RatingPoint(position=p, ordinal=o)
                                                                     for p, o in doc.get("history", [])]))
    return games


class InsightsController(Controller):
    """Questions of one's own over every finished match."""

    tags = ["open data"]

    @get("/v1/games/{game:str}/insights", summary="A game's insights", operation_id="getGameInsights",
         sync_to_thread=True, description=ABOUT,
         responses=problem_responses("unknown-game", "bad-grouping", "not-yet"))
    def game_insights(self, game: FromPath[str], stats: Stats, metric: FromQuery[Metric], by: By,
                      player: Filter = None, seat: Filter = None, seats: Filter = None, edition: Filter = None,
                      month: Filter = None, opening: Filter = None, bot: Filter = None, rating_band: Filter = None,
                      min_position: MinPosition = None) -> InsightAnswer:
        """A metric of a game's finished matches, grouped by one or two dimensions and filtered by any of them (and
        a player)."""
        known_game(game)
        grouped = grouping(by)
        read, position = stats.fresh(insights.NAME, min_position)
        rows = Insights(read.store).answer([game], metric, list(grouped), filters(
            seat, seats, edition, month, opening, bot, rating_band), player)
        return InsightAnswer(metric=metric, by=grouped, game=game, player=player, position=position, rows=rows)

    @get("/v1/players/{player:str}/insights", summary="A player's insights", operation_id="getPlayerInsights",
         sync_to_thread=True, description=ABOUT, responses=problem_responses("unknown-game", "bad-grouping", "not-yet"))
    def player_insights(self, player: FromPath[str], stats: Stats, metric: FromQuery[Metric], by: By,
                        game: Filter = None, seat: Filter = None, seats: Filter = None, edition: Filter = None,
                        month: Filter = None, opening: Filter = None, bot: Filter = None, rating_band: Filter = None,
                        min_position: MinPosition = None) -> InsightAnswer:
        """The same over one player's seats, in one game or every game."""
        games = [known_game(game).slug] if game is not None else [g.slug for g in GAMES]
        grouped = grouping(by)
        read, position = stats.fresh(insights.NAME, min_position)
        rows = Insights(read.store).answer(games, metric, list(grouped), filters(
            seat, seats, edition, month, opening, bot, rating_band), player)
        return InsightAnswer(metric=metric, by=grouped, game=game, player=player, position=position, rows=rows)

    @get("/v1/players/{player:str}/ratings", summary="A player's rating history", operation_id="getPlayerRatings",
         sync_to_thread=True, responses=problem_responses("unknown-player", "not-yet"))
    def player_ratings(self, player: FromPath[str], stats: Stats, min_position: MinPosition = None) -> PlayerRatings:
        """Per game the player is rated in: the rating now and after each of the last 200 rated matches (public
        matches of a server seed, competitive, two seats or more), what the player's page draws."""
        read, position = stats.fresh(ratings.NAME, min_position)
        games = rated_games(read.store, player)
        if not games:
            raise UnknownPlayer(player)
        return PlayerRatings(player=player, position=position, games=games)
