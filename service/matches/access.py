"""Who may read a match, and as whom: its seats, the app that owns it, anyone else as far as its visibility allows.

A match belongs to the app whose key created it. `public` matches are listed and readable by anyone; `unlisted` ones
readable by anyone who has the id; `private` ones only by the owning app and the match's seat tokens. To everyone
else a private match does not exist (not found, never "forbidden"), whatever credential they show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ledger.events import MatchRecord
from service.matches.tokens import secret_hash
from store.base import MatchNotFound


class WrongToken(Exception):
    """A credential that is neither a seat token of this match nor an app key."""


class SeatRequired(Exception):
    """The request needs one of the match's seat tokens."""


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
        raise SeatRequired(reader.app)
    return reader.seat
