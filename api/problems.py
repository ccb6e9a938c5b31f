"""RFC 9457 problem+json errors with a stable machine `code`, and the handlers that produce them."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("turnstile.api")


class FieldError(msgspec.Struct, frozen=True):
    """One rejected part of a request: where it is and what is wrong."""

    message: str
    key: str | None = None
    source: str | None = None


class Problem(msgspec.Struct, frozen=True, omit_defaults=True):
    """The body of every error response."""

    type: str
    title: str
    status: int
    code: str
    detail: str | None = None
    current_version: int | None = None
    errors: list[FieldError] | None = None


class ApiError(Exception):
    """An error the API answers on purpose: HTTP status, stable code and a human message."""

    def __init__(self, status: int, code: str, detail: str, *, current_version: int | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.current_version = current_version


TITLES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
          409: "Conflict", 412: "Precondition Failed", 413: "Content Too Large", 415: "Unsupported Media Type",
          422: "Unprocessable Content", 500: "Internal Server Error"}


def problem_response(problem: Problem, headers: dict[str, str] | None = None) -> Response[Any]:
    """A problem+json response."""
    return Response(content=msgspec.json.encode(problem), status_code=problem.status, media_type=PROBLEM_JSON,
                    headers=headers)


def problem(status: int, code: str, detail: str | None, **extra: Any) -> Problem:
    """A problem body with the conventional type URI and title."""
    return Problem(type=f"https://turnstile.dev/problems/{code}", title=TITLES.get(status, "Error"), status=status,
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


def on_unexpected(_: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """A bug: logged with its traceback, answered as a problem without internals."""
    log.exception("unhandled error", exc_info=exc)
    return problem_response(problem(500, "internal-error", "an unexpected error occurred; it has been logged"))


EXCEPTION_HANDLERS: dict[Any, Any] = {
    ApiError: on_api_error,
    ValidationException: on_validation_error,
    NotFoundException: on_not_found,
    HTTPException: on_http_error,
    Exception: on_unexpected,
}



def problem_responses(*statuses: int) -> dict[int, Any]:
    """OpenAPI entries documenting problem+json answers for these statuses."""
    from litestar.openapi.datastructures import ResponseSpec

    return {status: ResponseSpec(data_container=Problem, media_type=PROBLEM_JSON, generate_examples=False,
                                 description=TITLES.get(status, "Error")) for status in statuses}
