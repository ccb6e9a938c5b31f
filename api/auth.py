"""Bearer credentials: app keys create (and own) matches; seat tokens authorise one seat of one match."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from litestar import Request

from api.observe import note_app
from api.problems import ApiError
from ledger.events import MatchRecord
from service.matches.access import Caller, Reader, bearer_secret
from service.matches.access import seat_of as access_seat


def caller(request: Request[Any, Any, Any]) -> Caller:
    """The request's credentials as the service takes them (the app a match belongs to goes to its log line)."""
    return Caller(request.headers.get("authorization"), partial(note_app, request))


def bearer(request: Request[Any, Any, Any]) -> str | None:
    """The bearer secret of the request, None when there is no Authorization header (401 when it is not a bearer
    one)."""
    return bearer_secret(request.headers.get("authorization"))


def require_app(request: Request[Any, Any, Any], app_name: Callable[[str], str | None]) -> str:
    """The name of the calling app (`app_name` looks a key up), or 401/403."""
    secret = bearer(request)
    if secret is None:
        raise ApiError(401, "app-key-required", "this needs an app key (Authorization: Bearer …)")
    name = app_name(secret)
    if name is None:
        raise ApiError(403, "unknown-app-key", "this app key is not known")
    note_app(request, name)
    return name


def reader_of(request: Request[Any, Any, Any], record: MatchRecord,
              app_name: Callable[[str], str | None]) -> Reader:
    """Who the caller is at this match (a seat, its app, or a spectator), as far as its visibility allows."""
    return caller(request).reader(record, app_name)


def known_reader(request: Request[Any, Any, Any], record: MatchRecord) -> Reader | None:
    """`reader_of` when it needs no store: the caller holds a seat's token, or shows no credential; None when only
    the app keys can tell (an app key, or a token of nobody's)."""
    return caller(request).known_reader(record)


def seat_of(request: Request[Any, Any, Any], record: MatchRecord, app_name: Callable[[str], str | None]) -> int | None:
    """The seat the caller's token holds at this match; None for a spectator (no token, or an app key)."""
    return reader_of(request, record, app_name).seat


def require_seat(request: Request[Any, Any, Any], record: MatchRecord, app_name: Callable[[str], str | None]) -> int:
    """The caller's seat: moves and legal moves need the seat token issued when the match was created."""
    return access_seat(reader_of(request, record, app_name))
