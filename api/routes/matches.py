"""Matches: create, list, read, legal moves, moves and the event log."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.params import FromQuery, HeaderParameter, JSONBody, Parameter

from api import convert, cursors
from api.auth import require_app, require_seat, seat_of
from api.body import MAX_BODY_BYTES
from api.deps import Service
from api.problems import ApiError, problem_responses
from api.schemas import (
    CreatedMatch,
    CreateMatchRequest,
    EventPage,
    LegalMoves,
    MatchDetail,
    MatchPage,
    MoveRequest,
    MoveResult,
    SeatToken,
    Status,
)
from domain import match
from domain.engine import Refusal
from service.matches import LoadedMatch, UnknownGame, VersionMismatch
from store.base import IdempotencyMismatch, MatchNotFound

IdempotencyKey = Annotated[str, HeaderParameter(name="Idempotency-Key", required=False, max_length=200,
                                                  description="Retries with the same key return the first answer")]
IfMatch = Annotated[str, HeaderParameter(name="If-Match", required=False, max_length=40,
                                                pattern=r'^((W/)?"?[0-9]{1,9}"?)?$',
                                                description="The expected version, as the ETag of the match")]
MatchId = Annotated[str, Parameter(description="The match id", max_length=64)]
MAX_VERSION = 2_147_483_647  # versions are 32-bit in the store


def load(service: Service, match_id: str) -> LoadedMatch:
    """The match, or a 404 problem."""
    try:
        return service.load(match_id)
    except MatchNotFound as exc:
        raise ApiError(404, "unknown-match", f"no match has id {match_id!r}") from exc


def expected_from(body: int | None, if_match: str) -> tuple[int | None, int]:
    """The expected version from the body or If-Match, and the status to answer when it is stale."""
    if not if_match:
        return body, 409
    text = if_match.removeprefix("W/").strip('"')  # the header's pattern leaves only digits here
    if body is not None and body != int(text):
        raise ApiError(422, "expected-version-disagrees", "If-Match and expected_version name different versions")
    return int(text), 412


class MatchesController(Controller):
    """Matches and their moves."""

    path = "/v1/matches"
    tags = ["matches"]

    @post("/", summary="Create a match", status_code=201, sync_to_thread=True,
          request_max_body_size=MAX_BODY_BYTES, responses=problem_responses(400, 401, 403, 404, 413, 415, 422),
          response_headers=[ResponseHeader(name="Location", description="The new match", documentation_only=True)])
    def create_match(self, request: Request[Any, Any, Any], data: JSONBody[CreateMatchRequest],
                     service: Service) -> Response[CreatedMatch]:
        """Open a match of a game (app key required). Each seat's token is shown only in this answer."""
        require_app(request, service.store)
        try:
            created = service.create(data.game, [s.player for s in data.seats], data.options, data.seed)
        except UnknownGame as exc:
            raise ApiError(404, "unknown-game", f"no game is called {data.game!r}") from exc
        except Refusal as refusal:
            raise ApiError(422, refusal.code, refusal.message) from refusal
        record = created.record
        body = CreatedMatch(
            id=record.id,
            game=record.game,
            version=record.version,
            seats=[SeatToken(seat=s.seat, player=s.player, token=t) for s, t in zip(record.seats, created.tokens,
                                                                                        strict=True)],
            seed_commitment=record.seed_commitment,
        )
        return Response(body, status_code=201, headers={"Location": f"/v1/matches/{record.id}"})

    @get("/", summary="List matches", sync_to_thread=True, responses=problem_responses(400))
    def list_matches(
        self,
        service: Service,
        game: FromQuery[str | None] = None,
        player: FromQuery[str | None] = None,
        status: FromQuery[Status | None] = None,
        cursor: Annotated[str | None, Parameter(
            description="A `next_cursor`: `<created_at, microseconds since 1970>|<match id>`, the place in the order "
                        "to go on after; any value of this pattern is one, other values are 400 `invalid-cursor`",
            schema_extra={"pattern": cursors.MATCHES_PATTERN})] = None,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
    ) -> MatchPage:
        """Matches, newest first, filtered by game, player or status; follow `next_cursor`."""
        after = cursors.match_after(cursor)
        records = service.store.list_matches(game=game, player=player, status=status, after=after, limit=limit + 1)
        page = records[:limit]
        next_cursor = cursors.match_cursor(page[-1]) if len(records) > limit else None
        return MatchPage(items=[convert.summary(r) for r in page], next_cursor=next_cursor)

    @get("/{match_id:str}", summary="Read a match", sync_to_thread=True,
         responses=problem_responses(400, 401, 403, 404),
         response_headers=[ResponseHeader(name="ETag", description="The version", documentation_only=True)])
    def get_match(self, request: Request[Any, Any, Any], match_id: MatchId,
                  service: Service) -> Response[MatchDetail]:
        """The match and its state as the caller may see it; the ETag is the version."""
        loaded = load(service, match_id)
        seat = seat_of(request, loaded.record)
        last = service.store.read_match(match_id, loaded.record.version, loaded.record.version)
        head_withheld = bool(last) and convert.as_seen(loaded.game, last[0], seat, loaded.state.finished)[1]
        body = convert.detail(loaded, seat, head_withheld)
        return Response(body, headers={"ETag": f'"{body.version}"'})

    @get("/{match_id:str}/legal-moves", summary="Legal moves of the caller's seat", sync_to_thread=True,
         responses=problem_responses(400, 401, 403, 404))
    def legal_moves(self, request: Request[Any, Any, Any], match_id: MatchId, service: Service) -> LegalMoves:
        """Every move the caller's seat may send now (empty when it is not to move)."""
        loaded = load(service, match_id)
        seat = require_seat(request, loaded.record)
        moves = match.legal(loaded.game, loaded.state, seat)
        return LegalMoves(version=loaded.state.version, seat=seat, moves=moves)

    @post("/{match_id:str}/moves", summary="Play a move", status_code=201, sync_to_thread=True,
          request_max_body_size=MAX_BODY_BYTES,
          responses=problem_responses(400, 401, 403, 404, 409, 412, 413, 415, 422))
    def play_move(
        self,
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: JSONBody[MoveRequest],
        service: Service,
        idempotency_key: IdempotencyKey = "",  # headers are never null: "" is "not sent"
        if_match: IfMatch = "",
    ) -> MoveResult:
        """Play one move for the caller's seat. Optimistic concurrency by expected version or If-Match."""
        loaded = load(service, match_id)
        seat = require_seat(request, loaded.record)
        expected, stale_status = expected_from(data.expected_version, if_match)
        command_id = f"key:{seat}:{idempotency_key}" if idempotency_key else None
        try:
            result = service.play(match_id, seat, data.move, expected_version=expected, command_id=command_id)
        except Refusal as refusal:
            raise ApiError(422, refusal.code, refusal.message) from refusal
        except VersionMismatch as stale:
            raise ApiError(stale_status, "version-conflict", str(stale), current_version=stale.actual) from stale
        except IdempotencyMismatch as exc:
            raise ApiError(422, "idempotency-key-reused", str(exc)) from exc
        first = result.events[0].version
        before = service.store.read_match(match_id, first - 1, first - 1) if first > 1 else []
        finished = any(e.type == "match.ended" for e in result.events)
        withheld = bool(before) and convert.as_seen(loaded.game, before[0], seat, finished)[1]
        events = convert.recorded(loaded.game, result.events, seat, finished, withheld)
        return MoveResult(version=result.version, position=result.position, events=events,
                          duplicate=result.duplicate)

    @get("/{match_id:str}/events", summary="The event log", sync_to_thread=True,
         responses=problem_responses(400, 401, 403, 404))
    def events(
        self,
        request: Request[Any, Any, Any],
        match_id: MatchId,
        service: Service,
        after: Annotated[int, Parameter(ge=0, le=MAX_VERSION, description="Return versions after this one")] = 0,
        limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
    ) -> EventPage:
        """The match's events as the caller may see them (all of them once it has ended); follow `next_after`."""
        loaded = load(service, match_id)
        seat = seat_of(request, loaded.record)
        finished = loaded.state.finished
        stored = service.store.read_match(match_id, max(after, 1), after + limit)
        withheld = False
        if after >= 1 and stored and stored[0].version == after:
            withheld = convert.as_seen(loaded.game, stored[0], seat, finished)[1]
            stored = stored[1:]
        items = convert.recorded(loaded.game, stored, seat, finished, withheld)
        more = bool(stored) and stored[-1].version < loaded.record.version
        return EventPage(items=items, next_after=stored[-1].version if more else None)
