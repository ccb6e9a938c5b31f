"""Who sits at a match: joining an open seat with its code, a seat's entropy for the deal, calling off a match that
never started (or was never dealt), rematches.

Each is a recorded command decided by the rules like a move (`match.join`, `match.cancel`), so the log says who
joined when, and a record of the match verifies its joins as it verifies moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.engine import Refusal
from domain.lifecycle import AddEntropy, Cancel, Join
from ledger.events import MatchRecord, SeatRecord
from service.errors import ServiceError
from service.matches.matches import MatchService, OpenedMatch, Played
from service.matches.tokens import new_secret, secret_hash
from store.base import MatchNotFound


class WrongJoinCode(ServiceError):
    """No seat of this match has this join code."""

    code, kind = "wrong-join-code", "forbidden"
    detail = "no open seat of this match has this join code"


class SeatTaken(ServiceError):
    """The seat of this join code has been taken (by an earlier join, perhaps a moment ago)."""

    code, kind = "seat-taken", "conflict"

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is already taken")
        self.seat = seat


class NotYourMatch(ServiceError):
    """Only the app that created a match may call it off or ask for its rematch."""

    code, kind = "not-your-match", "forbidden"
    detail = "only the app that created this match may do this"


@dataclass(frozen=True)
class Joined:
    """A join: the seat taken, its secret token (shown once) and the match after it."""

    seat: int
    token: str
    played: Played


def join(service: MatchService, match_id: str, code: str, player: str, entropy: str | None = None) -> Joined:
    """`player` takes the open seat whose join code is `code`; the last join starts the match. With `entropy` (an
    `entropy: "seats"` match) the seat's entropy is added right after, in its own append, as the seat would send it.

    Two claims of one seat at once: both decide on the same version, one append wins, the other re-decides on
    the state it lost to and is refused (`seat-taken`): exactly one wins, on either store.
    """
    record = service.load(match_id).record
    digest = secret_hash(code)
    seat = next((s.seat for s in record.seats if s.join_hash == digest), None)
    if seat is None:
        raise WrongJoinCode(match_id)
    token = new_secret("seat")

    def seats(current: MatchRecord) -> tuple[SeatRecord, ...]:
        return tuple(SeatRecord(seat=s.seat, player=player, token_hash=secret_hash(token), join_hash=s.join_hash)
                     if s.seat == seat else s for s in current.seats)

    try:
        played = service.play(match_id, seat, Join(player=player), expected_version=None, command_id=None,
                              seats=seats)
    except Refusal as refusal:
        if refusal.code in ("seat-taken", "match-started", "match-finished"):
            raise SeatTaken(seat) from None
        raise
    if entropy is not None:
        played = add_entropy(service, match_id, seat, entropy)
    return Joined(seat=seat, token=token, played=played)


def add_entropy(service: MatchService, match_id: str, seat: int, entropy: str) -> Played:
    """Seat `seat` adds its entropy for the deal (once; refused after the deal); the last one in deals."""
    return service.play(match_id, seat, AddEntropy(entropy=entropy), expected_version=None, command_id=None)


def cancel(service: MatchService, match_id: str, app: str) -> Played:
    """The creating app calls off a match that has not started, or not been dealt (`match.ended`, reason
    `cancelled`: the app's feed and webhooks tell it as every end)."""
    _owned(service.load(match_id).record, app)
    return service.play(match_id, None, Cancel(), expected_version=None, command_id=None)


def rematch(service: MatchService, match_id: str, app: str) -> OpenedMatch:
    """The same game, players (seats rotated by one) and options as a finished match, linked both ways; once."""
    loaded = service.load(match_id)
    record = _owned(loaded.record, app)
    state = loaded.state
    if not state.finished or state.opened is not None:
        raise Refusal("match-not-finished", "only a match that was played to its end can be replayed")
    players = [*state.players[1:], *state.players[:1]]
    return service.create(record.game, players, record.options, owner=app, visibility=record.visibility,
                          rematch_of=record.id, rules_version=record.rules_version)  # the same rules, too


def _owned(record: MatchRecord, app: str) -> MatchRecord:
    """The record, if `app` created it; another app may not know a private match exists."""
    if record.owner != app:
        if record.visibility == "private":
            raise MatchNotFound(record.id)
        raise NotYourMatch(record.id)
    return record
