"""Tournament events: the facts a tournament stream records (issue 30), tagged `tournament.<fact>`.

Entrants are named by their index in `tournament.created`'s `entrants` (entry order) everywhere after it. Every new
field gets a default, so records written before it read the same (docs/STYLE: events are a public contract).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.engine import Event

FORMATS = ("round-robin", "swiss", "knockout")
FORFEITS = ("deadline", "resignation", "withdrawal")


class Entrant(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One place of a tournament: a player's `handle`, a bot (`bot` policy and its own `name`), or an open place
    (all empty) until `tournament.player-joined` fills it. In a cooperative game's tournament an entrant is a team:
    `members` are the handles holding its match's seats in order (empty: `handle` holds every seat)."""

    handle: str | None = None
    bot: str | None = None
    name: str | None = None
    members: tuple[str, ...] = ()

    @property
    def open(self) -> bool:
        """True while nobody holds this place."""
        return self.handle is None and self.bot is None


class TournamentCreated(Event, frozen=True, tag="tournament.created", omit_defaults=True):
    """Version 1: the game and edition, the format, the entrants and the commitment to the secret seed.

    `seats`: seats of each match. `table_size`: entrants compared at one table (a competitive game: `seats`; a
    cooperative one: teams playing the same deal, each in its own match). `rounds`: Swiss only (the others derive
    theirs). `advance`: knockout, how many of each table go on. `seeding`: knockout, `random` (from the seed) or
    `entry` (entry order).
    """

    game: str
    rules_version: str
    format: str
    seats: int
    table_size: int
    entrants: tuple[Entrant, ...]
    seed_commitment: str
    options: dict[str, Any] = {}
    rounds: int | None = None
    advance: int = 1
    seeding: str = "random"
    cooperative: bool = False
    visibility: str = "public"
    move_deadline: int | None = None


class PlayerJoined(Event, frozen=True, tag="tournament.player-joined", omit_defaults=True):
    """An open place was filled."""

    entrant: int
    handle: str
    members: tuple[str, ...] = ()


class PlayerWithdrawn(Event, frozen=True, tag="tournament.player-withdrawn"):
    """An entrant left: never paired again; a table it had pending is forfeited (a `match-result` follows)."""

    entrant: int


class TournamentStarted(Event, frozen=True, tag="tournament.started", omit_defaults=True):
    """Entries closed. `order`: the entrants in seeding order, drawn from `Rng.derive(played seed, 1)` (round robin
    and random knockout seeding read it). `rounds`: the rounds planned when nobody withdraws."""

    order: tuple[int, ...]
    rounds: int
    # The organiser's entropy given at the start: from here on the tournament is played from `played_seed(seed,
    # entropy)`, the seed committed at creation mixed with it (absent: from the committed seed itself).
    entropy: str | None = None


class RoundPaired(Event, frozen=True, tag="tournament.round-paired", omit_defaults=True):
    """Round `round`'s tables (entrant indices in seat order) and byes: a pure function of the record so far, the
    format and `Rng.derive(seed, round)` (domain/tournaments/formats.py)."""

    round: int
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


class TableOpened(Event, frozen=True, tag="tournament.table-opened", omit_defaults=True):
    """The service created the match of a table. `entrants`: the team playing it (cooperative: one match per team
    at a table); empty for a competitive table, whose one match seats the whole table."""

    round: int
    table: int
    match_id: str
    entrants: tuple[int, ...] = ()


class EntrantResult(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How one entrant finished its match: competitive `rank` (1 best) and `score`; a cooperative team's `won`,
    `score` (Mass Transit: Commuters home) and `turns`; `forfeit` when it lost by deadline, resignation or
    withdrawal."""

    entrant: int
    rank: int = 0
    score: float = 0.0
    won: bool | None = None
    turns: int | None = None
    forfeit: str | None = None


class MatchResult(Event, frozen=True, tag="tournament.match-result", omit_defaults=True):
    """The result of one match of a table (from its `match.ended`; the verifier checks that match too)."""

    round: int
    table: int
    results: tuple[EntrantResult, ...]
    match_id: str = ""


class Standing(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One line of the standings: place (1 best, never shared), points and the format's named tie-breaks."""

    place: int
    entrant: int
    points: float
    tiebreaks: dict[str, float] = {}
    withdrawn: bool = False


class RoundEnded(Event, frozen=True, tag="tournament.round-ended"):
    """Every table of round `round` has its result: the standings after it."""

    round: int
    standings: tuple[Standing, ...]


class TournamentFinished(Event, frozen=True, tag="tournament.finished"):
    """The last round ended: the final standings."""

    standings: tuple[Standing, ...]


TOURNAMENT_EVENTS: tuple[type[Event], ...] = (
    TournamentCreated, PlayerJoined, PlayerWithdrawn, TournamentStarted, RoundPaired, TableOpened, MatchResult,
    RoundEnded, TournamentFinished,
)
# Any tournament event, decoded by its `type` (msgspec.json.decode(data, type=TournamentEvent)).
TournamentEvent = (TournamentCreated | PlayerJoined | PlayerWithdrawn | TournamentStarted | RoundPaired | TableOpened
                   | MatchResult | RoundEnded | TournamentFinished)
