"""The problem+json body, and every `code` the API answers with: its HTTP status and what it means, in one table.

Operations declare which codes they can answer (`problem_responses`); the OpenAPI document lists them per response,
and `turnstile problems` prints this table for the README, so the three never drift apart.
"""

from __future__ import annotations

from typing import Any

import msgspec

PROBLEM_JSON = "application/problem+json"
RULES = "<the rule's own code>"  # a refusal by a game's rules: each game lists its codes in GET /v1/games/{game}

CODES: dict[str, tuple[tuple[int, ...], str]] = {
    "invalid-request": ((400,), "a parameter, header or body is malformed; `errors` names each field and why"),
    "invalid-cursor": ((400,), "a `cursor` that is not a `next_cursor` this API gave (see the parameter's pattern)"),
    "bad-tile-path": ((400,), "a tile path not written as C2SP tlog-tiles writes it: `<L>/<N>[.p/<W>]` or "
                              "`entries/<N>[.p/<W>]`, N in groups of three digits, all but the last prefixed with `x`, "
                              "no leading zeros, L 0 to 63, W 1 to 255"),
    "bad-authorization": ((401,), "the Authorization header is not `Bearer <token>`"),
    "app-key-required": ((401,), "creating matches, listing an app's own and its webhooks need an app key"),
    "seat-token-required": ((401, 403), "moves, legal moves and a seat's entropy need one of the match's seat tokens "
                                        "(403: an app key was shown; an app reads its matches as a spectator)"),
    "metrics-token-required": ((401,), "the operator protects /metrics: `Authorization: Bearer` the "
                                       "`TURNSTILE_METRICS_TOKEN`"),
    "unknown-app-key": ((403,), "this app key is not known"),
    "wrong-join-code": ((403,), "no open seat of this match has this join code"),
    "not-your-match": ((403,), "only the app that created the match may call it off or ask for its rematch"),
    "not-your-tournament": ((403,), "only the app that created the tournament may start it or withdraw its entrants"),
    "wrong-place-code": ((403,), "no open place of this tournament has this join code"),
    "wrong-token": ((403,), "this token holds no seat at this match and is no app key"),
    "entries-withheld": ((403,), "this entry bundle holds an event of an unlisted or private match or tournament, "
                                 "whose id is not published; the level-0 tile of the same index holds its leaf hashes"),
    "unknown-game": ((404,), "no game has this slug"),
    "unknown-match": ((404,), "no match has this id (or it is private, and the caller has no part in it)"),
    "unknown-version": ((404,), "the match has no such version yet; `current_version` says where it is"),
    "unknown-player": ((404,), "no finished match of this player has been folded into statistics yet"),
    "unknown-tournament": ((404,), "no tournament has this id (or it is private, and the caller is not its app)"),
    "unknown-dump": ((404,), "no monthly dump has this month and file name (GET /v1/dumps lists them)"),
    "unknown-webhook": ((404,), "the calling app has no webhook (or delivery) of this id"),
    "not-found": ((404,), "no such route"),
    "log-not-signed": ((404,), "the transparency log has no signed checkpoint yet (nothing sequenced so far), or the "
                               "server has no log key (`TURNSTILE_LOG_KEY`)"),
    "log-not-cosigned": ((404,), "no checkpoint of the transparency log is cosigned by the quorum of witnesses its "
                                 "policy (`TURNSTILE_WITNESS_POLICY`) names, yet"),
    "beyond-tree": ((404,), "the transparency log's tree is smaller than the size asked for"),
    "not-sequenced": ((404,), "the event is not a leaf of the tree of that size (events are sequenced within about "
                              "a second of their append)"),
    "method-not-allowed": ((405,), "the route does not take this method"),
    "version-conflict": ((409, 412), "the expected version (412: given as If-Match) is stale; `current_version` "
                                     "says where the match is now"),
    "seat-taken": ((409,), "the seat of this join code was taken already (perhaps a moment ago, by another claim)"),
    "match-started": ((409,), "the match has been dealt: only a match waiting for its open seats or its seats' "
                              "entropy can be called off"),
    "entropy-already-added": ((409,), "this seat has added its entropy already: each seat adds it once"),
    "entropy-closed": ((409,), "the seats' entropy is closed: the match has been dealt"),
    "no-seat-entropy": ((409,), "the match takes no entropy from its seats (it was not created with option "
                                "`entropy: \"seats\"`)"),
    "match-not-finished": ((409,), "only a match played to its end (not one called off) can be replayed"),
    "rematch-exists": ((409,), "this match already has its rematch (`rematch` in the match says which)"),
    "too-many-webhooks": ((409,), "the app holds as many webhooks as it may (`TURNSTILE_WEBHOOKS_PER_APP`, 20); "
                                  "delete one first"),
    "not-yet": ((409,), "statistics are not yet folded up to `min_position`; `position` says how far they are"),
    "not-open": ((409,), "the tournament has started: entries are closed"),
    "tournament-full": ((409,), "every place of the tournament is taken"),
    "place-taken": ((409,), "that place of the tournament was filled already (perhaps a moment ago, by another claim)"),
    "already-entered": ((409,), "this player (or a member of this team) already holds a place in the tournament"),
    "already-started": ((409,), "the tournament has started already"),
    "places-open": ((409,), "every open place must be filled (or withdrawn) before the tournament starts"),
    "already-withdrawn": ((409,), "this entrant has withdrawn already"),
    "tournament-finished": ((409,), "the tournament is over: nothing changes it any more"),
    "too-few-entrants": ((409, 422), "fewer entrants than two (422, at creation), or than one table holds (409, at "
                                     "the start, after withdrawals)"),
    "request-too-large": ((413,), "the body is larger than the operation takes (64 KiB for matches and moves)"),
    "range-not-satisfiable": ((416,), "the `Range` starts past the end of the file (its size is in GET /v1/dumps)"),
    "unsupported-media-type": ((415,), "a body that is not JSON (`application/json` or `application/*+json`) nor, "
                                       "for a record to verify, NDJSON or plain text"),
    "unknown-edition": ((409, 422), "no rules edition of this number (422: asked for on create; the game's `editions` "
                                    "list them) or, 409, the match was recorded under an edition newer than this "
                                    "release"),
    "bad-options": ((422,), "the options are not the game's (the game's `options_schema` says what they are)"),
    "bad-seat-count": ((422,), "the game does not take this many seats"),
    "bad-seat": ((422,), "a seat names none or several of `player`, `bot` and `open: true`"),
    "unknown-bot": ((422,), "the game has no bot of this name (its `bots` in GET /v1/games list them)"),
    "bad-format": ((422,), "a tournament's format is `round-robin`, `swiss` or `knockout`"),
    "bad-table-size": ((422,), "a table seats the match's seats (a cooperative game: 2 or more teams)"),
    "bad-rounds": ((422,), "a Swiss tournament names its `rounds` (1 or more); the other formats derive theirs"),
    "bad-advance": ((422,), "only a knockout advances entrants: 1 to one fewer than a table holds"),
    "too-many-matches": ((422,), "the tournament's format would play more matches than this server plays for one "
                                 "tournament (`TURNSTILE_TOURNAMENT_MATCHES_MAX`, 512); nothing was written"),
    "bad-option": ((422,), "a tournament setting (seeding, visibility, move deadline) is not one it takes"),
    "bad-entrant": ((422,), "an entrant is a handle, `{bot, name}`, `{team, members}` (cooperative games, one member a "
                            "seat) or `{open: true}`"),
    "duplicate-entrant": ((422,), "two entrants (or bot names, or team members) are the same"),
    "no-such-entrant": ((422,), "the tournament has no entrant of this index"),
    "bad-webhook-url": ((422,), "the URL is not http(s), its host does not resolve, or it resolves to a private, "
                                "loopback or link-local address the operator does not allow"),
    "bad-grouping": ((422,), "insights group by one or two different dimensions"),
    "bad-edition": ((422,), "the game has no rules edition of this name (a leaderboard's `edition`)"),
    "bad-time-range": ((422,), "`since` is not before `until`: the range holds no time"),
    "bad-proof-range": ((422,), "a consistency proof goes from a size of at least 1 to a size no smaller"),
    "expected-version-disagrees": ((422,), "If-Match and `expected_version` name different versions"),
    "idempotency-key-reused": ((422,), "this Idempotency-Key was used for another request: another move of this "
                                        "match, or (a create) another match's creation by this app key"),
    RULES: ((422,), "the rules refuse the move, e.g. `not-your-turn`, `match-finished`; nothing was written"),
    "too-many-tournaments": ((429,), "the app has as many tournaments running as it may (`TURNSTILE_TOURNAMENTS_"
                                     "RUNNING_PER_APP`, 10); start this one once another has finished"),
    "too-many-streams": ((429,), "this token, app or address holds as many open streams as it may; `Retry-After`"),
    "rate-limited": ((429,), "this app key, seat token or (without either) address is past its rate limit; nothing "
                             "was done; `Retry-After` says when to try again"),
    "record-corrupt": ((500,), "this stored record (a match's or a tournament's) is damaged; it is neither served nor "
                                "extended"),
    "internal-error": ((500,), "a bug: it has been logged; nothing about it is in the answer"),
    "store-unavailable": ((503,), "the event store did not answer in time (down, unreachable, or a statement past "
                                  "`TURNSTILE_STATEMENT_TIMEOUT_S`); `Retry-After` says when to try again; send a "
                                  "move again with the same Idempotency-Key: it is recorded once, whether or not the "
                                  "first try reached the store"),
    "http-error": ((400, 404, 405), "any other error of the HTTP layer, with its own status"),
}

TITLES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
          409: "Conflict", 412: "Precondition Failed", 413: "Content Too Large", 415: "Unsupported Media Type",
          416: "Range Not Satisfiable",
          422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error",
          503: "Service Unavailable"}
# Every operation may meet these: a malformed request, a caller past its rate, a bug, or a store not answering.
ALWAYS = ("invalid-request", "rate-limited", "internal-error", "store-unavailable")


class FieldError(msgspec.Struct, frozen=True):
    """One rejected part of a request: where it is and what is wrong."""

    message: str
    key: str | None = None
    source: str | None = None


class Problem(msgspec.Struct, frozen=True, omit_defaults=True):
    """The body of every error response."""

    # A relative URI (RFC 9457 3.1.1): `/problems/<code>` on this API documents the code.
    type: str
    title: str
    status: int
    code: str
    detail: str | None = None
    current_version: int | None = None
    position: int | None = None  # `not-yet`: the position the statistics are folded up to
    errors: list[FieldError] | None = None


def problem_responses(*codes: str) -> dict[int, Any]:
    """OpenAPI responses (problem+json) for these codes, each status listing the codes it may carry."""
    from litestar.openapi.datastructures import ResponseSpec

    by_status: dict[int, list[str]] = {}
    for code in (*codes, *ALWAYS):
        statuses, _ = CODES[code]
        for status in statuses:
            if code not in by_status.setdefault(status, []):
                by_status[status].append(code)
    return {status: ResponseSpec(data_container=Problem, media_type=PROBLEM_JSON, generate_examples=False,
                                 description=f"{TITLES[status]}: " + "; ".join(
                                     f"`{code}` ({CODES[code][1]})" for code in found))
            for status, found in sorted(by_status.items())}


def table() -> str:
    """The codes as a Markdown table (what the README shows)."""
    rows = ["| status | code | meaning |", "|---|---|---|"]
    for code, (statuses, meaning) in CODES.items():
        rows.append(f"| {', '.join(map(str, statuses))} | `{code}` | {meaning} |")
    return "\n".join(rows) + "\n"
