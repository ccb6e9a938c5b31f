"""GET /v1/games: the catalog."""

from __future__ import annotations

from litestar import Controller, get
from litestar.params import FromPath

from api.convert import game_info
from api.problems import ApiError, problem_responses
from api.schemas import GameInfo, GameList
from domain.catalog import GAMES, by_slug


class GamesController(Controller):
    """The games this service referees."""

    path = "/v1/games"
    tags = ["games"]

    @get("/", summary="List the games", sync_to_thread=False)
    def list_games(self) -> GameList:
        """Every registered game, with its seats, options and which of its data is DEFAULT."""
        return GameList(items=[game_info(game) for game in GAMES])

    @get("/{game:str}", summary="One game", sync_to_thread=False, responses=problem_responses(404))
    def get_game(self, game: FromPath[str]) -> GameInfo:
        """One game of the catalog."""
        found = by_slug(game)
        if found is None:
            raise ApiError(404, "unknown-game", f"no game is called {game!r}")
        return game_info(found)
