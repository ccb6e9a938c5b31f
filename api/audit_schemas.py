"""The API's messages for replay and audit (the verdict itself is `ledger.verify.Verdict`)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from api.schemas import OutcomeOut, SeatInfo, Status, Strict


class MatchStateAt(msgspec.Struct, frozen=True):
    """A match after event `version`, as the caller may see it; `game_state` only once the match has ended."""

    id: str
    game: str
    version: int
    latest_version: int
    status: Status
    seats: list[SeatInfo]
    you: int | None
    to_move: list[int]
    resigned: list[int]
    view: Any
    outcome: OutcomeOut | None
    game_state: Any


class VerificationRequest(Strict, frozen=True):
    """Body of POST /v1/verifications: a match record, the NDJSON text `GET /v1/matches/{id}/export` gives."""

    record: Annotated[str, msgspec.Meta(max_length=10_000_000, description="The record's NDJSON text, as exported",
                                        examples=['{"record":"turnstile.match-record/1", ...}\n{"version":1, ...}\n'])]
    cursor: Annotated[str, msgspec.Meta(max_length=64, description=(
        "Ignored: a line of `GET /v1/exports/matches` carries its cursor, so a line may be posted as it is"))] \
        | None = None
