"""RFC 9457 problem+json errors with a stable machine `code`, and the handlers that produce them."""

from __future__ import annotations

import logging
import math
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException

from api.problem_codes import PROBLEM_JSON, TITLES, FieldError, Problem
from api.ratelimit import RateLimited
from domain.catalog import UnknownEdition, UnknownGame
from domain.engine import Refusal
from ledger.replay import UnknownVersion
from service.matches.access import SeatRequired, WrongToken
from service.matches.matches import VersionMismatch
from service.matches.seating import NotYourMatch, SeatTaken, WrongJoinCode
from service.ops.metrics import REFUSALS
from service.outbox.webhooks import BadWebhookUrl, TooManyWebhooks, UnknownWebhook
from service.reads.live import TooManyStreams
from service.reads.statistics import NotYet, UnknownPlayer
from service.tournaments.tournaments import NotYourTournament, WrongPlaceCode
from store.base import IdempotencyMismatch, MatchNotFound, RecordCorrupt, RematchExists
from store.factory import unavailable_errors
from store.tournaments import TournamentNotFound

log = logging.getLogger("turnstile.api")


class ApiError(Exception):
    """An error the API answers on purpose: HTTP status, stable code and a human message."""

    def __init__(self, status: int, code: str, detail: str, *, current_version: int | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.current_version = current_version


def problem_response(problem: Problem, headers: dict[str, str] | None = None) -> Response[Any]:
    """A problem+json response (counted by code)."""
    REFUSALS.labels(problem.code).inc()
    return Response(content=msgspec.json.encode(problem), status_code=problem.status, media_type=PROBLEM_JSON,
                    headers=headers)


def problem(status: int, code: str, detail: str | None, **extra: Any) -> Problem:
    """A problem body with its type URI (relative: the API itself documents each code at /problems/{code}) and title."""
    return Problem(type=f"/problems/{code}", title=TITLES.get(status, "Error"), status=status,
                   code=code, detail=detail, **extra)


def on_api_error(_: Request[Any, Any, Any], exc: ApiError) -> Response[Any]:
    """Errors raised on purpose by handlers."""
    return problem_response(problem(exc.status, exc.code, exc.detail, current_version=exc.current_version))


def on_validation_error(_: Request[Any, Any, Any], exc: ValidationException) -> Response[Any]:
    """Malformed bodies, headers and query parameters: 400 naming the fields."""
    errors = [FieldError(message=str(e.get("message")), key=e.get("key"), source=e.get("source"))
              for e in (exc.extra or []) if isinstance(e, dict)]
    return problem_response(problem(400, "invalid-request", exc.detail, errors=errors or None))


def on_not_found(_: Request[Any, Any, Any], exc: NotFoundException) -> Response[Any]:
    """Unknown routes and unparseable path parameters."""
    return problem_response(problem(404, "not-found", exc.detail))


def on_http_error(_: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    """Any other HTTP error Litestar raises (405, 413, ...), kept as problem+json."""
    code = {405: "method-not-allowed", 413: "request-too-large", 415: "unsupported-media-type"}.get(exc.status_code,
                                                                                                    "http-error")
    return problem_response(problem(exc.status_code, code, exc.detail), headers=dict(exc.headers or {}))


def on_refusal(_: Request[Any, Any, Any], exc: Refusal) -> Response[Any]:
    """The rules refused a command (or a match's set-up): 422 with the rule's own code."""
    return problem_response(problem(422, exc.code, exc.message))


def on_unknown_game(_: Request[Any, Any, Any], exc: UnknownGame) -> Response[Any]:
    """No game has this slug."""
    return problem_response(problem(404, "unknown-game", f"no game is called {exc.args[0]!r}"))


def on_unknown_edition(_: Request[Any, Any, Any], exc: UnknownEdition) -> Response[Any]:
    """A stored match names a rules edition this release does not have (a newer release wrote it)."""
    return problem_response(problem(409, "unknown-edition", str(exc)))


def on_unknown_match(_: Request[Any, Any, Any], exc: MatchNotFound) -> Response[Any]:
    """No match has this id."""
    return problem_response(problem(404, "unknown-match", f"no match has id {exc.match_id!r}"))


def on_unknown_version(_: Request[Any, Any, Any], exc: UnknownVersion) -> Response[Any]:
    """The match has no such version (yet)."""
    return problem_response(problem(404, "unknown-version", str(exc), current_version=exc.latest))


def on_version_mismatch(request: Request[Any, Any, Any], exc: VersionMismatch) -> Response[Any]:
    """A stale expected version: 412 when it came as If-Match (HTTP's precondition), else 409."""
    status = 412 if request.headers.get("if-match") else 409
    return problem_response(problem(status, "version-conflict", str(exc), current_version=exc.actual))


def on_idempotency_mismatch(_: Request[Any, Any, Any], exc: IdempotencyMismatch) -> Response[Any]:
    """An Idempotency-Key reused for a different move."""
    return problem_response(problem(422, "idempotency-key-reused",
                                    "this Idempotency-Key was used for a different move of this match"))


def on_record_corrupt(_: Request[Any, Any, Any], exc: RecordCorrupt) -> Response[Any]:
    """The stored record does not reach the head its row records: never served nor extended (logged loudly)."""
    log.critical("refused to serve match %s: %s", exc.match_id, exc.reason)
    return problem_response(problem(500, "record-corrupt", "this match's stored record is damaged; the operator has "
                                                           "been alerted and no move can be recorded until it is "
                                                           "restored"))


def on_not_yet(_: Request[Any, Any, Any], exc: NotYet) -> Response[Any]:
    """Statistics asked at least as fresh as a position the workers have not folded yet."""
    return problem_response(problem(409, "not-yet", str(exc), position=exc.position))


def on_unknown_player(_: Request[Any, Any, Any], exc: UnknownPlayer) -> Response[Any]:
    """No finished match of this player has been folded."""
    return problem_response(problem(404, "unknown-player", f"no finished match of {exc.args[0]!r} has been folded "
                                                           "yet"))


def on_wrong_token(_: Request[Any, Any, Any], exc: WrongToken) -> Response[Any]:
    """A credential that is neither a seat token of this match nor an app key."""
    return problem_response(problem(403, "wrong-token", "this token holds no seat at this match and is no app key"))


def on_seat_required(request: Request[Any, Any, Any], exc: SeatRequired) -> Response[Any]:
    """A seat's own request without that seat's token (an app key reads as a spectator but plays no seat)."""
    if exc.args and exc.args[0] is not None:
        return problem_response(problem(403, "seat-token-required", "an app key reads matches as a spectator; "
                                                                    "this needs one of the match's seat tokens"))
    return problem_response(problem(401, "seat-token-required",
                                    "this needs the seat token issued when the match was created"))


def on_too_many_streams(_: Request[Any, Any, Any], exc: TooManyStreams) -> Response[Any]:
    """A caller at its limit of open streams: 429, try again when one has closed."""
    return problem_response(problem(429, "too-many-streams", str(exc)), headers={"Retry-After": "5"})


def on_wrong_join_code(_: Request[Any, Any, Any], exc: WrongJoinCode) -> Response[Any]:
    """A join code that opens no seat of this match."""
    return problem_response(problem(403, "wrong-join-code", "no open seat of this match has this join code"))


def on_seat_taken(_: Request[Any, Any, Any], exc: SeatTaken) -> Response[Any]:
    """The claim of a seat someone else took first."""
    return problem_response(problem(409, "seat-taken", str(exc)))


def on_not_your_match(_: Request[Any, Any, Any], exc: NotYourMatch) -> Response[Any]:
    """Another app's match: it may be read, not called off nor replayed."""
    return problem_response(problem(403, "not-your-match", "only the app that created this match may do this"))


def on_rematch_exists(_: Request[Any, Any, Any], exc: RematchExists) -> Response[Any]:
    """A match is replayed once."""
    return problem_response(problem(409, "rematch-exists", f"this match's rematch is {exc.rematch}"))


def on_rate_limited(_: Request[Any, Any, Any], exc: RateLimited) -> Response[Any]:
    """A caller past its rate: 429, and when to try again."""
    return problem_response(problem(429, "rate-limited", str(exc)), headers={"Retry-After": str(math.ceil(exc.wait_s))})


def on_unknown_webhook(_: Request[Any, Any, Any], exc: UnknownWebhook) -> Response[Any]:
    """No webhook (or delivery) of the calling app has this id; another app's are as unknown."""
    return problem_response(problem(404, "unknown-webhook", f"the app has no webhook or delivery {exc.args[0]!r}"))


def on_bad_webhook_url(_: Request[Any, Any, Any], exc: BadWebhookUrl) -> Response[Any]:
    """A URL that may not receive webhooks."""
    return problem_response(problem(422, "bad-webhook-url", str(exc)))


def on_too_many_webhooks(_: Request[Any, Any, Any], exc: TooManyWebhooks) -> Response[Any]:
    """The app is at its limit of webhooks."""
    return problem_response(problem(409, "too-many-webhooks", str(exc)))


def on_unknown_tournament(_: Request[Any, Any, Any], exc: TournamentNotFound) -> Response[Any]:
    """No tournament has this id (or it is another app's private one)."""
    return problem_response(problem(404, "unknown-tournament", f"no tournament {exc.tournament_id!r}"))


def on_not_your_tournament(_: Request[Any, Any, Any], exc: NotYourTournament) -> Response[Any]:
    """Another app's tournament: it may be read, not started nor changed."""
    return problem_response(problem(403, "not-your-tournament", "only the app that created this tournament may do "
                                                                "this"))


def on_wrong_place_code(_: Request[Any, Any, Any], exc: WrongPlaceCode) -> Response[Any]:
    """A join code that opens no place of this tournament."""
    return problem_response(problem(403, "wrong-place-code", "no open place of this tournament has this join code"))


# A store that did not answer is asked again this many seconds later.
RETRY_STORE_S = 1


def on_store_unavailable(_: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """The database is down, hung, or past the statement timeout: 503 and when to try again. Not a bug, so no
    traceback; the driver's words (hosts, ports) stay in the log."""
    log.warning("store unavailable: %s: %s", type(exc).__name__, str(exc).strip())
    return problem_response(problem(503, "store-unavailable", "the event store did not answer in time: try again "
                                                              "(a move with the same Idempotency-Key)"),
                            headers={"Retry-After": str(RETRY_STORE_S)})


def on_unexpected(_: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """A bug: logged with its traceback, answered as a problem without internals."""
    log.exception("unhandled error", exc_info=exc)
    return problem_response(problem(500, "internal-error", "an unexpected error occurred; it has been logged"))


EXCEPTION_HANDLERS: dict[Any, Any] = {
    ApiError: on_api_error,
    Refusal: on_refusal,
    UnknownGame: on_unknown_game,
    UnknownEdition: on_unknown_edition,
    MatchNotFound: on_unknown_match,
    UnknownVersion: on_unknown_version,
    VersionMismatch: on_version_mismatch,
    IdempotencyMismatch: on_idempotency_mismatch,
    RecordCorrupt: on_record_corrupt,
    NotYet: on_not_yet,
    TooManyStreams: on_too_many_streams,
    RateLimited: on_rate_limited,
    WrongToken: on_wrong_token,
    SeatRequired: on_seat_required,
    UnknownPlayer: on_unknown_player,
    WrongJoinCode: on_wrong_join_code,
    SeatTaken: on_seat_taken,
    NotYourMatch: on_not_your_match,
    RematchExists: on_rematch_exists,
    UnknownWebhook: on_unknown_webhook,
    BadWebhookUrl: on_bad_webhook_url,
    TooManyWebhooks: on_too_many_webhooks,
    TournamentNotFound: on_unknown_tournament,
    NotYourTournament: on_not_your_tournament,
    WrongPlaceCode: on_wrong_place_code,
    ValidationException: on_validation_error,
    NotFoundException: on_not_found,
    HTTPException: on_http_error,
    **{error: on_store_unavailable for error in unavailable_errors()},
    Exception: on_unexpected,
}
