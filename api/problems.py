"""RFC 9457 problem+json errors with a stable machine `code`: one table of how each exception is answered, and the
one handler that answers them so."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException

from api.problem_codes import PROBLEM_JSON, TITLES, FieldError, Problem
from api.ratelimit import RateLimited
from domain.catalog import UnknownEdition, UnknownGame
from domain.engine import Refusal
from ledger.replay import UnknownVersion
from service.errors import Kind, ServiceError
from service.matches.model import VersionMismatch
from service.ops.metrics import REFUSALS
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


# A store that did not answer is asked again this many seconds later.
RETRY_STORE_S = 1
# The HTTP status of each kind of refusal (service/errors.py).
STATUS: dict[Kind, int] = {"malformed": 400, "unauthorized": 401, "forbidden": 403, "not-found": 404,
                           "conflict": 409, "precondition-failed": 412, "invalid": 422, "too-many": 429,
                           "broken": 500, "unavailable": 503}
# The codes of HTTP errors Litestar raises itself (others: `http-error`).
HTTP_CODES = {405: "method-not-allowed", 413: "request-too-large", 415: "unsupported-media-type"}


@dataclass(frozen=True)
class Answer:
    """How the API answers an exception of one type. What is not set here the exception declares itself: a
    `ServiceError` its kind, code, detail, fields and retry-after; any other its `code` attribute and its message."""

    kind: Kind | Callable[[Request[Any, Any, Any], Any], Kind] | None = None  # a callable: it depends on the request
    code: str | Callable[[Any], str] | None = None
    detail: str | None = None  # a template of the exception `e`
    fields: Mapping[str, str] | None = None  # members of the problem, and the attribute of `e` each is read from
    retry_after_s: float | Callable[[Any], float] | None = None  # the Retry-After header
    status: Callable[[Any], int] | None = None  # the HTTP layer's own status (instead of the kind's)
    extra: Callable[[Any], dict[str, Any]] | None = None  # further members of the problem, worked out
    headers: Callable[[Any], dict[str, str]] | None = None
    log: Callable[[Any], None] | None = None  # the answer is logged, too


def field_errors(exc: ValidationException) -> dict[str, Any]:
    """Each malformed field of a body, header or query parameter, and what is wrong with it."""
    errors = [FieldError(message=str(e.get("message")), key=e.get("key"), source=e.get("source"))
              for e in (exc.extra or []) if isinstance(e, dict)]
    return {"errors": errors or None}


STORE_UNAVAILABLE = Answer(  # the database is down, hung, or past the statement timeout: not a bug, so no traceback
    "unavailable", "store-unavailable", "the event store did not answer in time: try again (a move with the same "
                                        "Idempotency-Key)",
    retry_after_s=RETRY_STORE_S, log=lambda e: log.warning("store unavailable: %s: %s", type(e).__name__,
                                                           str(e).strip()))
# Every exception a handler may raise, and how it is answered; the most specific type of an exception's MRO wins.
ANSWERS: dict[type[BaseException], Answer] = {
    ServiceError: Answer(),
    VersionMismatch: Answer(kind=lambda request, _: "precondition-failed" if request.headers.get("if-match")
                            else "conflict"),  # HTTP's precondition when the stale version came as If-Match
    ApiError: Answer(status=lambda e: e.status, fields={"current_version": "current_version"}),
    RateLimited: Answer("too-many", "rate-limited", retry_after_s=lambda e: e.wait_s),
    Refusal: Answer("invalid", detail="{e.message}"),  # the rule's own code
    UnknownGame: Answer("not-found", "unknown-game", "no game is called {e.args[0]!r}"),
    UnknownEdition: Answer("conflict", "unknown-edition"),  # a stored match's edition is newer than this release
    UnknownVersion: Answer("not-found", "unknown-version", fields={"current_version": "latest"}),
    MatchNotFound: Answer("not-found", "unknown-match", "no match has id {e.match_id!r}"),
    TournamentNotFound: Answer("not-found", "unknown-tournament", "no tournament {e.tournament_id!r}"),
    RematchExists: Answer("conflict", "rematch-exists", "this match's rematch is {e.rematch}"),
    IdempotencyMismatch: Answer("invalid", "idempotency-key-reused", "this Idempotency-Key was used for a different "
                                                                     "request (another move of this match, or "
                                                                     "another match's creation)"),
    RecordCorrupt: Answer(  # never served nor extended, and logged loudly
        "broken", "record-corrupt", "this stored record (a match's or a tournament's) is damaged; the operator has "
                                    "been alerted and nothing can be recorded on it until it is restored",
        log=lambda e: log.critical("refused to serve the stored record of %s: %s", e.match_id, e.reason)),
    ValidationException: Answer("malformed", "invalid-request", "{e.detail}", extra=field_errors),
    NotFoundException: Answer("not-found", "not-found", "{e.detail}"),  # unknown routes, unparseable path parameters
    HTTPException: Answer(  # any other HTTP error Litestar raises (405, 413, ...)
        code=lambda e: HTTP_CODES.get(e.status_code, "http-error"), detail="{e.detail}",
        status=lambda e: e.status_code, headers=lambda e: dict(e.headers or {})),
    **{error: STORE_UNAVAILABLE for error in unavailable_errors()},
    Exception: Answer(  # a bug: logged with its traceback, answered without internals
        "broken", "internal-error", "an unexpected error occurred; it has been logged",
        log=lambda e: log.exception("unhandled error", exc_info=e)),
}


def answer_of(exc: BaseException) -> Answer:
    """The table's answer for the most specific type `exc` is an instance of."""
    return next(ANSWERS[kind] for kind in type(exc).__mro__ if kind in ANSWERS)


def on_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Every exception a handler raises, answered as the table says."""
    answer = answer_of(exc)
    if answer.log is not None:
        answer.log(exc)
    own: Any = exc if isinstance(exc, ServiceError) else None  # declares what the table leaves unset
    kind: Any = answer.kind or (own.kind if own else None)  # None only with a status of its own
    status = answer.status(exc) if answer.status else STATUS[kind(request, exc) if callable(kind) else kind]
    code: Any = answer.code or getattr(exc, "code", None)
    detail = answer.detail.format(e=exc) if answer.detail is not None else own.told() if own else str(exc)
    fields = answer.fields if answer.fields is not None else own.fields if own else {}
    extra = {name: getattr(exc, attribute) for name, attribute in fields.items()}
    if answer.extra is not None:
        extra |= answer.extra(exc)
    headers = answer.headers(exc) if answer.headers else None
    retry = answer.retry_after_s if answer.retry_after_s is not None else own.retry_after_s if own else None
    if retry is not None:
        headers = {"Retry-After": str(math.ceil(retry(exc) if callable(retry) else retry))}
    return problem_response(problem(status, code(exc) if callable(code) else code, detail, **extra), headers=headers)


EXCEPTION_HANDLERS: dict[Any, Any] = dict.fromkeys(ANSWERS, on_error)
