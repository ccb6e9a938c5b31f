"""Statistics, ratings, leaderboards and projection status, read from the projections' documents."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, get
from litestar.params import FromPath, Parameter

from api import cursors
from api.deps import Stats
from api.problem_codes import problem_responses
from api.problems import ApiError
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
from projections import game_stats, insights, player_stats, ratings
from service.reads.periods import Scope, period_board, since

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
         responses=problem_responses("unknown-game", "invalid-cursor", "bad-edition", "not-yet"))
    def leaderboard(
        self,
        game: FromPath[str],
        stats: Stats,
        min_matches: Annotated[int, Parameter(ge=0, le=10_000)] = 1,
        cursor: Annotated[str | None, Parameter(
            description="A `next_cursor`: `<ordinal or gain>|<player>`, the place on the board to go on after; any "
                        "value of this pattern is one, other values are 400 `invalid-cursor`",
            schema_extra={"pattern": cursors.LEADERBOARD_PATTERN})] = None,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
        min_position: MinPosition = None,
        period: Annotated[Literal["week", "month", "all"], Parameter(
            description="`week`: matches that ended in the last 7 days, `month`: the last 30 days, `all`: ever"
        )] = "all",
        seats: Annotated[int | None, Parameter(ge=1, le=64, description="Only matches with this many seats")] = None,
        edition: Annotated[str | None, Parameter(min_length=1, max_length=64,
                                                 description="Only matches of this rules edition")] = None,
    ) -> Leaderboard:
        """Players by conservative rating (mu - 3 sigma), best first, with at least `min_matches` rated matches.

        With a `period` other than `all`, or `seats`, or `edition`, the board counts only the rated matches in that
        scope and ranks players by the rating they gained in them: per match, the player's rating after it less
        the one before (a loss counts against), summed (`gained`); ties go by handle. `matches` and `wins` count
        the matches in scope, `ordinal`, `mu` and `sigma` are the rating now, and `min_matches` asks for that many
        matches in scope. A new player gains from the starting rating, so a period board shows who climbed most,
        not who is strongest. Only public matches of a server seed played to a result count, and anyone can
        recompute a board from `GET /v1/exports/matches`."""
        editions = [e.rules_version for e in known_game(game).editions]
        if edition is not None and edition not in editions:
            raise ApiError(422, "bad-edition", f"{game} has no edition {edition[:64]!r} (it has {', '.join(editions)})")
        after = cursors.leaderboard_after(cursor)
        scoped = period != "all" or seats is not None or edition is not None
        read, position = stats.fresh(insights.NAME if scoped else ratings.NAME, min_position)
        if scoped:
            scope = Scope(since=since(period, stats.now()), seats=seats, edition=edition)
            board = [s for s in period_board(read.store, game, scope, min_matches)
                     if after is None or s.order() > (-after[0], after[1])]
            items = [LeaderboardEntry(player=s.player, ordinal=s.ordinal, mu=s.mu, sigma=s.sigma, matches=s.matches,
                                      gained=s.gained, wins=s.wins) for s in board[:limit + 1]]
            ranks = [s.gained for s in board[:limit]]
        else:
            rows = read.leaderboard(game, min_matches, after, limit + 1)
            items, ranks, scope = [entry(r.doc) for r in rows], [r.rank for r in rows[:limit]], Scope()
        page = items[:limit]
        next_cursor = cursors.leaderboard_cursor(ranks[-1], page[-1].player) if len(items) > limit else None
        return Leaderboard(game=game, min_matches=min_matches, position=position, items=page, next_cursor=next_cursor,
                           editions=[edition] if edition else editions, period=period, since=scope.since, seats=seats,
                           edition=edition)

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
