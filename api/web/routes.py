"""The web pages: HTML shells and scripts from files in the package, and the table of a match drawn as SVG.

Every page reads what it shows from the /v1 API (as the viewer may see it), or from the table picture here, which
is drawn from the same redacted view /v1 answers with. Pages are static files: nothing a user typed or named is
ever written into their markup by the server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, FromQuery, Parameter
from litestar.response import File, Redirect
from litestar.static_files import create_static_files_router

from api.auth import seat_of
from api.deps import Auditor, Service, Stats
from api.routes.audit import MatchId, Version
from api.routes.insights import Dimension, Metric, rated_games
from api.routes.stats import known_game, win_rates
from api.web import charts
from api.web.draw import drawing
from api.web.svg import Moment, not_set_up
from domain import bots, match
from projections import game_stats, insights, player_stats, ratings
from service.reads.insights import Insights

Layout = Annotated[Literal["wide", "narrow"], Parameter(description="`narrow`: one column for a phone")]
STATIC = Path(__file__).parent / "static"
SVG = "image/svg+xml"
METRIC_TITLES = {"win_rate": "Win rate", "mean_rank": "Mean rank", "mean_score": "Mean score",
                 "length_moves": "Match length (moves)", "length_seconds": "Match length (seconds)"}
# Defence in depth: scripts and styles only from this origin, no inline script, no plug-ins, no framing.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
# A table picture can show a seat's hand: never kept in a shared or disk cache.
PRIVATE_HEADERS = {"Cache-Control": "no-store", "Vary": "Authorization", "X-Content-Type-Options": "nosniff"}
# Scripts and styles ship in the package: the pages work with no internet and fetch nothing from a CDN.
WEB_ASSETS = create_static_files_router(path="/web/static", directories=[STATIC], include_in_schema=False,
                                        name="web-static")


def page(name: str) -> File:
    """One of the HTML pages, as it is in the package."""
    return File(STATIC / name, media_type="text/html; charset=utf-8", content_disposition_type="inline",
                headers=PAGE_HEADERS)


@get("/", include_in_schema=False, sync_to_thread=False)
def home() -> Redirect:
    """People arriving at the root go to the match browser."""
    return Redirect("/web/")


@get("/favicon.ico", include_in_schema=False, sync_to_thread=False)
def favicon() -> File:
    """The site's icon (an SVG, which browsers take under this name too)."""
    return File(STATIC / "favicon.svg", media_type=SVG, content_disposition_type="inline",
                headers={"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"})


class WebController(Controller):
    """Pages for people: the match browser, a match, a game's and a player's statistics."""

    path = "/web"
    include_in_schema = False

    @get("/", sync_to_thread=False)
    def browser(self) -> File:
        """Recent matches, filtered by game, player and status."""
        return page("browser.html")

    @get("/matches/{match_id:str}", sync_to_thread=False)
    def match(self, match_id: MatchId) -> File:
        """A match: its table at any version, its log, its players and its audit."""
        return page("match.html")

    @get("/games/{game:str}", sync_to_thread=False)
    def game(self, game: FromPath[str]) -> File:
        """A game's statistics as pictures."""
        return page("game.html")

    @get("/players/{player:str}", sync_to_thread=False)
    def player(self, player: FromPath[str]) -> File:
        """A player's statistics as pictures."""
        return page("player.html")

    @get("/tournaments", sync_to_thread=False)
    def tournaments(self) -> File:
        """The public tournaments."""
        return page("tournaments.html")

    @get("/tournaments/{tournament_id:str}", sync_to_thread=False)
    def tournament(self, tournament_id: FromPath[str]) -> File:
        """A tournament: standings, rounds and their matches, live while it is played."""
        return page("tournament.html")

    @get("/matches/{match_id:str}/table.svg", sync_to_thread=True)
    def table(self, request: Request[Any, Any, Any], match_id: MatchId, auditor: Auditor, service: Service,
              version: Version = None, layout: Layout = "wide") -> Response[str]:
        """The table after event `version` drawn as the caller may see it (seat token: that seat; else a spectator;
        at the end: every hand, all public then), `narrow` laid out for a phone."""
        seat = seat_of(request, auditor.match(match_id), service.app_name)
        moment = auditor.state_at(match_id, version)
        title = f"{moment.record.game} match at version {moment.state.version}"
        if not moment.set_up:
            body = not_set_up(title)
        else:
            state = moment.state
            view = msgspec.to_builtins(moment.game.view(state.game_state, seat))
            ended = state.ended.reason if state.ended is not None else None
            public = (tuple(msgspec.to_builtins(moment.game.view(state.game_state, s))
                            for s in range(len(state.players))) if state.finished else ())
            # A bot's seat by its level's title, as the page's other parts and the API's `text` name it.
            told = Moment(names=bots.shown_names(moment.game, state.players),
                          to_move=tuple(match.to_move(moment.game, state)), version=state.version,
                          ended=ended, seat_views=public, narrow=layout == "narrow")
            body = drawing(moment.record.game)(view, told)
        return Response(body, media_type=SVG, headers={**PRIVATE_HEADERS, "X-Turnstile-Version":
                                                       str(moment.state.version)})

    @get("/games/{game:str}/charts/{chart:str}", sync_to_thread=True)
    def game_chart(self, game: FromPath[str], chart: FromPath[str], stats: Stats) -> Response[str]:
        """One of a game's charts: `win-rate.svg` by seat, match `lengths.svg`, `cooperative.svg` results."""
        known_game(game)
        position = stats.position(game_stats.NAME, None)
        doc = stats.game_stats(game)
        if chart == "win-rate.svg":
            rates = sorted(win_rates(doc).items(), key=lambda item: int(item[0]))
            # A cooperative game's seats win or lose together: no seat position wins alone.
            empty = ("a cooperative game: the seats win or lose together" if doc["cooperative_played"]
                     else "no finished match yet")
            body = charts.bars("Win rate by seat position", position, [(f"seat {s}", r) for s, r in rates], unit="%",
                               seats=True, empty=empty)
        elif chart == "lengths.svg":
            lengths = {int(moves): n for moves, n in doc.get("lengths", {}).items()}
            body = charts.bars("Match length: matches per range of moves", position,
                               [(label, n) for label, _, _, n in charts.binned(lengths)], axis="moves per match")
        elif chart == "cooperative.svg":
            won, played = doc["cooperative_won"], doc["cooperative_played"]
            body = charts.bars(f"Cooperative results ({played} played)", position,
                               [("won", won / played), ("lost", 1 - won / played)] if played else [], unit="%")
        else:
            raise NotFoundException(f"no chart {chart!r}")
        return Response(body, media_type=SVG, headers={"X-Content-Type-Options": "nosniff"})

    @get("/games/{game:str}/insights.svg", sync_to_thread=True)
    def insights_chart(self, game: FromPath[str], stats: Stats, metric: FromQuery[Metric],
                       by: FromQuery[Dimension]) -> Response[str]:
        """A metric of a game's finished matches grouped by one dimension, a bar per group: the rows of
        GET /v1/games/{game}/insights?metric=…&by=… (the statistics page shows them as a table, too)."""
        known_game(game)
        position = stats.position(insights.NAME, None)
        rows = Insights(stats.store).answer([game], metric, [by], {})
        body = charts.bars(f"{METRIC_TITLES[metric]} by {by.replace('_', ' ')}", position,
                           [(row.group[by], row.value) for row in rows], unit="%" if metric == "win_rate" else "",
                           axis=by.replace("_", " "))
        return Response(body, media_type=SVG, headers={"X-Content-Type-Options": "nosniff"})

    @get("/players/{player:str}/ratings.svg", sync_to_thread=True)
    def rating_chart(self, player: FromPath[str], stats: Stats) -> Response[str]:
        """A player's rating (mu - 3 sigma) after each rated match, one line per game: the history
        GET /v1/players/{player}/ratings answers."""
        position = min(stats.position(ratings.NAME, None), stats.position(player_stats.NAME, None))
        stats.player_games(player)  # UnknownPlayer (404) for a handle never seen; a known one may be unrated
        series = [(rated.game, [(point.position, point.ordinal) for point in rated.history])
                  for rated in rated_games(stats.store, player)]
        body = charts.lines("Rating history (mu - 3 sigma)", position, series)
        return Response(body, media_type=SVG, headers={"X-Content-Type-Options": "nosniff"})
