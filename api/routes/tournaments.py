"""Tournaments: create, list, read, join, start, withdraw; a tournament's record and its verification (issue 30)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.params import FromQuery, JSONBody, Parameter

from api import cursors
from api.auth import bearer, require_app, seat_of
from api.body import MAX_BODY_BYTES
from api.deps import Auditor, Service, Tournaments
from api.problem_codes import problem_responses
from api.problems import ApiError
from api.routes.matches import APP_KEY, OPTIONAL_KEY, READ_MATCH, MatchId
from api.tournament_schemas import (
    CreatedTournament,
    CreateTournamentRequest,
    JoinTournamentRequest,
    MatchTournament,
    StartTournamentRequest,
    TournamentDetail,
    TournamentPage,
    TournamentPlace,
    TournamentStatus,
    TournamentSummary,
    TournamentVerificationRequest,
    WithdrawRequest,
    check_handles,
    created_view,
    detail,
)
from domain.engine import Refusal
from ledger import tournament_records
from ledger.tournament_records import TournamentExport, TournamentVerdict
from service.tournaments import records as tournament_exports
from service.tournaments.tournaments import LoadedTournament

TournamentId = Annotated[str, Parameter(description="The tournament id", max_length=64)]
MAX_RECORD_BYTES = 64 * 1024 * 1024  # a record holds every match's: a long Swiss of long matches runs to megabytes
READ = ("bad-authorization", "unknown-tournament", "record-corrupt")
CREATE_REFUSALS = ("unknown-game", "unknown-edition", "bad-format", "bad-seat-count", "bad-table-size", "bad-rounds",
                   "bad-advance", "bad-option", "bad-options", "bad-entrant", "unknown-bot", "duplicate-entrant",
                   "too-few-entrants", "too-many-matches")
JOIN_REFUSALS = ("not-open", "tournament-full", "place-taken", "already-entered", "tournament-finished")
START_REFUSALS = ("already-started", "places-open", "too-few-entrants", "tournament-finished")
WITHDRAW_REFUSALS = ("no-such-entrant", "already-withdrawn", "tournament-finished")
# Refusals of a request that is well formed but not for the tournament as it is now: 409.
CONFLICTS = {*JOIN_REFUSALS, *START_REFUSALS, "already-withdrawn"}


def refused(refusal: Refusal, *, creating: bool = False) -> ApiError:
    """A tournament's refusal as a problem: 422 for what is wrong with the request, 409 for the tournament's state."""
    if refusal.code == "unknown-game":
        return ApiError(404, refusal.code, refusal.message)
    status = 409 if refusal.code in CONFLICTS and not creating else 422
    return ApiError(status, refusal.code, refusal.message)


def caller_app(request: Request[Any, Any, Any], service: Service) -> str | None:
    """The app behind the request's key, if it shows one (a seat token or no credential: None)."""
    secret = bearer(request)
    return None if secret is None else service.app_name(secret)


def shown(tournaments: Tournaments, loaded: LoadedTournament) -> TournamentDetail:
    """The tournament's view, its seed as the service reveals it (not while a match of it is still dealing)."""
    return detail(loaded, tournaments.revealed_seed(loaded))


class TournamentsController(Controller):
    """Tournaments, their rounds and records."""

    path = "/v1/tournaments"
    tags = ["tournaments"]

    @post("/", summary="Create a tournament", operation_id="createTournament", status_code=201, sync_to_thread=True,
          request_max_body_size=MAX_BODY_BYTES, security=APP_KEY, responses=problem_responses(
              "bad-authorization", "app-key-required", "unknown-app-key", *CREATE_REFUSALS, "request-too-large",
              "unsupported-media-type"),
          response_headers=[ResponseHeader(name="Location", description="The new tournament", documentation_only=True)])
    def create(self, request: Request[Any, Any, Any], data: JSONBody[CreateTournamentRequest], service: Service,
               tournaments: Tournaments) -> Response[CreatedTournament]:
        """Open a tournament of a game (app key required): its format, entrants, seats, rounds (Swiss), the game's
        options and edition, visibility and move deadline.

        The service pairs every round itself, creates each match (owned by this app, with the tournament's
        visibility), starts the next round when the last result lands, and tells this app each match's seat tokens
        (feed and webhook `tournament.match-ready`). Its seed is secret, committed to now (`seed_commitment`) and
        revealed when it finishes; every pairing and every match's deal derive from it. Open places
        (`{"open": true}`) get join codes, shown only in this answer; a tournament starts when its app says so
        (POST …/start), every place filled.
        """
        app = require_app(request, service.app_name)
        try:
            created = tournaments.create(app, data.command())
        except Refusal as refusal:
            raise refused(refusal, creating=True) from None
        body = created_view(created.loaded, created.codes)
        return Response(body, status_code=201, headers={"Location": f"/v1/tournaments/{body.id}"})

    @get("/", summary="List tournaments", operation_id="listTournaments", sync_to_thread=True, security=OPTIONAL_KEY,
         responses=problem_responses("invalid-cursor", "bad-authorization", "app-key-required", "unknown-app-key"))
    def list_tournaments(
        self,
        request: Request[Any, Any, Any],
        service: Service,
        tournaments: Tournaments,
        mine: Annotated[bool, Parameter(description="Only the calling app's own tournaments, of any visibility "
                                                    "(needs its app key)")] = False,
        game: Annotated[str | None, Parameter(max_length=64)] = None,
        status: FromQuery[TournamentStatus | None] = None,
        cursor: Annotated[str | None, Parameter(
            description="A `next_cursor` (`<created_at>|<tournament id>`); other values are 400 `invalid-cursor`",
            schema_extra={"pattern": cursors.TOURNAMENTS_PATTERN})] = None,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
    ) -> TournamentPage:
        """Public tournaments and the calling app's own (its key shown), newest first; follow `next_cursor`."""
        after = cursors.tournament_after(cursor)
        app = require_app(request, service.app_name) if mine else caller_app(request, service)
        records = tournaments.listed(app, mine=mine, game=game, status=status, after=after, limit=limit + 1)
        page = records[:limit]
        return TournamentPage(
            items=[TournamentSummary(id=r.id, game=r.game, format=r.format, status=r.status,  # type: ignore[arg-type]
                                     visibility=r.visibility, created_at=r.created_at) for r in page],
            next_cursor=cursors.tournament_cursor(page[-1].created_at, page[-1].id) if len(records) > limit
            else None)

    @get("/{tournament_id:str}", summary="Read a tournament", operation_id="getTournament", sync_to_thread=True,
         security=OPTIONAL_KEY, responses=problem_responses(*READ))
    def get_tournament(self, request: Request[Any, Any, Any], tournament_id: TournamentId, service: Service,
                       tournaments: Tournaments) -> TournamentDetail:
        """The tournament: status, `rounds` (each table's entrants in seat order, its `matches`, results), entrants
        (`players`) and `standings` (points, then the format's named `tiebreaks`). A private tournament exists only
        for its app."""
        return shown(tournaments, tournaments.readable(tournament_id, caller_app(request, service)))

    @post("/{tournament_id:str}/join", summary="Take an open place", operation_id="joinTournament", status_code=200,
          sync_to_thread=True, request_max_body_size=MAX_BODY_BYTES, opt={"private": True},
          responses=problem_responses(*READ, "wrong-place-code", *JOIN_REFUSALS, "bad-entrant", "request-too-large",
                                      "unsupported-media-type"))
    def join(self, tournament_id: TournamentId, data: JSONBody[JoinTournamentRequest],
             tournaments: Tournaments) -> TournamentDetail:
        """Fill the open place of a join code with a player (a cooperative game: a team, `player` naming it and
        `members` holding its seats). Two claims of one place at once: exactly one wins, the other is 409."""
        try:
            check_handles(*data.members)
            return shown(tournaments, tournaments.join(tournament_id, data.code, data.player, tuple(data.members)))
        except Refusal as refusal:
            raise refused(refusal) from None

    @post("/{tournament_id:str}/start", summary="Start a tournament", operation_id="startTournament", status_code=200,
          sync_to_thread=True, request_max_body_size=MAX_BODY_BYTES, security=APP_KEY, responses=problem_responses(
              *READ, "app-key-required", "unknown-app-key", "not-your-tournament", *START_REFUSALS,
              "too-many-tournaments", "request-too-large", "unsupported-media-type"))
    def start(self, request: Request[Any, Any, Any], tournament_id: TournamentId, service: Service,
              tournaments: Tournaments, data: JSONBody[StartTournamentRequest | None] = None) -> TournamentDetail:
        """Close entries and pair round 1 (its app's key): its matches are created at once. The optional body's
        `entropy` is mixed into the committed seed, so the server did not choose the seed played. Bots move at
        once, so a tournament of bots plays itself to the end: for up to `TURNSTILE_TOURNAMENT_DRIVE_BUDGET_S` (2 s)
        before this answers, then on in the background (follow it with GET; `status` is `finished` at the end)."""
        app = require_app(request, service.app_name)
        try:
            return shown(tournaments, tournaments.start(tournament_id, app, None if data is None else data.entropy))
        except Refusal as refusal:
            raise refused(refusal) from None

    @post("/{tournament_id:str}/withdraw", summary="Withdraw an entrant", operation_id="withdrawFromTournament",
          status_code=200, sync_to_thread=True, request_max_body_size=MAX_BODY_BYTES, security=APP_KEY,
          responses=problem_responses(*READ, "app-key-required", "unknown-app-key", "not-your-tournament",
                                      *WITHDRAW_REFUSALS, "request-too-large", "unsupported-media-type"))
    def withdraw(self, request: Request[Any, Any, Any], tournament_id: TournamentId, data: JSONBody[WithdrawRequest],
                 service: Service, tournaments: Tournaments) -> TournamentDetail:
        """An entrant leaves (its app's key): never paired again; a match it is playing is forfeited (its seats
        resign; the others at its table score a win). Before the start it closes an open place."""
        app = require_app(request, service.app_name)
        try:
            return shown(tournaments, tournaments.withdraw(tournament_id, app, data.entrant))
        except Refusal as refusal:
            raise refused(refusal) from None

    @get("/{tournament_id:str}/record", summary="The tournament's record", operation_id="exportTournament",
         sync_to_thread=True, security=OPTIONAL_KEY, responses=problem_responses(*READ))
    def record(self, request: Request[Any, Any, Any], tournament_id: TournamentId, service: Service,
               tournaments: Tournaments, auditor: Auditor) -> TournamentExport:
        """One self-contained record: every event with its place in the hash chain, the seed once the tournament
        has finished, and the record of every match it opened (as GET /v1/matches/{id}/export gives it to a
        spectator). Verify it with POST /v1/tournaments/verifications."""
        loaded = tournaments.readable(tournament_id, caller_app(request, service))
        return tournament_exports.export(loaded, auditor, tournaments.revealed_seed(loaded))

    @post("/verifications", summary="Verify a tournament record", operation_id="verifyTournament", status_code=200,
          sync_to_thread=True, request_max_body_size=MAX_RECORD_BYTES,
          responses=problem_responses("request-too-large", "unsupported-media-type"))
    def verify(self, data: JSONBody[TournamentVerificationRequest]) -> TournamentVerdict:
        """Check a tournament record (`{"record": "<the JSON text of GET /v1/tournaments/{id}/record>"}`): hash chain,
        seed commitment,
        every round's pairing and standings re-derived from the seed and the results, every match verified on its
        own (seated, edition, options and deal as the tournament says), every result its match's own, and (a fair
        deal) no match still dealing when the seed was revealed. `code`: "verified", "verified-so-far" (still being
        played: the pairings are checked once the seed is revealed), or the first failure (`chain-broken`,
        `truncated`, `seed-mismatch`, `pairing-mismatch`, `match-mismatch`, `seed-revealed-while-dealing`,
        `result-mismatch`, `malformed-record`). A record may be up to 64 MiB."""
        return tournament_records.verify(data.record)


class MatchTournamentController(Controller):
    """The way back from a match to the tournament that opened it."""

    path = "/v1/matches"
    tags = ["tournaments"]

    @get("/{match_id:str}/tournament", summary="The tournament a match was opened for",
         operation_id="getMatchTournament", sync_to_thread=True, security=OPTIONAL_KEY,
         responses=problem_responses(*READ_MATCH))
    def match_tournament(self, request: Request[Any, Any, Any], match_id: MatchId, service: Service) -> MatchTournament:
        """The tournament, round and table a match was played at (`tournament: null` for a match of its own): for
        whoever may read the match (a private one's 404 to everyone else)."""
        loaded = service.load(match_id)
        seat_of(request, loaded.record, service.app_name)  # the match's own visibility decides
        link = service.store.tournament_link(match_id)
        return MatchTournament(tournament=None if link is None else TournamentPlace(
            tournament_id=link.tournament_id, round=link.round, table=link.table))
