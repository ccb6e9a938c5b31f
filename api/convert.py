"""From domain and store values to the API's response messages."""

from __future__ import annotations

from typing import Any

import msgspec

from api.schemas import GameInfo, MatchDetail, MatchSummary, OutcomeOut, RecordedEvent, SeatInfo, SeatResultOut
from domain import match
from domain.codec import event_from_builtins
from domain.engine import Game
from domain.lifecycle import LIFECYCLE_EVENTS, MatchEnded
from service.matches import LoadedMatch
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


def detail(loaded: LoadedMatch, seat: int | None) -> MatchDetail:
    """A match as `seat` (None: a spectator) may see it."""
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
        head_hash=record.head_hash,
        created_at=record.created_at,
        updated_at=record.updated_at,
    )


def recorded(game: Game[Any], stored: StoredEvent, seat: int | None) -> RecordedEvent:
    """A stored event, redacted for `seat`."""
    event = event_from_builtins(game, stored.payload)
    if not isinstance(event, LIFECYCLE_EVENTS):
        event = game.redact(event, seat)
    return RecordedEvent(version=stored.version, position=stored.position, recorded_at=stored.recorded_at,
                         seat=stored.seat, hash=stored.hash, prev_hash=stored.prev_hash, event=event)
