"""The API's typed messages. Command and event unions are built from the game catalog."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec

from domain.catalog import GAMES
from domain.codec import command_types, event_types
from domain.lifecycle import LIFECYCLE_COMMANDS, LIFECYCLE_EVENTS


def _unique(kinds: list[type[Any]]) -> tuple[type[Any], ...]:
    return tuple(dict.fromkeys(kinds))


ALL_COMMANDS = _unique([*LIFECYCLE_COMMANDS, *(k for g in GAMES for k in command_types(g))])
ALL_EVENTS = _unique([*LIFECYCLE_EVENTS, *(k for g in GAMES for k in event_types(g))])
AnyCommand: Any = Union[ALL_COMMANDS]  # noqa: UP007  (built at import from the catalog)
AnyEvent: Any = Union[ALL_EVENTS]  # noqa: UP007

Handle = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.@-]+$",
                                     description="A player's handle, shared across matches")]


class Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of request bodies: unknown fields are an error."""


BotName = Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9-]*$",
                                       description="A bot: `random` and the search levels `ismcts-1` .. `ismcts-3` "
                                                   "(every game) or one of the game's own (`bots` and `bot_levels` "
                                                   "in GET /v1/games)")]


class SeatRequest(Strict, frozen=True):
    """Who takes a seat: exactly one of a player, a bot the service plays itself, or an open seat to join later."""

    player: Handle | None = None
    bot: BotName | None = None
    open: Annotated[bool, msgspec.Meta(description="An open seat: the answer gives its join code; the match starts "
                                                   "when every open seat has been joined")] = False


SeedSource = Literal["server", "server+client", "caller", "server+seats"]
Visibility = Literal["public", "unlisted", "private"]
VISIBILITY_DOC = ("Who may watch the match: `public` (anyone; listed; counted in statistics and leaderboards), "
                  "`unlisted` (anyone who has its id; not listed nor counted) or `private` (only the app that created "
                  "it, as a spectator, and the match's seat tokens; to anyone else it does not exist)")
SEED_SOURCE_DOC = ("Who chose the seed: `server` (its secret alone), `server+client` (its secret mixed with the "
                   "players' `client_entropy`, which the server saw first), `server+seats` (option `entropy: "
                   "\"seats\"`: its committed secret part mixed with each seat's entropy, sent after the "
                   "commitment), or `caller` (a seed chosen at creation, for tests and teaching: never rated, never "
                   "counted in statistics or leaderboards)")
SERVER_COMMITMENT_DOC = ("SHA-256 (hex) of the server's secret part of the seed, published before any player's "
                         "entropy is accepted and opened at the end (`server_seed`, or `seed` when the server alone "
                         "chose it); null for a caller's seed (no server part) and for matches created before it "
                         "existed")
Entropy = Annotated[str, msgspec.Meta(min_length=1, max_length=256, description=(
    "1-256 characters of a seat's own choosing (e.g. 32 random bytes as hex, from the browser's "
    "`crypto.getRandomValues`). Public as soon as it is recorded; it cannot choose the deal, since the server's "
    "part was committed to first and stays secret until the end"))]


class CreateMatchRequest(Strict, frozen=True):
    """Body of POST /v1/matches."""

    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    seats: Annotated[list[SeatRequest], msgspec.Meta(min_length=1, max_length=8)]
    options: dict[str, Any] | None = None
    client_entropy: Annotated[str, msgspec.Meta(
        min_length=1, max_length=256,
        description="Text the creating app contributes, mixed into the seed at creation (public in the match). The "
                    "server sees it before it draws its own part, so it does NOT stop a dishonest server from "
                    "choosing the deal; it only shows, once the server's part is revealed, that the seed was "
                    "computed from this text. For a deal the server cannot choose, use option `entropy: \"seats\"`."
                    " Not allowed with it."),
    ] | None = None
    visibility: Annotated[Visibility, msgspec.Meta(description=VISIBILITY_DOC)] = "public"
    rules_version: Annotated[str, msgspec.Meta(
        pattern="^[0-9]{1,6}$",
        description="The rules edition to play (the game's `editions` in GET /v1/games/{game} list every one, all "
                    "offered): e.g. to finish a tournament under the rules it started with. Default: the current "
                    "edition. The match is played, viewed and verified under it to its end, whatever release the "
                    "server runs."),
    ] | None = None
    seed: Annotated[str, msgspec.Meta(
        min_length=1, max_length=256,
        description="For tests and teaching only: play with this seed. Whoever knows it knows every hand, so the "
                    "match is marked `seed_source: \"caller\"` everywhere and is never rated or counted in "
                    "statistics."),
    ] | None = None


class EditionInfo(msgspec.Struct, frozen=True):
    """One released edition of a game's rules: what it changed (with the rulebook passage behind each change), and
    its own options, deviations and DEFAULT data. Every edition is offered: create a match at it with
    `rules_version`."""

    rules_version: str
    released: str
    changes: list[str]
    options_schema: dict[str, Any]
    default_data: list[str]
    deviations: list[str]


class BotRating(msgspec.Struct, frozen=True):
    """A bot level's current rating in the game, as the leaderboard has it (conservative `ordinal` = mu - 3 sigma)."""

    ordinal: float
    mu: float
    sigma: float
    matches: int


class BotLevel(msgspec.Struct, frozen=True):
    """A bot a seat may take (`{"bot": name}`): its level (0 the weakest), what it does, the title people read for a
    seat it plays (the web page's), the player handle it plays and is rated under, and its current rating (null: not
    rated yet, or in the list of games, which reads none)."""

    name: str
    level: int
    description: str
    title: str
    handle: str
    rating: BotRating | None


class GameInfo(msgspec.Struct, frozen=True):
    """A game of the catalog, at its current edition (`rules_version`, the same as `current`), with every edition it
    has released (`editions`, oldest first; all offered for new matches)."""

    slug: str
    title: str
    min_seats: int
    max_seats: int
    cooperative: bool
    rules_version: str
    options_schema: dict[str, Any]
    default_data: list[str]
    deviations: list[str]
    commands: list[str]
    bots: list[str]
    current: str
    editions: list[EditionInfo]
    bot_levels: list[BotLevel] = []


class GameList(msgspec.Struct, frozen=True):
    """The catalog."""

    items: list[GameInfo]


class SeatToken(msgspec.Struct, frozen=True):
    """A seat with its secret token, or its join code while open: shown once, at creation."""

    seat: int
    player: Annotated[str | None, msgspec.Meta(description="null while the seat is open; `bot:<policy>` for a bot")]
    token: Annotated[str | None, msgspec.Meta(description="The seat's secret token (null for a bot or an open seat)")]
    join_code: Annotated[str | None, msgspec.Meta(description="An open seat's join code: whoever has it may take "
                                                              "the seat (POST /v1/matches/{id}/join)")] = None


class CreatedMatch(msgspec.Struct, frozen=True):
    """Answer to POST /v1/matches."""

    id: str
    game: str
    version: int
    seats: list[SeatToken]
    seed_commitment: str
    seed_source: Annotated[SeedSource, msgspec.Meta(description=SEED_SOURCE_DOC)]
    client_entropy: str | None
    visibility: Annotated[Visibility, msgspec.Meta(description=VISIBILITY_DOC)]
    head_hash: str
    rules_version: Annotated[str, msgspec.Meta(description="The rules edition the match is played under, to its end")]
    status: Annotated[Literal["open", "dealing", "active", "finished"], msgspec.Meta(
        description="`open` while some seats are open; `dealing` while the seats' entropy is awaited")] = "active"
    rematch_of: str | None = None
    server_seed_commitment: Annotated[str | None, msgspec.Meta(description=SERVER_COMMITMENT_DOC)] = None


class SeatInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat and its player (null while the seat is open; `bot:<policy>` for a bot), and its deadline if running."""

    seat: int
    player: str | None
    deadline_at: Annotated[str | None, msgspec.Meta(
        description="With a move deadline (option `move_deadline`), for a seat to move: when its time runs out "
                    "(the recorded time of the event that put it to move, plus the deadline). Given by GET "
                    "/v1/matches/{id} (a move's answer lists them as `deadlines`); left out in listings, other "
                    "answers, and for seats with none")] = None


class SeatResultOut(msgspec.Struct, frozen=True):
    """How a seat finished."""

    seat: int
    rank: int
    score: float
    winner: bool


class OutcomeOut(msgspec.Struct, frozen=True):
    """The recorded end of a match."""

    reason: str
    results: list[SeatResultOut]
    cooperative: bool
    team_won: bool | None


Status = Literal["open", "dealing", "active", "finished"]
STATUS_DOC = ("`open` until every open seat is taken (no set-up yet), then `active` (with option `entropy: "
              "\"seats\"`: `dealing` until every seat has added its entropy or `entropy_deadline` has run out, then "
              "`active`); `finished` once it ended (played out, resigned, or called off before it started or was "
              "dealt)")


class MatchSummary(msgspec.Struct, frozen=True):
    """A match in a listing."""

    id: str
    game: str
    status: Status
    version: int
    seats: list[SeatInfo]
    seed_source: Annotated[SeedSource, msgspec.Meta(description=SEED_SOURCE_DOC)]
    visibility: Annotated[Visibility, msgspec.Meta(description=VISIBILITY_DOC)]
    created_at: str
    updated_at: str


class MatchPage(msgspec.Struct, frozen=True):
    """One page of matches; pass `next_cursor` as `cursor` for the next."""

    items: list[MatchSummary]
    next_cursor: str | None


class MatchDetail(msgspec.Struct, frozen=True):
    """A match as the caller may see it."""

    id: str
    game: str
    rules_version: str
    status: Status
    version: int
    seats: list[SeatInfo]
    to_move: list[int]
    you: int | None
    view: Any
    outcome: OutcomeOut | None
    options: dict[str, Any]
    seed_commitment: str
    seed_source: Annotated[SeedSource, msgspec.Meta(description=SEED_SOURCE_DOC)]
    client_entropy: str | None
    visibility: Annotated[Visibility, msgspec.Meta(description=VISIBILITY_DOC)]
    seed: Annotated[str | None, msgspec.Meta(description="Revealed when the match ends")]
    server_seed: Annotated[str | None, msgspec.Meta(
        description="The server's part of a mixed seed, revealed when the match ends: with `client_entropy`, "
                    "seed = sha256(\"turnstile/mixed-seed/v1\\n\" + server_seed + \"\\n\" + client_entropy); with "
                    "option `entropy: \"seats\"`, seed = the deal seed of server_seed and the seats' entropy (README, "
                    "\"Fair deals\")")]
    head_hash: Annotated[str | None, msgspec.Meta(
        description="The hash of the last event: public at every moment (null only for a match recorded before "
                    "commitments existed, while its last event is redacted for the caller)")]
    legal: list[AnyCommand] | None  # type: ignore[valid-type]
    created_at: str
    updated_at: str
    rematch_of: Annotated[str | None, msgspec.Meta(description="The match this one is the rematch of")] = None
    rematch: Annotated[str | None, msgspec.Meta(description="This match's rematch, once one was created")] = None
    server_seed_commitment: Annotated[str | None, msgspec.Meta(description=SERVER_COMMITMENT_DOC)] = None
    entropy: Annotated[list[str | None], msgspec.Meta(
        description="Option `entropy: \"seats\"`: each seat's entropy as recorded (null: none yet, or absent at the "
                    "deal); empty otherwise")] = []


class LegalMoves(msgspec.Struct, frozen=True):
    """Every move the caller's seat may send now (resigning, `match.resign`, is always possible too)."""

    version: int
    seat: int
    moves: list[AnyCommand]  # type: ignore[valid-type]


class MoveRequest(Strict, frozen=True):
    """Body of POST /v1/matches/{id}/moves."""

    move: AnyCommand  # type: ignore[valid-type]
    expected_version: int | None = None


class RecordedEvent(msgspec.Struct, frozen=True, omit_defaults=True):
    """An event of a match's log, as the caller may see it.

    Every event's `hash` is public at every moment: it covers the event as a spectator sees it and `commitment`,
    a salted hash of the whole event (and the command behind it) whose salt comes from the seed, revealed at the
    end. A spectator's log therefore verifies as a chain during play, and nothing hidden can be guessed from it.
    (Matches recorded before commitments existed have no `commitment`; there `hash` is null while the event is
    redacted for the caller, and `prev_hash` while the previous one is.)
    """

    version: int
    position: int
    recorded_at: str
    seat: int | None
    hash: str | None
    prev_hash: str | None
    commitment: str | None
    event: AnyEvent  # type: ignore[valid-type]
    # Asked for with `include=text`: the event in one sentence, as the caller may see it ("Grace drew 3 cards").
    text: str | None = None


class SeatDeadline(msgspec.Struct, frozen=True):
    """A seat to move and when its time runs out (option `move_deadline`)."""

    seat: int
    deadline_at: str


class MoveResult(msgspec.Struct, frozen=True):
    """Answer to a move: the match's new version, its global position, the events as the mover sees them, who is
    to move now (and, with a move deadline, until when), and (asked with `?include=view,legal`) the mover's new
    view and legal moves, so a client needs one request per move. A retried Idempotency-Key answers with the first
    answer's events (`duplicate: true`) and the match as it is now."""

    version: int
    position: int
    events: list[RecordedEvent]
    duplicate: bool
    status: Status
    to_move: list[int]
    view: Any = None
    legal: list[AnyCommand] | None = None  # type: ignore[valid-type]
    deadlines: Annotated[list[SeatDeadline], msgspec.Meta(
        description="With a move deadline (option `move_deadline`): each seat to move now and when its time runs "
                    "out, as GET /v1/matches/{id} gives it per seat; empty otherwise")] = []


class JoinRequest(Strict, frozen=True):
    """Body of POST /v1/matches/{id}/join."""

    code: Annotated[str, msgspec.Meta(min_length=1, max_length=128, description="The open seat's join code")]
    player: Handle
    entropy: Annotated[str, msgspec.Meta(
        min_length=1, max_length=256,
        description="Option `entropy: \"seats\"`: the seat's entropy (1-256 characters), added right after the "
                    "join (it may also be sent later, with the seat's token, to POST /v1/matches/{id}/entropy)"),
    ] | None = None


class EntropyRequest(Strict, frozen=True):
    """Body of POST /v1/matches/{id}/entropy."""

    entropy: Entropy


class EntropyAnswer(msgspec.Struct, frozen=True):
    """Answer to a seat's entropy: the seat, the match's version and status now (`active` once dealt: the deal
    happens when every seat's entropy is in), who is to move, and every seat's entropy as recorded so far."""

    seat: int
    version: int
    status: Annotated[Status, msgspec.Meta(description=STATUS_DOC)]
    to_move: list[int]
    entropy: list[str | None]


class JoinedSeat(msgspec.Struct, frozen=True):
    """Answer to a join: the seat taken and its secret token (shown only here), and the match now."""

    seat: int
    player: str
    token: str
    version: int
    status: Annotated[Status, msgspec.Meta(description=STATUS_DOC)]
    to_move: list[int]


class EventPage(msgspec.Struct, frozen=True):
    """One page of a match's log; pass `next_after` as `after` for the next."""

    items: list[RecordedEvent]
    next_after: int | None

