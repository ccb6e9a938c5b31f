"""Replay and audit: a match at any version, its self-contained record, and verification of records."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.params import JSONBody, Parameter

from api import convert
from api.audit_schemas import MatchStateAt, VerificationRequest
from api.auth import seat_of
from api.deps import Auditor
from api.problems import problem_responses
from domain import match
from service.records import MEDIA_TYPE, encode_record
from service.verify import Verdict, verify_text

MatchId = Annotated[str, Parameter(description="The match id", max_length=64)]
Version = Annotated[int | None, Parameter(ge=1, le=2_147_483_647,
                                          description="The version (event number) to show; default: the last")]


class AuditController(Controller):
    """Replays, records and their verification."""

    path = "/v1"
    tags = ["audit"]

    @get("/matches/{match_id:str}/state", summary="A match at any version", sync_to_thread=True,
         responses=problem_responses(400, 401, 403, 404))
    def state_at(self, request: Request[Any, Any, Any], match_id: MatchId, auditor: Auditor,
                 version: Version = None) -> MatchStateAt:
        """The state after event `version`, as the caller may see it (seat token: that seat; none: a spectator).

        Once the match has ended its record is public: `game_state` then holds the whole state (every hand and
        deck order) at that version. During set-up (version 1 up to the last set-up event, one atomic append)
        there is no table yet: `view` is null and no one is to move.
        """
        moment = auditor.state_at(match_id, version)
        record, game, state = moment.record, moment.game, moment.state
        seat = seat_of(request, record)
        return MatchStateAt(
            id=record.id, game=record.game, version=state.version, latest_version=record.version,
            status=record.status,  # type: ignore[arg-type]
            seats=convert.seats(record), you=seat, to_move=match.to_move(game, state) if moment.set_up else [],
            resigned=list(state.resigned),
            view=msgspec.to_builtins(game.view(state.game_state, seat)) if moment.set_up else None,
            outcome=convert.outcome(state.ended),
            game_state=msgspec.to_builtins(state.game_state) if moment.public else None,
        )

    @get("/matches/{match_id:str}/export", summary="The match's record (NDJSON)", sync_to_thread=True,
         media_type=MEDIA_TYPE, responses=problem_responses(400, 401, 403, 404),
         response_headers=[ResponseHeader(name="Content-Disposition", documentation_only=True,
                                          description="attachment; filename=\"turnstile-{id}.ndjson\"")])
    def export(self, request: Request[Any, Any, Any], match_id: MatchId, auditor: Auditor) -> Response[bytes]:
        """One self-contained record: a header line, then one line per event with its command, seat and hashes.

        After the end: every event as recorded, and the seed. Before it: events redacted for the caller (seat token:
        that seat; none: a spectator) as in the event log, others' commands withheld, no seed; a withheld line says
        `"redacted": true` and carries no hash. Verify a record with `POST /v1/verifications`.
        """
        body = encode_record(auditor.export(match_id, seat_of(request, auditor.match(match_id))))
        filename = f"turnstile-{match_id}.ndjson"
        return Response(body, media_type=MEDIA_TYPE,
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @post("/verifications", summary="Verify a match record", status_code=200, sync_to_thread=True,
          responses=problem_responses(400, 413, 415))
    def verify(self, data: JSONBody[VerificationRequest]) -> Verdict:
        """Check a record: hash chain, seed commitment, rules version, fold, every decision re-decided, outcome.

        Body: `{"record": "<the NDJSON text of GET /v1/matches/{id}/export>"}`. The answer is always a verdict:
        `ok` is false when a check failed, and `code`, `failed_version` and `message` name the first failing
        event and why. `code` "verified": every check passed; "verified-so-far": a match still being played whose
        chain is intact up to its recorded head and no check failed (the seed and hidden parts are checked after
        the end); "partial": none failed but some could not run (e.g. an old-format record withholding hashes);
        "rules-version-changed": recorded under other rules, not a sign of tampering; any other code names what
        is wrong (`truncated`, `head-mismatch`, `chain-broken`, `commitment-mismatch`, `seed-mismatch`, ...;
        `malformed-record` for text that is not a record, e.g. a line nested deeper than 64 levels).
        No credentials needed.
        """
        return verify_text(data.record)
