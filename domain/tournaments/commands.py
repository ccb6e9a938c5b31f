"""Tournament commands: what the service asks of a tournament (unknown fields forbidden), judged by
`domain.tournaments.decide`."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.engine import Command
from domain.tournaments.events import EntrantResult


class EntryOf(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An entrant that is not a plain handle: a bot, `{"bot": "random", "name": "r1"}` (each bot its own name), or
    a team of a cooperative game, `{"team": "blue", "members": ["ann", "bo"]}` (its members hold its seats)."""

    bot: str | None = None
    name: str | None = None
    team: str | None = None
    members: tuple[str, ...] = ()


# A handle, a bot or team, or None: an open place, filled by `Join`.
EntrantSpec = str | EntryOf | None


class CreateTournament(Command, frozen=True, tag="tournament.create"):
    """Create a tournament. `seed_commitment` is the service's: SHA-256 of the secret seed it keeps."""

    game: str
    format: str
    entrants: tuple[EntrantSpec, ...]
    seats: int
    seed_commitment: str
    rules_version: str | None = None
    rounds: int | None = None
    table_size: int | None = None
    advance: int | None = None
    seeding: str = "random"
    options: dict[str, Any] = {}
    visibility: str = "public"
    move_deadline: int | None = None


class Join(Command, frozen=True, tag="tournament.join"):
    """Fill an open place (`entrant`, or the first open one) with a player, or with a team (`members`)."""

    handle: str
    entrant: int | None = None
    members: tuple[str, ...] = ()


class Withdraw(Command, frozen=True, tag="tournament.withdraw"):
    """Entrant `entrant` leaves the tournament."""

    entrant: int


class Start(Command, frozen=True, tag="tournament.start"):
    """Close entries and pair round 1. `entropy`: the organiser's, mixed into the seed committed at creation
    (`played_seed`), so the server could not choose the seed the tournament is played from."""

    entropy: str | None = None


class OpenTable(Command, frozen=True, tag="tournament.open-table"):
    """Record the match the service created for a table (cooperative: for one team of it)."""

    round: int
    table: int
    match_id: str
    entrants: tuple[int, ...] = ()


class RecordResult(Command, frozen=True, tag="tournament.record-result"):
    """Record the result of a table's match, as its `match.ended` says."""

    round: int
    table: int
    results: tuple[EntrantResult, ...]
    match_id: str = ""


class Advance(Command, frozen=True, tag="tournament.advance"):
    """End the current round once every table has its result: pair the next round or finish."""


TOURNAMENT_COMMANDS: tuple[type[Command], ...] = (CreateTournament, Join, Withdraw, Start, OpenTable, RecordResult,
                                                  Advance)
