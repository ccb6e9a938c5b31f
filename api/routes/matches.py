"""Matches: create, list, read, legal moves, moves and the event log."""

from __future__ import annotations

import time
from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.params import FromQuery, HeaderParameter, JSONBody, Parameter
from litestar.utils.sync import sync_to_thread

from api import convert, cursors
from api.auth import bearer, caller, known_reader, require_app, require_seat, seat_of
from api.body import MAX_BODY_BYTES
from api.deps import Service
from api.problem_codes import RULES, problem_responses
from api.problems import ApiError
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
from domain import bots, match
from domain.catalog import UnknownEdition
from service.matches.deadlines import deadlines
from service.matches.idempotent import CreateKey
from service.matches.matches import MatchService
from service.matches.model import LoadedMatch, OpenedMatch, server_commitment
from service.reads.live import Hub

IdempotencyKey = Annotated[str, HeaderParameter(name="Idempotency-Key", required=False, max_length=200,
                                                  description="Retries with the same key return the first answer")]
IfMatch = Annotated[str, HeaderParameter(name="If-Match", required=False, max_length=40,
                                                pattern=r'^((W/)?"?[0-9]{1,9}"?)?$',
                                                description="The expected version, as the ETag of the match")]
MatchId = Annotated[str, Parameter(description="The match id", max_length=64)]
WaitForVersion = Annotated[int, Parameter(ge=0, le=2_147_483_647, description="Long poll: answer once the match is "
                                                                             "past this version (0, the default: at "
                                                                             "once, as every match is)")]
REREAD_S = 5.0  # a long poll re-reads this often even without a signal (a lost signal costs at most this)
Include = Annotated[str, Parameter(
    pattern=r"^((view|legal)(,(view|legal))*)?$", max_length=20,
    description="What else to answer with, comma-separated: `view` (the caller's view of the table) and `legal` "
                "(the caller's legal moves now), so a client needs one request per move")]
MoveInclude = Annotated[str, Parameter(
    pattern=r"^((view|legal|text)(,(view|legal|text))*)?$", max_length=20,
    description="What else to answer with, comma-separated: `view` (the caller's view of the table), `legal` "
                "(the caller's legal moves now) and `text` (each event told in words, as the caller may see it), so "
                "a client needs one request per move")]
TextInclude = Annotated[str, Parameter(
    pattern=r"^(text)?$", max_length=10,
    description="`text`: each event also told in words (`text`), as the caller may see it: another seat's hidden "
                "draw reads as a count (\"Grace drew 3 cards\")")]
MAX_VERSION = 2_147_483_647  # versions are 32-bit in the store
# What reading a match may answer besides its data, and who may ask (OpenAPI security requirements).
READ_MATCH = ("bad-authorization", "wrong-token", "unknown-match", "record-corrupt")
APP_KEY: list[dict[str, list[str]]] = [{"bearer": []}]
SEAT_TOKEN: list[dict[str, list[str]]] = [{"bearer": []}]
OPTIONAL_KEY: list[dict[str, list[str]]] = [{}, {"bearer": []}]  # anyone; a seat token or the owning app's key


def created_response(created: OpenedMatch) -> Response[CreatedMatch]:
    """The 201 answer to a new match (a creation or a rematch): its seats' tokens and join codes, shown once."""
    record = created.record
    body = CreatedMatch(
        id=record.id,
        game=record.game,
        version=record.version,
        seats=[SeatToken(seat=s.seat, player=s.player or None, token=t, join_code=c)
               for s, t, c in zip(record.seats, created.tokens, created.join_codes, strict=True)],
        seed_commitment=record.seed_commitment,
        seed_source=record.seed_source,
        client_entropy=record.client_entropy,
        visibility=record.visibility,
        head_hash=record.head_hash,
        rules_version=record.rules_version,
        status=record.status,  # type: ignore[arg-type]
        rematch_of=record.rematch_of,
        server_seed_commitment=server_commitment(record.seed, record.seed_source, record.server_seed),
    )
    return Response(body, status_code=201, headers={"Location": f"/v1/matches/{record.id}"})


def read_detail(request: Request[Any, Any, Any], service: MatchService, match_id: str, seat: int | None,
                legal: bool) -> tuple[MatchDetail, int | None]:
    """The match as the caller may see it, and the caller's seat (`seat`: known from an earlier read of this
    request). One call on a handler thread: the read, the token check and the answer, not a hop for each."""
    loaded = service.load(match_id)
    if seat is None:
        seat = seat_of(request, loaded.record, service.app_name)
    return detail_of(service, loaded, seat, legal), seat


async def read_detail_async(request: Request[Any, Any, Any], service: MatchService, match_id: str,
                            seat: int | None, legal: bool) -> tuple[MatchDetail, int | None]:
    """`read_detail` on the event loop when the match is cached here, the caller's token is one of its seats (or
    there is none) and the answer reads nothing more: one read on the store's async path. Else `read_detail` on a
    worker thread."""
    cached = service.cache.get(match_id)
    if (cached is not None and not service.reads_to_answer(cached)
            and known_reader(request, cached.record) is not None):
        loaded = await service.load_async(match_id)
        reader = known_reader(request, loaded.record)  # the seats as read now (a join may have changed them)
        if reader is not None and not service.reads_to_answer(loaded):
            return detail_of(service, loaded, reader.seat, legal), reader.seat
    return await sync_to_thread(read_detail, request, service, match_id, seat, legal)


def detail_of(service: MatchService, loaded: LoadedMatch, seat: int | None, legal: bool) -> MatchDetail:
    """The match as `seat` (None: a spectator) may see it."""
    return convert.detail(loaded, seat, service.first_redacted(loaded, seat) is not None, legal=legal,
                          deadlines=deadlines(service, loaded))


class MatchesController(Controller):
    """Matches and their moves."""

    path = "/v1/matches"
    tags = ["matches"]

    @post("/", summary="Create a match", operation_id="createMatch", status_code=201, sync_to_thread=True,
          request_max_body_size=MAX_BODY_BYTES, security=APP_KEY, responses=problem_responses(
              "bad-authorization", "app-key-required", "unknown-app-key", "unknown-game", "unknown-edition",
              "bad-options", "bad-seat-count", "bad-seat", "unknown-bot", "idempotency-key-reused",
              "request-too-large", "unsupported-media-type"),
          response_headers=[ResponseHeader(name="Location", description="The new match", documentation_only=True)])
    def create_match(self, request: Request[Any, Any, Any], data: JSONBody[CreateMatchRequest],
                     service: Service, idempotency_key: IdempotencyKey = "") -> Response[CreatedMatch]:
        """Open a match of a game (app key required). Each seat's token is shown only in this answer.

        A seat is a `player`, a `bot` the service plays itself (right after the move that puts it to move), or
        `open: true`: its join code is in the answer, and the match is `open` (no set-up) until every open seat is
        joined. The match belongs to the app whose key created it; `visibility` says who else may list and read it.
        The seed is the server's secret, committed to now (`seed_commitment`, and `server_seed_commitment` for the
        server's part) and revealed when the match ends. With option `entropy: "seats"` the match is `dealing`:
        nothing is dealt until each seat has sent its entropy (POST /v1/matches/{id}/entropy) or `entropy_deadline`
        has run out, so the server, committed first, cannot choose the deal. `client_entropy` is mixed in at
        creation, after the server saw it (it does not stop a dishonest server). A `seed` of the caller's is for
        tests and teaching.

        Retrying with the same Idempotency-Key and body (with the same app key) returns the first answer, the same
        seat tokens and join codes included, and opens no second match, even while the first request is in flight;
        the same key with another body is 422 `idempotency-key-reused`.
        """
        app = require_app(request, service.app_name)
        key = bearer(request)
        retry = CreateKey(key, idempotency_key) if idempotency_key and key is not None else None
        try:
            created = service.create(data.game, convert.players(data.seats), data.options, seed=data.seed,
                                     client_entropy=data.client_entropy, owner=app, visibility=data.visibility,
                                     rules_version=data.rules_version, retry=retry)
        except UnknownEdition as exc:
            raise ApiError(422, "unknown-edition", str(exc)) from exc
        return created_response(created)

    @get("/", summary="List matches", operation_id="listMatches",
         sync_to_thread=True, security=OPTIONAL_KEY, responses=problem_responses(
        "invalid-cursor", "bad-authorization", "app-key-required", "unknown-app-key"))
    def list_matches(
        self,
        request: Request[Any, Any, Any],
        service: Service,
        mine: Annotated[bool, Parameter(description="Only the calling app's own matches, of any visibility (needs "
                                                    "its app key)")] = False,
        game: FromQuery[str | None] = None,
        player: Annotated[str | None, Parameter(
            description="Matches seating this player, whatever the case of the handle (`Ada` is `ada`, as on "
                        "player pages and leaderboards)")] = None,
        status: FromQuery[Status | None] = None,
        cursor: Annotated[str | None, Parameter(
            description="A `next_cursor`: `<created_at, microseconds since 1970>|<match id>`, the place in the order "
                        "to go on after; any value of this pattern is one, other values are 400 `invalid-cursor`",
            schema_extra={"pattern": cursors.MATCHES_PATTERN})] = None,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
    ) -> MatchPage:
        """Public matches, newest first, filtered by game, player or status; follow `next_cursor`. With `mine=true`
        and an app key: that app's own matches, public, unlisted and private."""
        after = cursors.match_after(cursor)
        owner = require_app(request, service.app_name) if mine else None
        records = service.list_matches(game=game, player=player, status=status, owner=owner, after=after,
                                       limit=limit + 1)
        page = records[:limit]
        next_cursor = cursors.match_cursor(page[-1]) if len(records) > limit else None
        return MatchPage(items=[convert.summary(r) for r in page], next_cursor=next_cursor)

    @get("/{match_id:str}", summary="Read a match", operation_id="getMatch",
         security=OPTIONAL_KEY, responses=problem_responses(*READ_MATCH),
         response_headers=[ResponseHeader(name="ETag", description="The version", documentation_only=True)])
    async def get_match(self, request: Request[Any, Any, Any], match_id: MatchId, service: Service,
                        include: Include = "", wait_for_version: WaitForVersion = 0,
                        timeout: Annotated[int, Parameter(ge=1, le=60, description="Seconds to wait at most (with "
                                                                                   "`wait_for_version`)")] = 25,
                        ) -> Response[MatchDetail]:
        """The match and its state as the caller may see it (`include=legal`: with a seat's legal moves).

        Long poll: with `wait_for_version=N` the answer waits until the match passes version N (answering as soon as
        it does), or `timeout` seconds; at the timeout it is the match as it is then (200, same version as before:
        compare `version`), so a client that cannot hold a stream asks again."""
        body, seat = await read_detail_async(request, service, match_id, None, "legal" in include)
        # The hub from the app's state, not as a second dependency: Litestar resolves two dependencies of a handler
        # in a task group of their own, which cost this, the most frequent read, ≈ 4 % of the server's CPU.
        live: Hub = request.app.state.hub
        deadline = time.monotonic() + timeout
        while body.version <= wait_for_version and not live.closing:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            await live.wait(match_id, min(left, REREAD_S))
            body, seat = await read_detail_async(request, service, match_id, seat, "legal" in include)
        return Response(body, headers={"ETag": f'"{body.version}"'})

    @get("/{match_id:str}/legal-moves", summary="Legal moves of the caller's seat", operation_id="getLegalMoves",
         sync_to_thread=True,
         security=SEAT_TOKEN, responses=problem_responses(*READ_MATCH, "seat-token-required"))
    def legal_moves(self, request: Request[Any, Any, Any], match_id: MatchId, service: Service) -> LegalMoves:
        """Every move the caller's seat may send now (empty when it is not to move)."""
        loaded = service.load(match_id)
        seat = require_seat(request, loaded.record, service.app_name)
        moves = match.legal(loaded.game, loaded.state, seat)
        return LegalMoves(version=loaded.state.version, seat=seat, moves=moves)

    @post("/{match_id:str}/moves", summary="Play a move", operation_id="playMove", status_code=201,
          request_max_body_size=MAX_BODY_BYTES,
          security=SEAT_TOKEN, responses=problem_responses(
              *READ_MATCH, "seat-token-required", "version-conflict", "request-too-large", "unsupported-media-type",
              "expected-version-disagrees", "idempotency-key-reused", RULES))
    async def play_move(
        self,
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: JSONBody[MoveRequest],
        service: Service,
        idempotency_key: IdempotencyKey = "",  # headers are never null: "" is "not sent"
        if_match: IfMatch = "",
        include: MoveInclude = "",
    ) -> MoveResult:
        """Play one move for the caller's seat. Optimistic concurrency by expected version or If-Match.

        The answer says who is to move now, and with `include=view,legal` carries the caller's new view and legal
        moves. Retrying with the same Idempotency-Key returns the first answer, even while the first is in flight.
        """
        return convert.move_result(await service.move(match_id, data.move, caller(request),
                                                      expected_version=data.expected_version, if_match=if_match,
                                                      idempotency_key=idempotency_key, include=include))

    @get("/{match_id:str}/events", summary="The event log", operation_id="getEvents", sync_to_thread=True,
         security=OPTIONAL_KEY, responses=problem_responses(*READ_MATCH))
    def events(
        self,
        request: Request[Any, Any, Any],
        match_id: MatchId,
        service: Service,
        after: Annotated[int, Parameter(ge=0, le=MAX_VERSION, description="Return versions after this one")] = 0,
        limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
        include: TextInclude = "",
    ) -> EventPage:
        """The match's events as the caller may see them (all of them once it has ended); follow `next_after`.
        With `include=text` each carries its `text`: the event in words, redacted for the caller."""
        loaded = service.load(match_id)
        seat = seat_of(request, loaded.record, service.app_name)
        stored = service.events(loaded, after, limit)
        items = convert.recorded(loaded.game, stored, seat, loaded.state.finished, service.first_redacted(loaded, seat),
                                 names=bots.shown_names(loaded.game, loaded.state.players) if include else None)
        last = stored[-1].version if stored else after
        return EventPage(items=items, next_after=last if last < loaded.record.version else None)
