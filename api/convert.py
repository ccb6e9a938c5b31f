"""From domain and store values to the API's response messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from api.schemas import GameInfo, MatchDetail, MatchSummary, OutcomeOut, RecordedEvent, SeatInfo, SeatResultOut
from domain import match
from domain.codec import event_from_builtins
from domain.engine import Game
from domain.lifecycle import MatchEnded
from service.matches import LoadedMatch
from service.records import seen_by
from store.base import MatchRecord, StoredEvent


def game_info(game: Game[Any]) -> GameInfo:
    """A catalog entry, with the JSON Schema of its options."""
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
    )


def seats(record: MatchRecord) -> list[SeatInfo]:
    """The seats of a match, without their token hashes."""
    return [SeatInfo(seat=s.seat, player=s.player) for s in record.seats]


def summary(record: MatchRecord) -> MatchSummary:
    """A match row in a listing."""
    return MatchSummary(id=record.id, game=record.game, status=record.status,  # type: ignore[arg-type]
                        version=record.version, seats=seats(record), created_at=record.created_at,
                        updated_at=record.updated_at)


def outcome(ended: MatchEnded | None) -> OutcomeOut | None:
    """The recorded outcome, if the match has ended."""
    if ended is None:
        return None
    results = [SeatResultOut(seat=r.seat, rank=r.rank, score=r.score, winner=r.winner) for r in ended.results]
    return OutcomeOut(reason=ended.reason, results=results, cooperative=ended.cooperative, team_won=ended.team_won)


def detail(loaded: LoadedMatch, seat: int | None, head_withheld: bool) -> MatchDetail:
    """A match as `seat` (None: a spectator) may see it; `head_withheld` hides the hash of a redacted last event."""
    record, game, state = loaded.record, loaded.game, loaded.state
    view = game.view(state.game_state, seat) if state.game_state is not None else None
    return MatchDetail(
        id=record.id,
        game=record.game,
        rules_version=record.rules_version,
        status="finished" if state.finished else "active",
        version=state.version,
        seats=seats(record),
        to_move=match.to_move(game, state),
        you=seat,
        view=msgspec.to_builtins(view),
        outcome=outcome(state.ended),
        options=record.options,
        seed_commitment=record.seed_commitment,
        seed=record.seed if state.finished else None,
        head_hash=None if head_withheld else record.head_hash,
        created_at=record.created_at,
        updated_at=record.updated_at,
    )


def as_seen(game: Game[Any], stored: StoredEvent, seat: int | None, finished: bool) -> tuple[Any, bool]:
    """The event as `seat` may see it, and whether anything was withheld. After the end, all is public."""
    if finished:
        return event_from_builtins(game, stored.payload), False
    return seen_by(game, stored, seat)


def recorded(game: Game[Any], stored: Sequence[StoredEvent], seat: int | None, finished: bool,
             previous_withheld: bool = False) -> list[RecordedEvent]:
    """Stored events (consecutive versions) as `seat` may see them.

    An event's hash is a function of its whole payload, so publishing the hash of a redacted event would let
    a caller test guesses of the hidden cards against it: it is withheld (null), and so is the next event's
    `prev_hash`, which repeats it. Every hash is public once the match has ended.
    """
    out = []
    for event in stored:
        seen, withheld = as_seen(game, event, seat, finished)
        out.append(RecordedEvent(version=event.version, position=event.position, recorded_at=event.recorded_at,
                                 seat=event.seat, hash=None if withheld else event.hash,
                                 prev_hash=None if previous_withheld else event.prev_hash, event=seen))
        previous_withheld = withheld
    return out
