"""Bearer credentials: app keys create (and own) matches; seat tokens authorise one seat of one match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Request

from api.observe import note_app
from api.problems import ApiError
from ledger.events import MatchRecord
from service.matches.access import Reader, reader, token_seat
from service.matches.access import seat_of as access_seat


def bearer(request: Request[Any, Any, Any]) -> str | None:
    """The bearer secret of the request, None when there is no Authorization header."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise ApiError(401, "bad-authorization", "use 'Authorization: Bearer <token>'")
    return secret.strip()


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
    note_app(request, record.owner)
    return reader(record, bearer(request), app_name)


def known_reader(request: Request[Any, Any, Any], record: MatchRecord) -> Reader | None:
    """`reader_of` when it needs no store: the caller holds a seat's token, or shows no credential; None when only
    the app keys can tell (an app key, or a token of nobody's)."""
    secret = bearer(request)
    if secret is not None and token_seat(record, secret) is None:
        return None
    return reader_of(request, record, lambda _: None)  # never asked: the secret is a seat's, or there is none


def seat_of(request: Request[Any, Any, Any], record: MatchRecord, app_name: Callable[[str], str | None]) -> int | None:
    """The seat the caller's token holds at this match; None for a spectator (no token, or an app key)."""
    return reader_of(request, record, app_name).seat


def require_seat(request: Request[Any, Any, Any], record: MatchRecord, app_name: Callable[[str], str | None]) -> int:
    """The caller's seat: moves and legal moves need the seat token issued when the match was created."""
    return access_seat(reader_of(request, record, app_name))
