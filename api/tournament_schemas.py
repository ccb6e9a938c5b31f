"""The typed bodies of the tournament endpoints (issue 30), and the conversion of a tournament to its view."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec

from api.schemas import VISIBILITY_DOC, BotName, Handle, Strict, Visibility
from domain.engine import Refusal
from domain.tournaments import TournamentState, standings
from domain.tournaments.commands import CreateTournament, EntrantSpec, EntryOf
from domain.tournaments.events import Entrant, EntrantResult, Standing
from domain.tournaments.standings import TIEBREAKS
from service.tournaments.tournaments import LoadedTournament

Format = Literal["round-robin", "swiss", "knockout"]
TournamentStatus = Literal["open", "running", "finished"]
MAX_PLAYERS = 64
MAX_ROUNDS = 50
MAX_DEADLINE_S = 7 * 24 * 3600
HANDLE = re.compile(r"[A-Za-z0-9_.@-]{1,64}")


class TournamentPlayer(Strict, frozen=True):
    """An entrant that is not a bare handle: a bot with its own `name` (`{"bot": "random", "name": "r1"}`), a team of
    a cooperative game (`{"team": "blue", "members": ["ann", "bo"]}`, one member a seat), or `{"open": true}`: an
    open place, filled with its join code."""

    bot: BotName | None = None
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.@-]+$")] | None = None
    team: Handle | None = None
    members: Annotated[list[str], msgspec.Meta(max_length=8, description="Handles, one a seat")] = []
    open: bool = False


class CreateTournamentRequest(Strict, frozen=True):
    """Body of POST /v1/tournaments."""

    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    format: Annotated[Format, msgspec.Meta(description=(
        "`round-robin` (every pairing, or every table of `seats`, once), `swiss` (`rounds` rounds, tables among "
        "entrants of similar points, no repeated opponents while avoidable) or `knockout` (the winner of each "
        "table goes on; at more seats the top `advance`)"))]
    players: Annotated[list[str | TournamentPlayer], msgspec.Meta(min_length=2, max_length=MAX_PLAYERS, description=(
        "The entrants in entry order: handles, bots (`{\"bot\": \"random\", \"name\": \"r1\"}`), teams of a "
        "cooperative game (`{\"team\": …, \"members\": […]}`) or open places (`{\"open\": true}`: each gets a join "
        "code in the answer)"))]
    # Numbers carry no bounds in the schema: the rules refuse what is out of range (422, with the setting's code).
    seats: Annotated[int, msgspec.Meta(description="Seats of each match (cooperative games: of each team's)")] = 2
    rounds: Annotated[int, msgspec.Meta(description=f"Swiss only: how many rounds (1-{MAX_ROUNDS})")] | None = None
    table_size: Annotated[int, msgspec.Meta(description=(
        "Cooperative games: teams compared at a table, each playing its own match (default 2)"))] | None = None
    advance: Annotated[int, msgspec.Meta(description=(
        "Knockout: how many of each table go on (default 1 at two seats, else half the table, rounded up)"
    ))] | None = None
    seeding: Annotated[Literal["random", "entry"], msgspec.Meta(description=(
        "The seeded order (round robin's schedule, knockout's bracket, Swiss's last tie-break): drawn from the "
        "tournament's seed, or the entry order"))] = "random"
    options: Annotated[dict[str, Any], msgspec.Meta(description="The game's options for every match")] = {}
    rules_version: Annotated[str, msgspec.Meta(pattern="^[0-9]{1,6}$", description=(
        "The rules edition every match is played under (default: the current one), kept to the end"))] | None = None
    visibility: Annotated[Visibility, msgspec.Meta(description=VISIBILITY_DOC + "; its matches have the same")] = \
        "public"
    move_deadline: Annotated[int, msgspec.Meta(description=(
        f"Seconds a seat has for each move in every match (1-{MAX_DEADLINE_S}); a seat that runs out forfeits its "
        "match"))] | None = None

    def command(self) -> CreateTournament:
        """The domain's create command (the service adds its seed commitment), or a refusal of a setting the rules
        leave to the service (handles, the number of Swiss rounds, the move deadline)."""
        if self.rounds is not None and not 1 <= self.rounds <= MAX_ROUNDS:
            raise Refusal("bad-rounds", f"a Swiss tournament plays 1 to {MAX_ROUNDS} rounds")
        if self.move_deadline is not None and not 1 <= self.move_deadline <= MAX_DEADLINE_S:
            raise Refusal("bad-option", f"a move deadline is 1 to {MAX_DEADLINE_S} seconds")
        return CreateTournament(
            game=self.game, format=self.format, entrants=tuple(_spec(p) for p in self.players), seats=self.seats,
            seed_commitment="", rules_version=self.rules_version, rounds=self.rounds, table_size=self.table_size,
            advance=self.advance, seeding=self.seeding, options=self.options, visibility=self.visibility,
            move_deadline=self.move_deadline)


def check_handles(*handles: str) -> None:
    """Handles as a match's players take them (letters, digits, `_.@-`; 1 to 64), or a `bad-entrant` refusal."""
    for handle in handles:
        if not HANDLE.fullmatch(handle):
            raise Refusal("bad-entrant", f"{handle[:70]!r} is not a player handle (1-64 of A-Z a-z 0-9 _ . @ -)")


def _spec(player: str | TournamentPlayer) -> EntrantSpec:
    if isinstance(player, str):
        check_handles(player)
        return player
    check_handles(*player.members, *([player.team] if player.team is not None else []))
    if player.open:
        if player.bot or player.name or player.team or player.members:
            raise Refusal("bad-entrant", "an open place names nobody: `{\"open\": true}` alone")
        return None
    return EntryOf(bot=player.bot, name=player.name, team=player.team, members=tuple(player.members))


class JoinTournamentRequest(Strict, frozen=True):
    """Body of POST /v1/tournaments/{id}/join: the open place's join code and who takes it."""

    code: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    player: Handle
    members: Annotated[list[str], msgspec.Meta(max_length=8, description=(
        "A cooperative game's team: one member a seat (`player` names the team)"))] = []


class StartTournamentRequest(Strict, frozen=True):
    """Body of POST /v1/tournaments/{id}/start (optional)."""

    entropy: Annotated[str, msgspec.Meta(min_length=1, max_length=256, description=(
        "1-256 characters of the organiser's own choosing (e.g. 32 random bytes as hex), mixed into the seed the "
        "tournament committed to at its creation: the seed played from then on is neither the server's alone (it "
        "committed first) nor the organiser's (it did not know the server's). Recorded in `tournament.started`; "
        "without it the committed seed is played"))] | None = None


class WithdrawRequest(Strict, frozen=True):
    """Body of POST /v1/tournaments/{id}/withdraw."""

    entrant: Annotated[int, msgspec.Meta(description="The entrant's index (entry order)")]


class TournamentVerificationRequest(Strict, frozen=True):
    """Body of POST /v1/tournaments/verifications: a record as GET /v1/tournaments/{id}/record gave it, as JSON text
    (a record is checked as it was written, so it is sent as its text, as a match record is)."""

    record: Annotated[str, msgspec.Meta(min_length=1, description="The JSON text of GET /v1/tournaments/{id}/record")]


class EntrantView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One place: a player's `handle`, a bot (`bot` and its `name`), a team (`handle` and `members`), or open."""

    entrant: int
    handle: str | None = None
    bot: str | None = None
    name: str | None = None
    members: list[str] = []
    open: bool = False
    withdrawn: bool = False


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round: its entrants in seat order, its match (one per team at a cooperative table) and the
    results recorded so far."""

    table: int
    players: list[int]
    matches: list[str]
    results: list[EntrantResult]
    done: bool


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    """One round: its tables, byes, and the standings after it once it has ended."""

    round: int
    tables: list[TableView]
    byes: list[int]
    standings: list[Standing] | None = None


class TournamentSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament in a list."""

    id: str
    game: str
    format: Format
    status: TournamentStatus
    visibility: Visibility
    created_at: str


class TournamentDetail(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament: its settings, entrants, rounds (tables, matches, results) and standings (final once it has
    finished; else after the last ended round, ties broken by the format's tie-breaks). `seed` is revealed when it
    finishes (its SHA-256 is `seed_commitment`, published at creation); `entropy`, the organiser's given at the
    start, is mixed into it (the seed played: `played_seed`, README "Tournaments")."""

    id: str
    game: str
    rules_version: str
    format: Format
    status: TournamentStatus
    visibility: Visibility
    seats: int
    table_size: int
    rounds_planned: int
    rounds: list[RoundView]
    players: list[EntrantView]
    standings: list[Standing]
    tiebreaks: list[str]
    seed_commitment: str
    version: int
    head_hash: str
    created_at: str
    options: dict[str, Any] = {}
    move_deadline: int | None = None
    seed: str | None = None
    entropy: str | None = None


class PlaceCode(msgspec.Struct, frozen=True):
    """The join code of an open place (shown once)."""

    entrant: int
    code: str


class CreatedTournament(TournamentDetail, frozen=True, kw_only=True):
    """A new tournament, with the join code of each open place (shown only in this answer)."""

    join_codes: list[PlaceCode] = []


class TournamentPage(msgspec.Struct, frozen=True):
    """A page of tournaments; follow `next_cursor`."""

    items: list[TournamentSummary]
    next_cursor: str | None = None


def entrant_view(index: int, entrant: Entrant, state: TournamentState) -> EntrantView:
    """One place as anyone may see it."""
    return EntrantView(entrant=index, handle=entrant.handle, bot=entrant.bot, name=entrant.name,
                       members=list(entrant.members), open=entrant.open, withdrawn=index in state.withdrawn)


def detail(loaded: LoadedTournament, seed: str | None = None) -> TournamentDetail:
    """The view of a tournament (nothing secret: `seed` as the service reveals it, `TournamentService.revealed_seed`:
    only once it has finished with no match still dealing)."""
    record, state = loaded.record, loaded.state
    created = state.created
    rounds = [RoundView(round=r.number, byes=list(r.byes), standings=None if r.standings is None else
                        list(r.standings),
                        tables=[TableView(table=t, players=list(table), matches=[m.match_id for m in r.matches[t]],
                                          results=list(r.results[t]), done=r.table_done(t))
                                for t, table in enumerate(r.tables)]) for r in state.rounds]
    return TournamentDetail(
        id=record.id, game=created.game, rules_version=created.rules_version, format=created.format,  # type: ignore[arg-type]
        status=record.status, visibility=record.visibility, seats=created.seats,  # type: ignore[arg-type]
        table_size=created.table_size, rounds_planned=state.planned_rounds, rounds=rounds,
        players=[entrant_view(i, e, state) for i, e in enumerate(state.entrants)],
        standings=list(state.final if state.final is not None else standings(state)),
        tiebreaks=list(TIEBREAKS[created.format]), seed_commitment=created.seed_commitment, version=record.version,
        head_hash=record.head_hash, created_at=record.created_at, options=dict(created.options),
        move_deadline=created.move_deadline, seed=seed if state.finished else None,
        entropy=state.start_entropy)


def created_view(loaded: LoadedTournament, codes: dict[int, str]) -> CreatedTournament:
    """The answer to a creation: the view and the open places' join codes."""
    return CreatedTournament(**msgspec.structs.asdict(detail(loaded)),
                             join_codes=[PlaceCode(entrant=i, code=c) for i, c in sorted(codes.items())])



class TournamentPlace(msgspec.Struct, frozen=True):
    """Where in a tournament a match was played: the tournament, its round (1 first) and the table (0 first)."""

    tournament_id: str
    round: int
    table: int


class MatchTournament(msgspec.Struct, frozen=True):
    """The tournament a match was opened for (null: a match of its own)."""

    tournament: TournamentPlace | None
