"""Who may read a match, and as whom: its seats, the app that owns it, anyone else as far as its visibility allows.

A match belongs to the app whose key created it. `public` matches are listed and readable by anyone; `unlisted` ones
readable by anyone who has the id; `private` ones only by the owning app and the match's seat tokens. To everyone
else a private match does not exist (not found, never "forbidden"), whatever credential they show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from ledger.events import MatchRecord
from service.errors import Kind, ServiceError
from service.matches.tokens import secret_hash
from store.base import MatchNotFound


class WrongToken(ServiceError):
    """A credential that is neither a seat token of this match nor an app key."""

    code, kind = "wrong-token", "forbidden"
    detail = "this token holds no seat at this match and is no app key"


class SeatRequired(ServiceError):
    """The request needs one of the match's seat tokens (and shows none)."""

    code = "seat-token-required"
    kind: ClassVar[Kind] = "unauthorized"
    detail = "this needs the seat token issued when the match was created"


class AppIsNoSeat(SeatRequired):
    """The request needs one of the match's seat tokens and shows an app key (`args[0]` names its app)."""

    kind = "forbidden"
    detail = "an app key reads matches as a spectator; this needs one of the match's seat tokens"


class BadAuthorization(ServiceError):
    """An Authorization header that is not `Bearer <token>`."""

    code, kind = "bad-authorization", "unauthorized"
    detail = "use 'Authorization: Bearer <token>'"


def bearer_secret(authorization: str | None) -> str | None:
    """The secret of an Authorization header (None: there is none); BadAuthorization unless it is a bearer one."""
    if authorization is None:
        return None
    scheme, _, secret = authorization.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise BadAuthorization()
    return secret.strip()


@dataclass(frozen=True)
class Caller:
    """A request's credentials as the service takes them: its Authorization header, read only when a check needs it
    (so a malformed one is refused where a check first reads it), and `owner_seen`, told the app that owns a match
    the caller is checked against (the request's log line names it)."""

    authorization: str | None
    owner_seen: Callable[[str | None], None] = lambda _: None

    def secret(self) -> str | None:
        """The bearer secret, or None (BadAuthorization for a header that is not a bearer one)."""
        return bearer_secret(self.authorization)

    def reader(self, record: MatchRecord, app_name: Callable[[str], str | None]) -> Reader:
        """Who the caller is at this match (a seat, its app, or a spectator), as far as its visibility allows."""
        self.owner_seen(record.owner)
        return reader(record, self.secret(), app_name)

    def known_reader(self, record: MatchRecord) -> Reader | None:
        """`reader` when it needs no store: the caller holds a seat's token, or shows no credential; None when only
        the app keys can tell (an app key, or a token of nobody's)."""
        secret = self.secret()
        if secret is not None and token_seat(record, secret) is None:
            return None
        return self.reader(record, lambda _: None)  # never asked: the secret is a seat's, or there is none


@dataclass(frozen=True)
class Reader:
    """Who reads a match: one of its seats, or a spectator (`app` names the app behind an app key, if any)."""

    seat: int | None
    app: str | None = None


def reader(record: MatchRecord, secret: str | None, app_name: Callable[[str], str | None]) -> Reader:
    """Who `secret` (a bearer token, or None) is at this match; MatchNotFound for a private match it has no part in,
    WrongToken for a credential that is nobody's."""
    if secret is not None and (seat := token_seat(record, secret)) is not None:
        return Reader(seat=seat)
    app = None if secret is None else app_name(secret)
    if record.visibility == "private" and (app is None or app != record.owner):
        raise MatchNotFound(record.id)
    if secret is not None and app is None:
        raise WrongToken(record.id)
    return Reader(seat=None, app=app)


def token_seat(record: MatchRecord, secret: str) -> int | None:
    """The seat whose token `secret` is at this match, or None."""
    digest = secret_hash(secret)
    return next((seat.seat for seat in record.seats if seat.token_hash == digest), None)


def seat_of(reader: Reader) -> int:
    """The reader's seat, or SeatRequired (moves and legal moves are a seat's own; an app reads as a spectator)."""
    if reader.seat is None:
        raise (SeatRequired if reader.app is None else AppIsNoSeat)(reader.app)
    return reader.seat
