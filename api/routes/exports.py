"""Open data: the bulk export of finished matches (NDJSON, one complete record per line, resumable)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

from litestar import Controller, Request, get
from litestar.di import NamedDependency
from litestar.params import Parameter
from litestar.response import Stream

from api.auth import require_app
from api.deps import Service
from api.problem_codes import problem_responses
from api.problems import ApiError
from api.routes.matches import OPTIONAL_KEY
from domain.catalog import UnknownGame, by_slug, edition
from domain.editions import UnknownEdition
from ledger.records import MEDIA_TYPE
from service.reads.exports import CURSOR_PATTERN, Exports, cursor_position
from store.exports import ExportQuery

Exporter = NamedDependency[Exports]
RFC3339 = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2})$"
_RFC3339 = re.compile(RFC3339)
Name = Annotated[str | None, Parameter(min_length=1, max_length=64)]
EXPORTS_ANSWER = (
    "NDJSON, one line per finished match: `{\"cursor\": \"<c>\", \"record\": \"<NDJSON text>\"}`. `record` is the "
    "match's complete record, byte for byte what `GET /v1/matches/{id}/export` gives and what `turnstile verify` "
    "takes (each line may be posted as it is to `POST /v1/verifications`). `cursor` is where to resume after that "
    "line: a client that drops mid-stream asks again with `after=<the cursor of the last whole line it has>`.")


def moment(name: str, text: str | None) -> datetime | None:
    """An RFC 3339 date-time with its offset (None: not given); 400 `invalid-request` for anything else (a bare
    number or a date alone, which looser parsers would take)."""
    if text is None:
        return None
    try:
        if _RFC3339.fullmatch(text):
            return datetime.fromisoformat(text.replace("z", "Z").replace("t", "T"))
    except ValueError:
        pass
    raise ApiError(400, "invalid-request", f"`{name}` is not an RFC 3339 date-time: {text[:40]!r}")


def check_query(game: str | None, rules: str | None, since: datetime | None, until: datetime | None) -> None:
    """404 for a game the catalog lacks, 422 for an edition it does not have or a time range that holds nothing."""
    if game is not None and by_slug(game) is None:
        raise UnknownGame(game)
    if game is not None and rules is not None:
        try:
            edition(game, rules)
        except UnknownEdition as exc:
            raise ApiError(422, "unknown-edition", str(exc)) from exc
    if since is not None and until is not None and since >= until:
        raise ApiError(422, "bad-time-range", "`since` must come before `until`")


class ExportsController(Controller):
    """Bulk exports of the records themselves."""

    path = "/v1/exports"
    tags = ["open data"]

    @get("/matches", summary="Export finished matches (NDJSON, resumable)", operation_id="exportMatches",
         sync_to_thread=True, media_type=MEDIA_TYPE, security=OPTIONAL_KEY, description=EXPORTS_ANSWER,
         responses=problem_responses("invalid-cursor", "bad-authorization", "unknown-app-key", "unknown-game",
                                     "unknown-edition", "bad-time-range"))
    def export_matches(
        self,
        request: Request[Any, Any, Any],
        service: Service,
        exports: Exporter,
        game: Name = None,
        edition: Name = None,
        player: Name = None,
        since: Annotated[str | None, Parameter(description="Only matches that ended at or after this (RFC 3339)",
                                               schema_extra={"format": "date-time", "pattern": RFC3339})] = None,
        until: Annotated[str | None, Parameter(description="Only matches that ended before this (RFC 3339)",
                                               schema_extra={"format": "date-time", "pattern": RFC3339})] = None,
        bot: Annotated[bool | None, Parameter(description="true: only matches with a bot; false: none")] = None,
        after: Annotated[str | None, Parameter(
            description="Resume after the line whose `cursor` this is (its match's place in the log's order); any "
                        "value of this pattern is one, other values are 400 `invalid-cursor`",
            schema_extra={"pattern": CURSOR_PATTERN})] = None,
        limit: Annotated[int, Parameter(ge=1, le=100_000, description="At most this many records; fewer: the "
                                                                      "export has reached the end for now")] = 10_000,
    ) -> Stream:
        """Finished matches as NDJSON, in the order they ended in the log (commit order), resumable.

        Public matches only; with an app key, that app's own matches (public, unlisted and private) too. Filters:
        `game`, `edition` (a rules edition, e.g. `2`), a seated `player` (any case of the handle), the end time
        (`since` <= end < `until`) and `bot`. A match that finishes while an export runs comes after every line
        already sent: resuming from the last whole line never skips or repeats a match. Exports have their own rate
        limit per caller.
        """
        position = cursor_position(after)
        if position is None:
            raise ApiError(400, "invalid-cursor", f"{(after or '')[:100]!r} is not a cursor: pass a line's cursor")
        start, end = moment("since", since), moment("until", until)
        check_query(game, edition, start, end)
        app = None if request.headers.get("authorization") is None else require_app(request, service.app_name)
        query = ExportQuery(app=app, game=game, edition=edition, player=player, since=start, until=end)
        return Stream(exports.chunks(query, position, limit, bot), media_type=MEDIA_TYPE)
