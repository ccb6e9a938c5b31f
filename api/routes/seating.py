"""Who sits at a match: join an open seat, add a seat's entropy for the deal, call off a match that never started,
ask for a rematch."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, post
from litestar.datastructures import ResponseHeader
from litestar.params import JSONBody

from api import convert
from api.auth import require_app, require_seat
from api.body import MAX_BODY_BYTES
from api.deps import Service
from api.problem_codes import RULES, problem_responses
from api.problems import ApiError
from api.routes.matches import APP_KEY, READ_MATCH, SEAT_TOKEN, MatchId, created_response
from api.schemas import CreatedMatch, EntropyAnswer, EntropyRequest, JoinedSeat, JoinRequest, MatchDetail
from domain import match
from domain.engine import Refusal
from service.matches import seating
from service.matches.model import status_of

# A seat's entropy refused for the state of the match (not for its rules): 409, with the refusal's own code.
ENTROPY_CONFLICTS = ("entropy-already-added", "entropy-closed", "no-seat-entropy")


class SeatingController(Controller):
    """Open seats, calling off and rematches."""

    path = "/v1/matches"
    tags = ["matches"]

    @post("/{match_id:str}/join", summary="Take an open seat", operation_id="joinMatch", status_code=201,
          sync_to_thread=True, request_max_body_size=MAX_BODY_BYTES, opt={"private": True},
          responses=problem_responses("unknown-match", "record-corrupt", "wrong-join-code", "seat-taken",
                                      "request-too-large", "unsupported-media-type", *ENTROPY_CONFLICTS))
    def join(self, match_id: MatchId, data: JSONBody[JoinRequest], service: Service) -> JoinedSeat:
        """Claim the open seat of a join code for a player; the answer holds the seat's token, shown only here.

        The join that fills the last open seat starts the match (its set-up, and the first to move; with option
        `entropy: "seats"`, the deal waits for the seats' entropy: `entropy` here adds this seat's right after the
        join). Two claims of one seat at once: exactly one wins, the other is answered 409 `seat-taken`.
        """
        try:
            joined = seating.join(service, match_id, data.code, data.player, data.entropy)
        except Refusal as refusal:
            if refusal.code not in ENTROPY_CONFLICTS:
                raise
            raise ApiError(409, refusal.code, refusal.message) from None
        after = joined.played.after
        return JoinedSeat(seat=joined.seat, player=data.player, token=joined.token, version=after.state.version,
                          status=status_of(after.state),  # type: ignore[arg-type]
                          to_move=match.to_move(after.game, after.state))

    @post("/{match_id:str}/entropy", summary="Add a seat's entropy for the deal", operation_id="addEntropy",
          status_code=201, sync_to_thread=True, request_max_body_size=MAX_BODY_BYTES, security=SEAT_TOKEN,
          responses=problem_responses(*READ_MATCH, "seat-token-required", "request-too-large",
                                      "unsupported-media-type", *ENTROPY_CONFLICTS, RULES))
    def add_entropy(self, request: Request[Any, Any, Any], match_id: MatchId, data: JSONBody[EntropyRequest],
                    service: Service) -> EntropyAnswer:
        """The caller's seat adds its entropy to a `dealing` match (option `entropy: "seats"`), once (409
        `entropy-already-added` the second time). It is recorded as `match.entropy-added`, public at once. When every
        seat's entropy is in, the match is dealt at once (`active` in the answer); seats still silent when
        `entropy_deadline` runs out are recorded absent and the deal goes ahead without them. A retry after a lost
        answer is 409 `entropy-already-added` when the first was recorded: the match's `entropy` shows it.
        """
        loaded = service.cached(match_id)
        seat = require_seat(request, loaded.record, service.app_name)
        try:
            played = seating.add_entropy(service, match_id, seat, data.entropy)
        except Refusal as refusal:
            if refusal.code not in ENTROPY_CONFLICTS:
                raise
            raise ApiError(409, refusal.code, refusal.message) from None
        after = played.after
        return EntropyAnswer(seat=seat, version=after.state.version, status=status_of(after.state),  # type: ignore[arg-type]
                             to_move=match.to_move(after.game, after.state), entropy=list(after.state.seat_entropy))

    @post("/{match_id:str}/cancel", summary="Call off a match that has not started", operation_id="cancelMatch",
          status_code=200, sync_to_thread=True, security=APP_KEY,
          responses=problem_responses(*READ_MATCH, "app-key-required", "unknown-app-key", "not-your-match",
                                      "match-started"))
    def cancel(self, request: Request[Any, Any, Any], match_id: MatchId, service: Service) -> MatchDetail:
        """The creating app calls off an `open` or `dealing` match (it ends, reason `cancelled`, and is never
        counted; its feed and webhooks tell `match.ended` with that reason, as for every end)."""
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
