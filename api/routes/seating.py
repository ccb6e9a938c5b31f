"""Who sits at a match: join an open seat, call off a match that never started, ask for a rematch."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, post
from litestar.datastructures import ResponseHeader
from litestar.params import JSONBody

from api import convert
from api.auth import require_app
from api.body import MAX_BODY_BYTES
from api.deps import Service
from api.problem_codes import problem_responses
from api.problems import ApiError
from api.routes.matches import APP_KEY, READ_MATCH, MatchId, created_response
from api.schemas import CreatedMatch, JoinedSeat, JoinRequest, MatchDetail
from domain import match
from domain.engine import Refusal
from service import seating
from service.matches import status_of


class SeatingController(Controller):
    """Open seats, calling off and rematches."""

    path = "/v1/matches"
    tags = ["matches"]

    @post("/{match_id:str}/join", summary="Take an open seat", operation_id="joinMatch", status_code=201,
          sync_to_thread=True, request_max_body_size=MAX_BODY_BYTES, opt={"private": True},
          responses=problem_responses("unknown-match", "record-corrupt", "wrong-join-code", "seat-taken",
                                      "request-too-large", "unsupported-media-type"))
    def join(self, match_id: MatchId, data: JSONBody[JoinRequest], service: Service) -> JoinedSeat:
        """Claim the open seat of a join code for a player; the answer holds the seat's token, shown only here.

        The join that fills the last open seat starts the match (its set-up, and the first to move). Two claims of
        one seat at once: exactly one wins, the other is answered 409 `seat-taken`.
        """
        joined = seating.join(service, match_id, data.code, data.player)
        after = joined.played.after
        return JoinedSeat(seat=joined.seat, player=data.player, token=joined.token, version=after.state.version,
                          status=status_of(after.state),  # type: ignore[arg-type]
                          to_move=match.to_move(after.game, after.state))

    @post("/{match_id:str}/cancel", summary="Call off a match that has not started", operation_id="cancelMatch",
          status_code=200, sync_to_thread=True, security=APP_KEY,
          responses=problem_responses(*READ_MATCH, "app-key-required", "unknown-app-key", "not-your-match",
                                      "match-started"))
    def cancel(self, request: Request[Any, Any, Any], match_id: MatchId, service: Service) -> MatchDetail:
        """The creating app calls off an `open` match (it ends, reason `cancelled`, and is never counted)."""
        app = require_app(request, service.app_name)
        try:
            played = seating.cancel(service, match_id, app)
        except Refusal as refusal:
            raise ApiError(409, "match-started", refusal.message) from None
        return convert.detail(played.after, None, False)

    @post("/{match_id:str}/rematch", summary="Ask for a rematch", operation_id="rematchMatch", status_code=201,
          sync_to_thread=True, security=APP_KEY, responses=problem_responses(
              *READ_MATCH, "app-key-required", "unknown-app-key", "not-your-match", "match-not-finished",
              "rematch-exists"),
          response_headers=[ResponseHeader(name="Location", description="The new match", documentation_only=True)])
    def rematch(self, request: Request[Any, Any, Any], match_id: MatchId, service: Service) -> Response[CreatedMatch]:
        """A new match of the same game, players (seats rotated by one) and options, linked from both; once.

        Only the creating app asks, and gets every seat's new token, as at creation."""
        app = require_app(request, service.app_name)
        try:
            created = seating.rematch(service, match_id, app)
        except Refusal as refusal:
            if refusal.code != "match-not-finished":
                raise
            raise ApiError(409, "match-not-finished", refusal.message) from None
        return created_response(created)
