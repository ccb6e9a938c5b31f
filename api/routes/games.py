"""GET /v1/games: the catalog."""

from __future__ import annotations

from litestar import Controller, get
from litestar.params import FromPath

from api.convert import game_info
from api.deps import Stats
from api.problem_codes import problem_responses
from api.problems import ApiError
from api.schemas import GameInfo, GameList
from domain import bots
from domain.catalog import GAMES, by_slug


class GamesController(Controller):
    """The games this service referees."""

    path = "/v1/games"
    tags = ["games"]

    @get("/", summary="List the games", operation_id="listGames", sync_to_thread=False, responses=problem_responses())
    def list_games(self) -> GameList:
        """Every registered game, with its seats, options and which of its data is DEFAULT."""
        return GameList(items=[game_info(game) for game in GAMES])

    @get("/{game:str}", summary="One game", operation_id="getGame",
         sync_to_thread=True, responses=problem_responses("unknown-game"))
    def get_game(self, game: FromPath[str], stats: Stats) -> GameInfo:
        """One game of the catalog, with each bot level's current rating (from the ratings projection)."""
        found = by_slug(game)
        if found is None:
            raise ApiError(404, "unknown-game", f"no game is called {game!r}")
        return game_info(found, stats.ratings_of(found.slug, [bots.player(name) for name in bots.names(found)]))
