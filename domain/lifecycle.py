"""Shared lifecycle vocabulary: the events and commands every game's match stream uses.

These keep statistics game-agnostic: a projection reads `match.started` and `match.ended`
and never needs a game's own events.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Command, Event, SeatResult

VISIBILITIES = ("public", "unlisted", "private")
BOT_PREFIX = "bot:"  # a bot's player handle is `bot:<policy>` (domain/bots.py); people's handles cannot hold a colon


def is_bot(player: str | None) -> bool:
    """Whether a seat's player handle is a bot's (one the service plays itself)."""
    return player is not None and player.startswith(BOT_PREFIX)


class MatchStarted(Event, frozen=True, tag="match.started", omit_defaults=True):
    """Version 1 of every match: the game, its seats (player handles), options and seed commitment.

    `seed_source` says who chose the seed: the server alone, the server mixed with the players' public
    `client_entropy`, the server's part mixed with each seat's entropy (`server+seats`, option `entropy: "seats"`:
    the deal waits for the seats, see `EntropyAdded`), or the caller (tests and teaching: such a match is never
    rated). `server_seed_commitment` is the SHA-256 (hex) of the server's secret part, published before any
    player's entropy is accepted and opened at the end (None: a record written before it existed, or a caller's
    seed, which has no server part). `visibility` says who may
    watch it: anyone (`public`, counted in statistics), whoever has its id (`unlisted`) or only its app and seats
    (`private`). All three are left out of the JSON at their defaults, so records written before they existed
    read the same.
    """

    game: str
    rules_version: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed_commitment: str
    seed_source: str = "server"
    client_entropy: str | None = None
    visibility: str = "public"
    rematch_of: str | None = None
    server_seed_commitment: str | None = None


class MatchOpened(Event, frozen=True, tag="match.opened", omit_defaults=True):
    """Version 1 of a match with open seats: what `match.started` will say, but some seats are still empty.

    `seats` holds each seat's player, or None while it is open; `match.seat-joined` fills one, and the join that
    fills the last one also records `match.started` and the game's set-up.
    """

    game: str
    rules_version: str
    seats: tuple[str | None, ...]
    options: dict[str, Any]
    seed_commitment: str
    seed_source: str = "server"
    client_entropy: str | None = None
    visibility: str = "public"
    rematch_of: str | None = None
    server_seed_commitment: str | None = None


class EntropyAdded(Event, frozen=True, tag="match.entropy-added", omit_defaults=True):
    """A seat's entropy for the deal of an `entropy: "seats"` match: public from the moment it is recorded, once per
    seat, and only after the event publishing `server_seed_commitment`. `source` is `server` for a bot's seat (drawn
    by the server when the match is created, in the append of the first event, with no command: before any player's
    entropy exists), else `seat` (the seat's own `match.add-entropy`). A bot's seat has no other: the rules refuse
    its `match.add-entropy` (`bot-seat`), and the verifier fails a record where its entropy is not server-drawn."""

    seat: int
    entropy: str
    source: str = "seat"


class EntropyClosed(Event, frozen=True, tag="match.entropy-closed"):
    """No more entropy: the deal (the game's set-up events) follows in the same append. `absent` lists the seats
    that sent none before `entropy_deadline` ran out (each counts as empty entropy in the seed)."""

    absent: tuple[int, ...] = ()


class SeatJoined(Event, frozen=True, tag="match.seat-joined"):
    """A player claimed an open seat."""

    seat: int
    player: str


class SeatResigned(Event, frozen=True, tag="match.seat-resigned"):
    """A seat gave up; the match ends with that seat ranked last."""

    seat: int


class MatchEnded(Event, frozen=True, tag="match.ended"):
    """The final event: per-seat results and why the match ended."""

    reason: str
    results: tuple[SeatResult, ...]
    cooperative: bool = False
    team_won: bool | None = None


class TimedOut(Event, frozen=True, tag="match.timed-out"):
    """A seat to move let its deadline pass; the events after it apply the game's rule (domain/match.py)."""

    seat: int


class DrawOffered(Event, frozen=True, tag="match.draw-offered"):
    """A seat offers a draw; it stands until every seat accepts (the match ends `draw`) or a move is played."""

    seat: int


class DrawAccepted(Event, frozen=True, tag="match.draw-accepted"):
    """A seat accepts the draw on offer."""

    seat: int


class AddEntropy(Command, frozen=True, tag="match.add-entropy"):
    """A seat's entropy for the deal (POST /v1/matches/{id}/entropy with the seat's token; never sent as a move)."""

    entropy: str


class Deal(Command, frozen=True, tag="match.deal"):
    """Close the seats' entropy and deal (the service, recorded with no seat: at once when every seat has added its
    entropy, else by the deadline sweep once `entropy_deadline` has run out; never sent as a move)."""


class Resign(Command, frozen=True, tag="match.resign"):
    """Give up the match (any seat, any time while it is active)."""


class Join(Command, frozen=True, tag="match.join"):
    """Take an open seat (the service records it for whoever showed the seat's join code; never sent as a move)."""

    player: str


class Cancel(Command, frozen=True, tag="match.cancel"):
    """Call off a match that never started (its creator, through the service; recorded with no seat)."""


class OfferDraw(Command, frozen=True, tag="match.offer-draw"):
    """Offer a draw (competitive games with two seats or more; the offer lapses when a move is played)."""


class AcceptDraw(Command, frozen=True, tag="match.accept-draw"):
    """Accept the draw on offer; when every seat has, the match ends in a draw (every seat ranked first)."""


class Abandon(Command, frozen=True, tag="match.abandon"):
    """Close a match nobody moved in for its `abandon_after` (the service's sweep, recorded with no seat)."""


class TimeOut(Command, frozen=True, tag="match.time-out"):
    """Seat `seat` missed its deadline (the service's deadline sweep, recorded with no seat; never sent as a move)."""

    seat: int


LIFECYCLE_EVENTS: tuple[type[Event], ...] = (MatchStarted, SeatResigned, MatchEnded, MatchOpened, SeatJoined,
                                             TimedOut, DrawOffered, DrawAccepted, EntropyAdded, EntropyClosed)
LIFECYCLE_COMMANDS: tuple[type[Command], ...] = (Resign, OfferDraw, AcceptDraw)
# Recorded commands that no seat sends as a move: the service takes them for a join, a cancellation, a timeout,
# an abandonment, a seat's entropy and the deal.
SERVICE_COMMANDS: tuple[type[Command], ...] = (Join, Cancel, TimeOut, Abandon, AddEntropy, Deal)
