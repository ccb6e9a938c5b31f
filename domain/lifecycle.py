"""Shared lifecycle vocabulary: the events and commands every game's match stream uses.

These keep statistics game-agnostic: a projection reads `match.started` and `match.ended`
and never needs a game's own events.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Command, Event, SeatResult


class MatchStarted(Event, frozen=True, tag="match.started"):
    """Version 1 of every match: the game, its seats (player handles), options and seed commitment."""

    game: str
    rules_version: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed_commitment: str


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
