"""Bearer credentials: app keys authorise creating matches; seat tokens authorise one seat of one match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Request

from api.problems import ApiError
from service.tokens import secret_hash
from store.base import MatchRecord


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
        raise ApiError(401, "app-key-required", "creating a match needs an app key (Authorization: Bearer …)")
    name = app_name(secret)
    if name is None:
        raise ApiError(403, "unknown-app-key", "this app key is not known")
    return name


def seat_of(request: Request[Any, Any, Any], record: MatchRecord) -> int | None:
    """The seat the caller's token holds at this match; None for an anonymous caller (a spectator)."""
    secret = bearer(request)
    if secret is None:
        return None
    digest = secret_hash(secret)
    for seat in record.seats:
        if seat.token_hash == digest:
            return seat.seat
    raise ApiError(403, "wrong-token", "this token holds no seat at this match")


def require_seat(request: Request[Any, Any, Any], record: MatchRecord) -> int:
    """The caller's seat, or 401 when no seat token was given."""
    seat = seat_of(request, record)
    if seat is None:
        raise ApiError(401, "seat-token-required", "this needs the seat token issued when the match was created")
    return seat
