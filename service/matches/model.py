"""What the match service works with and answers: a match loaded and folded, a move played and its answer, a new
match's tokens, the seeds a match is dealt from, and the refusals of a move's preconditions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain import bots, match
from domain.engine import Game, Refusal
from domain.match import MatchState
from domain.rng import deal_seed, mixed_seed, seed_commitment
from ledger.events import MatchRecord, SeatRecord, SeedSource, StoredEvent
from service.errors import ServiceError
from service.matches.tokens import new_secret, new_seed, secret_hash
from store.base import AppendResult

AUTO_RETRIES = 8
BOT_MOVES = 20_000  # at most this many bot moves after one request (a match of bots alone plays to its end)


class VersionMismatch(ServiceError):
    """The caller's expected version is not the match's version (`current_version`: the match's)."""

    code, kind = "version-conflict", "conflict"
    fields = {"current_version": "actual"}

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the match is at {actual}")
        self.expected = expected
        self.actual = actual


class VersionsDisagree(ServiceError):
    """The expected version was given twice (in the body and as If-Match), and not the same."""

    code, kind = "expected-version-disagrees", "invalid"
    detail = "If-Match and expected_version name different versions"


def expected_from(body: int | None, if_match: str) -> int | None:
    """The expected version from a body's `expected_version` or an If-Match value (`"7"`, `W/"7"` or `7`; "": none),
    which must agree when both are given."""
    if not if_match:
        return body
    version = int(if_match.removeprefix("W/").strip('"'))  # the API's pattern for the header leaves only digits here
    if body is not None and body != version:
        raise VersionsDisagree()
    return version


@dataclass(frozen=True)
class OpenedMatch:
    """A new match with the one-time seat tokens and join codes (only their hashes are stored).

    `tokens[i]` is None for a bot's seat and an open one; `join_codes[i]` is the code of open seat i, else None.
    """

    record: MatchRecord
    tokens: tuple[str | None, ...]
    result: AppendResult
    join_codes: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class LoadedMatch:
    """A match row with its folded state, both at the same version."""

    record: MatchRecord
    game: Game[Any]
    state: MatchState


@dataclass(frozen=True)
class Played:
    """What a move wrote (or, for a retried command, first wrote) and the match after it."""

    result: AppendResult
    after: LoadedMatch
    bots: tuple[AppendResult, ...] = ()  # the bots' moves played right after it


@dataclass(frozen=True)
class MoveAnswer:
    """The answer to a seat's move: what it wrote (or, retried, first wrote) and the bots' replies it set off, as
    stored (`events`; to be shown as `seat` may see them, hashes withheld from `withheld_from` on, each told in words
    with `names`), and the match after them: its version, status, who is to move and by when, and (when asked for)
    the seat's view and legal moves."""

    played: Played
    seat: int
    events: tuple[StoredEvent, ...]
    withheld_from: int | None
    names: tuple[str, ...] | None
    version: int
    position: int
    status: str
    to_move: list[int]
    deadlines: dict[int, datetime]
    view: Any | None = None
    legal: list[Any] | None = None


def status_of(state: MatchState) -> str:
    """The row status a folded match has: open (seats to fill), dealing (waiting for its seats' entropy), active or
    finished."""
    if state.finished:
        return "finished"
    if state.waiting:
        return "open"
    return "dealing" if state.dealing else "active"


def draw_seed(record: MatchRecord, state: MatchState) -> str:
    """The seed every draw of the match derives from (`Rng.derive(seed, version)`): the row's, or for an
    `entropy: "seats"` match the deal's seed from the server's part and the seats' entropy (absent: empty)."""
    if not state.seats_entropy:
        return record.seed
    return deal_seed(record.server_seed or record.seed, state.seat_entropy)


def revealed_seed(record: MatchRecord, state: MatchState) -> str | None:
    """The seed shown once the match has ended: the one its draws derived from (None: never dealt)."""
    if state.seats_entropy and not state.entropy_closed:
        return None
    return draw_seed(record, state)


def due_in(game: Game[Any], state: MatchState, written_after: int, search_grace_s: float) -> float | None:
    """The `due_at` candidate (store/base.py `due_matches`) of the write that brought the match to `state`, in
    seconds after its recorded time: `abandon_after`, and `move_deadline` when the write put a seat to move (its
    `since` is past `written_after`, the version before the write); a search bot's turn, `search_grace_s` (the
    sweep's once the background has had that long); None: the write changes no deadline (a seat to move since
    earlier keeps its own, through the earlier hint the row keeps)."""
    if state.finished:
        return None
    waiting = bots.bot_to_move(game, state)
    if waiting is not None and bots.is_search(waiting[1]):  # played in the background: the sweep's, if all else fails
        return search_grace_s
    if state.dealing:  # the deal is due at the entropy deadline; at once when every seat's entropy is in
        if None not in state.seat_entropy:
            return 0.0
        return float(state.options["entropy_deadline"]) if state.started_version > written_after else None
    found = [float(state.options["abandon_after"])] if state.options.get("abandon_after") else []
    seconds = state.options.get("move_deadline")
    if seconds and state.since and any(state.since[s] > written_after for s in match.to_move(game, state)):
        found.append(float(seconds))
    return min(found, default=None)


def new_seats(players: Sequence[str | None], token_of: Callable[[int], str] | None = None,
              code_of: Callable[[int], str] | None = None,
              ) -> tuple[tuple[SeatRecord, ...], tuple[str | None, ...], tuple[str | None, ...]]:
    """Seat rows, tokens (people's seats: fresh secrets, or `token_of(seat)`) and join codes (open seats: fresh, or
    `code_of(seat)`) for a new match's players."""
    rows, tokens, codes = [], [], []
    for seat, player in enumerate(players):
        token = None if player is None or bots.bot_name(player) is not None else (
            token_of(seat) if token_of is not None else new_secret("seat"))
        code = None if player is not None else code_of(seat) if code_of is not None else new_secret("join")
        rows.append(SeatRecord(seat=seat, player=player or "", token_hash=secret_hash(token) if token else "",
                               join_hash=secret_hash(code) if code else None))
        tokens.append(token)
        codes.append(code)
    return tuple(rows), tuple(tokens), tuple(codes)


@dataclass(frozen=True)
class PlannedMatch:
    """A match the service opens on its own account (a tournament's): its id, the seed it derived for it (a server
    seed, rated as usual; with option `entropy: "seats"` the server's part of the deal) and each person's seat
    token."""

    id: str
    seed: str
    token_of: Callable[[int], str]


def choose_seed(seed: str | None, client_entropy: str | None,
                seats_entropy: bool = False) -> tuple[str, SeedSource, str | None]:
    """(seed, who chose it, the server's part when mixed): the server's secret unless the caller set one. With the
    seats' entropy the row's seed is the server's part (it salts the commitments; the deal's seed comes later)."""
    if seats_entropy:
        if seed is not None or client_entropy is not None:
            raise Refusal("bad-options", "`entropy: \"seats\"` takes neither a caller's `seed` nor `client_entropy`")
        server_seed = new_seed()
        return server_seed, "server+seats", server_seed
    if seed is not None:
        return seed, "caller", None
    server_seed = new_seed()
    if client_entropy is None:
        return server_seed, "server", None
    return mixed_seed(server_seed, client_entropy), "server+client", server_seed


def server_commitment(seed: str, source: SeedSource, server_seed: str | None) -> str | None:
    """`server_seed_commitment`: SHA-256 of the server's secret part (the seed itself when the server alone chose
    it; None for a caller's seed, which has no server part)."""
    if source == "caller":
        return None
    return seed_commitment(server_seed or seed)


