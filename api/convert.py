"""From domain and store values to the API's response messages."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from api.problems import ApiError
from api.schemas import (
    BotLevel,
    BotRating,
    EditionInfo,
    GameInfo,
    MatchDetail,
    MatchSummary,
    MoveResult,
    OutcomeOut,
    RecordedEvent,
    SeatDeadline,
    SeatInfo,
    SeatRequest,
    SeatResultOut,
)
from domain import bots, match, narration
from domain.catalog import game_of
from domain.codec import event_from_builtins
from domain.editions import Edition
from domain.engine import Game
from domain.lifecycle import MatchEnded
from ledger.events import MatchRecord, StoredEvent
from ledger.records import seen_by
from service.matches.model import LoadedMatch, MoveAnswer, revealed_seed, server_commitment, status_of
from store.base import iso


def players(seats: Sequence[SeatRequest]) -> list[str | None]:
    """The players of a new match's seats: a handle, `bot:<policy>`, or None for an open seat (422 `bad-seat` when a
    seat names none or several)."""
    out: list[str | None] = []
    for index, seat in enumerate(seats):
        if (seat.player is not None) + (seat.bot is not None) + seat.open != 1:
            raise ApiError(422, "bad-seat", f"seat {index} must name exactly one of player, bot and open: true")
        out.append(seat.player if seat.player is not None else None if seat.open else bots.player(str(seat.bot)))
    return out


def bot_levels(game: Game[Any], rated: dict[str, dict[str, Any]]) -> list[BotLevel]:
    """The game's bots, weakest first, each with its rating document's figures when `rated` has its handle."""
    out = []
    for level in bots.levels(game):
        handle = bots.player(level.name)
        doc = rated.get(handle)
        rating = None if doc is None else BotRating(ordinal=doc["ordinal"], mu=doc["mu"], sigma=doc["sigma"],
                                                     matches=doc["matches"])
        out.append(BotLevel(name=level.name, level=level.level, description=level.description, title=level.title,
                            handle=handle, rating=rating))
    return out


def game_info(game: Game[Any], rated: dict[str, dict[str, Any]] | None = None) -> GameInfo:
    """A catalog entry, with the JSON Schema of its options, and its bots (rated: from their rating documents)."""
    return GameInfo(
        slug=game.slug,
        title=game.title,
        min_seats=game.min_seats,
        max_seats=game.max_seats,
        cooperative=game.cooperative,
        rules_version=game.rules_version,
        options_schema=msgspec.json.schema(game.options_type),
        default_data=list(game.default_data),
        deviations=list(game.deviations),
        commands=[kind.__struct_config__.tag for kind in game.command_types],  # type: ignore[misc]
        bots=list(bots.names(game)),
        current=game.rules_version,
        editions=[edition_info(game.slug, edition) for edition in game.editions],
        bot_levels=bot_levels(game, rated or {}),
    )


def edition_info(slug: str, edition: Edition) -> EditionInfo:
    """A released edition of a game, as the catalog lists it."""
    bound = game_of(slug, edition.rules_version)
    return EditionInfo(rules_version=edition.rules_version, released=edition.released, changes=list(edition.changes),
                       options_schema=msgspec.json.schema(bound.options_type),
                       default_data=list(bound.default_data), deviations=list(bound.deviations))


def seat_deadlines(deadlines: dict[int, datetime]) -> list[SeatDeadline]:
    """Each seat to move and when its time runs out, in seat order."""
    return [SeatDeadline(seat=seat, deadline_at=iso(moment)) for seat, moment in sorted(deadlines.items())]


def seats(record: MatchRecord, deadlines: dict[int, datetime] | None = None) -> list[SeatInfo]:
    """The seats of a match, without their token hashes (an open seat's player is None), with the deadline of each
    seat to move when the match has one."""
    due = deadlines or {}
    return [SeatInfo(seat=s.seat, player=s.player or None,
                     deadline_at=iso(due[s.seat]) if s.seat in due else None) for s in record.seats]


def seats_at(state: match.MatchState, deadlines: dict[int, datetime]) -> list[SeatInfo]:
    """The seats as a fold has them (a seat joined later is still open), with the deadlines running then."""
    return [SeatInfo(seat=n, player=player or None, deadline_at=iso(deadlines[n]) if n in deadlines else None)
            for n, player in enumerate(state.players)]


def summary(record: MatchRecord) -> MatchSummary:
    """A match row in a listing."""
    return MatchSummary(id=record.id, game=record.game, status=record.status,  # type: ignore[arg-type]
                        version=record.version, seats=seats(record), seed_source=record.seed_source,
                        visibility=record.visibility, created_at=record.created_at, updated_at=record.updated_at)


def outcome(ended: MatchEnded | None) -> OutcomeOut | None:
    """The recorded outcome, if the match has ended."""
    if ended is None:
        return None
    results = [SeatResultOut(seat=r.seat, rank=r.rank, score=r.score, winner=r.winner) for r in ended.results]
    return OutcomeOut(reason=ended.reason, results=results, cooperative=ended.cooperative, team_won=ended.team_won)


def detail(loaded: LoadedMatch, seat: int | None, head_withheld: bool, legal: bool = False,
           deadlines: dict[int, datetime] | None = None) -> MatchDetail:
    """A match as `seat` (None: a spectator) may see it, with its legal moves if asked, and its seats' deadlines.

    `head_withheld` hides the head hash of a scheme 1 match whose last event is redacted for the caller.
    """
    record, game, state = loaded.record, loaded.game, loaded.state
    view = game.view(state.game_state, seat) if state.game_state is not None else None
    return MatchDetail(
        id=record.id,
        game=record.game,
        rules_version=record.rules_version,
        status=status_of(state),  # type: ignore[arg-type]
        version=state.version,
        seats=seats(record, deadlines),
        to_move=match.to_move(game, state),
        you=seat,
        view=msgspec.to_builtins(view),
        outcome=outcome(state.ended),
        options=record.options,
        seed_commitment=record.seed_commitment,
        seed_source=record.seed_source,
        client_entropy=record.client_entropy,
        visibility=record.visibility,
        seed=revealed_seed(record, state) if state.finished else None,
        server_seed=record.server_seed if state.finished else None,
        head_hash=None if head_withheld else record.head_hash,
        legal=match.legal(game, state, seat) if legal and seat is not None else None,
        created_at=record.created_at,
        updated_at=record.updated_at,
        rematch_of=record.rematch_of,
        rematch=record.rematch,
        server_seed_commitment=server_commitment(record.seed, record.seed_source, record.server_seed),
        entropy=list(state.seat_entropy) if state.seats_entropy else [],
    )


def as_seen(game: Game[Any], stored: StoredEvent, seat: int | None, finished: bool) -> tuple[Any, bool]:
    """The event as `seat` may see it, and whether anything was withheld. After the end, all is public."""
    if finished:
        return event_from_builtins(game, stored.payload), False
    return seen_by(game, stored, seat)


def recorded(game: Game[Any], stored: Sequence[StoredEvent], seat: int | None, finished: bool,
             withheld_from: int | None = None, names: Sequence[str] | None = None) -> list[RecordedEvent]:
    """Stored events (consecutive versions) as `seat` may see them.

    Scheme 2 events carry every hash and their commitment. A scheme 1 hash is a function of the whole payload and,
    through the chain, of every payload before it: once an event is redacted for the caller, its hash and every
    later hash would let the caller test guesses of the hidden cards, so from that event (`withheld_from`, or the
    first redacted one here) hashes are withheld (null) until the match ends. With the players' `names`, each event
    also carries its `text`: the event as seen, in one sentence (domain/narration.py).
    """
    out = []
    for event in stored:
        seen, redacted = as_seen(game, event, seat, finished)
        if event.commitment is None and redacted and not finished and withheld_from is None:
            withheld_from = event.version
        start = withheld_from if withheld_from is not None and event.commitment is None else None
        out.append(RecordedEvent(version=event.version, position=event.position, recorded_at=event.recorded_at,
                                 seat=event.seat, hash=event.hash if start is None or event.version < start else None,
                                 prev_hash=event.prev_hash if start is None or event.version <= start else None,
                                 commitment=event.commitment, event=seen,
                                 text=None if names is None else narration.words(game, seen, names)))
    return out


def move_result(answer: MoveAnswer) -> MoveResult:
    """The answer to a move (service/matches/matches.py `MatchService.move`), its events as the mover may see them."""
    after = answer.played.after
    return MoveResult(
        version=answer.version, position=answer.position,
        events=recorded(after.game, answer.events, answer.seat, after.state.finished, answer.withheld_from,
                        names=answer.names),
        duplicate=answer.played.result.duplicate, status=answer.status,  # type: ignore[arg-type]
        to_move=answer.to_move, view=answer.view, legal=answer.legal, deadlines=seat_deadlines(answer.deadlines),
    )
