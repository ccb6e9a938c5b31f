"""The tournaments' half of the store: rows, hash-chained event streams and the matches each one opened.

A tournament's events are chained like a match's (ledger/chain.py: `event_hash` with the tournament's id for the
match id, no seat and no command), so `verify_chain` checks them as it checks a match; they are kept beside the
matches', not in the global log (the projections fold matches only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from ledger.events import StoredEvent, Visibility


class NewTournament(msgspec.Struct, frozen=True, kw_only=True):
    """What the tournament service hands the store to open a tournament.

    `seed` drives every pairing and each match's deal; it stays secret until the tournament finishes. `token_secret`
    never leaves the server: it derives the seat tokens of the tournament's matches, which only the owning app is
    told of. `places` maps each open place (entrant index, as text) to the hash of its join code.
    """

    id: str
    game: str
    format: str
    owner: str | None
    visibility: Visibility
    seed: str
    token_secret: str
    places: dict[str, str] = {}


class TournamentRecord(NewTournament, frozen=True, kw_only=True):
    """A tournament row: what the service asked for, plus what the store keeps current with every append."""

    status: str  # "open" | "running" | "finished"
    version: int
    head_hash: str
    created_at: str
    updated_at: str


class TournamentLink(msgspec.Struct, frozen=True):
    """The tournament, round and table a match was opened for, and the tournament's owner and token secret."""

    tournament_id: str
    round: int
    table: int
    owner: str | None
    token_secret: str


def status_after(payloads: Sequence[dict[str, Any]], status: str) -> str:
    """The row's status once these events are appended."""
    for payload in payloads:
        if payload["type"] == "tournament.started":
            status = "running"
        elif payload["type"] == "tournament.finished":
            status = "finished"
    return status


class TournamentNotFound(Exception):
    """No tournament has this id."""

    def __init__(self, tournament_id: str) -> None:
        super().__init__(f"tournament {tournament_id} not found")
        self.tournament_id = tournament_id


class TooManyRunning(Exception):
    """A start refused: the tournament's owner already has `running` tournaments running, its cap."""

    def __init__(self, owner: str, running: int) -> None:
        super().__init__(f"{owner} has {running} tournaments running")
        self.owner, self.running = owner, running


class TournamentStore(Protocol):
    """Tournament rows and streams (events are `StoredEvent`s whose `match_id` is the tournament's id)."""

    def create_tournament(self, tournament: NewTournament, payload: dict[str, Any]) -> TournamentRecord:
        """Insert the row and event 1 (`tournament.created`, this payload) in one transaction."""
        ...

    def append_tournament(self, tournament_id: str, expected_version: int,
                          payloads: Sequence[dict[str, Any]], *, running_cap: int | None = None) -> list[StoredEvent]:
        """Append events at expected_version+1.. atomically (ConflictError when the stream moved on). The row's
        status follows them: `tournament.started` makes it running, `tournament.finished` finished. With
        `running_cap`, a `tournament.started` is appended only if the owner has fewer tournaments running, counted
        in the append's transaction with every other such count of the owner's excluded (TooManyRunning)."""
        ...

    def tournament_with_events(self, tournament_id: str,
                               from_version: int = 1) -> tuple[TournamentRecord, list[StoredEvent]]:
        """The row and its events from `from_version` up to the row's version (TournamentNotFound)."""
        ...

    def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        """The row, or None."""
        ...

    def list_tournaments(self, *, reader: str | None, mine: bool = False, game: str | None = None,
                         status: str | None = None, after: tuple[str, str] | None = None,
                         limit: int = 50) -> list[TournamentRecord]:
        """Newest first by (created_at, id): the public ones and `reader`'s own (`mine`: its own only)."""
        ...

    def running_tournaments(self, limit: int = 100) -> list[str]:
        """Ids of the tournaments being played (for the sweep that catches up after a crash)."""
        ...

    def link_tournament_match(self, match_id: str, tournament_id: str, round: int, table: int) -> None:
        """Name the tournament, round and table of a match about to be created (harmless when repeated)."""
        ...

    def dealing_tournament_matches(self, tournament_id: str) -> list[tuple[str, int]]:
        """(match id, round) of each match opened for the tournament that is still `dealing` (waiting for its seats'
        entropy): what must be called off before the tournament reveals its seed."""
        ...

    def orphaned_dealing_matches(self, limit: int = 100) -> list[tuple[str, str]]:
        """(match id, tournament id) of each match still `dealing` of a tournament that has finished: what a crash
        left uncalled-off (the sweep calls them off; the seed stays hidden meanwhile)."""
        ...

    def tournament_link(self, match_id: str) -> TournamentLink | None:
        """The tournament a match was opened for, or None."""
        ...
