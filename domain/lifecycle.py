"""Shared lifecycle vocabulary: the events and commands every game's match stream uses.

These keep statistics game-agnostic: a projection reads `match.started` and `match.ended`
and never needs a game's own events.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Command, Event, SeatResult

SEED_SOURCES = ("server", "server+client", "caller")
VISIBILITIES = ("public", "unlisted", "private")


class MatchStarted(Event, frozen=True, tag="match.started", omit_defaults=True):
    """Version 1 of every match: the game, its seats (player handles), options and seed commitment.

    `seed_source` says who chose the seed: the server alone, the server mixed with the players' public
    `client_entropy`, or the caller (tests and teaching: such a match is never rated). `visibility` says who may
    watch it: anyone (`public`, counted in statistics), whoever has its id (`unlisted`) or only its app and seats
    (`private`). All three are left out of the JSON at their defaults, so records written before they existed
    read the same.
    """

    game: str
    rules_version: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed_commitment: str
    seed_source: str = "server"
    client_entropy: str | None = None
    visibility: str = "public"


class SeatResigned(Event, frozen=True, tag="match.seat-resigned"):
    """A seat gave up; the match ends with that seat ranked last."""

    seat: int


class MatchEnded(Event, frozen=True, tag="match.ended"):
    """The final event: per-seat results and why the match ended."""

    reason: str
    results: tuple[SeatResult, ...]
    cooperative: bool = False
    team_won: bool | None = None


class Resign(Command, frozen=True, tag="match.resign"):
    """Give up the match (any seat, any time while it is active)."""


LIFECYCLE_EVENTS: tuple[type[Event], ...] = (MatchStarted, SeatResigned, MatchEnded)
LIFECYCLE_COMMANDS: tuple[type[Command], ...] = (Resign,)
