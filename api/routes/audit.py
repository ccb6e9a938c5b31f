"""Replay and audit: a match at any version, its self-contained record, and verification of records."""

from __future__ import annotations

import os
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.params import JSONBody, Parameter

from api import convert
from api.audit_schemas import MatchStateAt, VerificationRequest
from api.auth import seat_of
from api.deps import Auditor, Service
from api.openapi_names import TEXT
from api.problem_codes import problem_responses
from api.routes.matches import OPTIONAL_KEY, READ_MATCH
from ledger.records import MEDIA_TYPE, encode_record
from ledger.verify import Verdict, verify_text
from settings import VERIFY_BOT_SAMPLE

MatchId = Annotated[str, Parameter(description="The match id", max_length=64)]
# A record may also be sent as is, in the media type its export came in (or as plain text). The OpenAPI document
# declares the JSON body only (generators such as openapi-python-client cannot take NDJSON bodies) and says so.
RECORD_TEXT = (MEDIA_TYPE, TEXT)
VERIFY_TAKES = ("Checks a match record: hash chain, seed commitment, rules version, fold, every decision re-decided, "
                "outcome. The body is `{\"record\": \"<the NDJSON text of GET /v1/matches/{id}/export>\"}`, or that "
                "text as is, sent with `Content-Type: application/x-ndjson` (or `text/plain`). No credentials needed.")
Version = Annotated[int | None, Parameter(ge=1, le=2_147_483_647,
                                          description="The version (event number) to show; default: the last")]


class AuditController(Controller):
    """Replays, records and their verification."""

    path = "/v1"
    tags = ["audit"]

    @get("/matches/{match_id:str}/state", summary="A match at any version", operation_id="getStateAt",
         sync_to_thread=True,
         security=OPTIONAL_KEY, responses=problem_responses(*READ_MATCH, "unknown-version"))
    def state_at(self, request: Request[Any, Any, Any], match_id: MatchId, auditor: Auditor, service: Service,
                 version: Version = None) -> MatchStateAt:
        """The state after event `version`, as the caller may see it (seat token: that seat; none: a spectator).

        Every field is as of that version (status, seats and their players, to move, deadlines, resignations,
        outcome) but `latest_version`, the match's version now.

        Once the match has ended its record is public: `game_state` then holds the whole state (every hand and
        deck order) at that version. During set-up (version 1 up to the last set-up event, one atomic append)
        there is no table yet: `view` is null and no one is to move.
        """
        seat = seat_of(request, auditor.match(match_id), service.app_name)
        moment = auditor.state_at(match_id, version)
        record, game, state = moment.record, moment.game, moment.state
        return MatchStateAt(
            id=record.id, game=record.game, version=state.version, latest_version=record.version,
            status=moment.status,  # type: ignore[arg-type]
            seats=convert.seats_at(state, moment.deadlines()), you=seat, to_move=moment.to_move,
            resigned=list(state.resigned),
            view=msgspec.to_builtins(game.view(state.game_state, seat)) if moment.set_up else None,
            outcome=convert.outcome(state.ended),
            game_state=msgspec.to_builtins(state.game_state) if moment.public else None,
        )

    @get("/matches/{match_id:str}/export", summary="The match's record (NDJSON)", operation_id="exportRecord",
         sync_to_thread=True,
         media_type=MEDIA_TYPE, security=OPTIONAL_KEY, responses=problem_responses(*READ_MATCH),
         response_headers=[ResponseHeader(name="Content-Disposition", documentation_only=True,
                                          description="attachment; filename=\"turnstile-{id}.ndjson\"")])
    def export(self, request: Request[Any, Any, Any], match_id: MatchId, auditor: Auditor,
               service: Service) -> Response[bytes]:
        """One self-contained record: a header line, then one line per event with its command, seat and hashes.

        After the end: every event as recorded, and the seed. Before it: events as the caller may see them (seat
        token: that seat; none or the owning app's key: a spectator) as in the event log, others' commands withheld,
        no seed; a line that withholds something says `"redacted": true`, and every line carries its hash and
        commitment. Verify a record with `POST /v1/verifications`.
        """
        body = encode_record(auditor.export(match_id, seat_of(request, auditor.match(match_id), service.app_name)))
        filename = f"turnstile-{match_id}.ndjson"
        # NDJSON by default; the same text as text/plain to a client that asks for that first.
        media_type = request.accept.best_match([MEDIA_TYPE, TEXT], default=MEDIA_TYPE) or MEDIA_TYPE
        return Response(body, media_type=media_type if media_type != TEXT else f"{TEXT}; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @post("/verifications", summary="Verify a match record", operation_id="verifyRecord", status_code=200,
          sync_to_thread=True, opt={"text_body": ("record", RECORD_TEXT)}, description=VERIFY_TAKES,
          responses=problem_responses("request-too-large", "unsupported-media-type"))
    def verify(self, data: JSONBody[VerificationRequest]) -> Verdict:
        """Check a record: hash chain, seed commitment, rules version, fold, every decision re-decided, outcome.

        Body: `{"record": "<the NDJSON text of GET /v1/matches/{id}/export>"}`, or that text as is, sent as
        `application/x-ndjson` (or `text/plain`). The answer is always a verdict:
        `ok` is false when a check failed, and `code`, `failed_version` and `message` name the first failing
        event and why. `code` "verified": every check passed; "verified-so-far": a match still being played whose
        chain is intact up to its recorded head and no check failed (the seed and hidden parts are checked after
        the end); "partial": none failed but some could not run (e.g. an old-format record withholding hashes);
        "unknown-edition": recorded under a rules edition this release does not have (a newer release's: every
        edition ever released stays runnable), not a sign of tampering; any other code names what
        is wrong (`truncated`, `head-mismatch`, `chain-broken`, `commitment-mismatch`, `seed-mismatch`, ...;
        `malformed-record` for text that is not a record, e.g. a line nested deeper than 64 levels).
        A search bot's moves (`bot:ismcts-<n>`) are re-decided from its seat's view (`bot-mismatch` when one is not
        the honest bot's); here a random sample of at most 8 of them (`partial` when that is fewer than all:
        `turnstile verify` re-runs every one). No credentials needed.
        """
        return verify_text(data.record, bot_sample=VERIFY_BOT_SAMPLE, bot_salt=os.urandom(16))
