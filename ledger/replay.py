"""A record replayed: the state after any of its versions, folded with nothing re-rolled, and a text picture of it."""

from __future__ import annotations

from typing import Any

from domain import match
from domain.catalog import game_of
from domain.codec import event_from_builtins
from domain.engine import Game
from domain.match import MatchState
from ledger.records import Record


class UnknownVersion(Exception):
    """The match has no such version (yet)."""

    def __init__(self, version: int, latest: int) -> None:
        super().__init__(f"the match is at version {latest}; there is no version {version}")
        self.version = version
        self.latest = latest


class NotReplayable(Exception):
    """A record withholds hidden information up to the asked version, so it cannot be folded."""


def replay(record: Record, to_version: int | None) -> tuple[Game[Any], MatchState, bool]:
    """The state after event `to_version` (None: the last) of a record, a plain fold with nothing re-rolled,
    and whether its set-up is complete."""
    game = game_of(record.header.game, record.header.rules_version)
    lines = record.lines
    version = len(lines) if to_version is None else to_version
    if not 1 <= version <= len(lines):
        raise UnknownVersion(version, len(lines))
    prefix = lines[:version]
    if any(line.redacted for line in prefix):
        raise NotReplayable("the record withholds hidden information up to this version; replay it after the end")
    state = match.fold(game, [event_from_builtins(game, line.event) for line in prefix])
    set_up = version == len(lines) or any(line.command is not None for line in lines[:version + 1])
    return game, state, set_up and state.game_state is not None


def picture(game: Game[Any], state: MatchState, latest: int, set_up: bool = True) -> str:
    """A text picture of the table at a state, with a line saying where in the match it is."""
    status = f", ended: {state.ended.reason}" if state.ended is not None else ""
    head = f"{game.slug}, version {state.version} of {latest}{status}\n"
    if not set_up:
        return head + "(no table yet: the match is being set up)\n"
    return head + game.render(state.game_state)
