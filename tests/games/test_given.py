"""The given/when/then helper can fail: run against a deliberately broken copy of a game, it says so."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domain.engine import Command, Game
from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import Board, EndActions
from domain.games.expect_delays.events import ActionTaken
from tests.games.expect_delays.tables import UPTOWN, table
from tests.games.given import given


def with_legal(listed: list[Command]) -> Game[Any]:
    """Expect Delays whose `legal` lists exactly `listed`."""
    return dataclasses.replace(GAME, legal=lambda state, seat: listed)


def test_a_refused_command_that_legal_lists_fails_the_test() -> None:
    """`then_refused` also checks that `legal` does not list the command."""
    given(GAME, table()).when(Board(line="Q7")).then_refused("no-such-line")
    with pytest.raises(AssertionError, match="refused but listed"):
        given(with_legal([Board(line="Q7")]), table()).when(Board(line="Q7")).then_refused("no-such-line")


def test_an_accepted_command_that_legal_leaves_out_fails_the_test() -> None:
    """`events` (and `then`, `state`) also check that `legal` lists the accepted command."""
    assert given(GAME, table()).when(UPTOWN, EndActions()).events
    with pytest.raises(AssertionError, match="accepted but not listed"):
        _ = given(with_legal([]), table()).when(UPTOWN, EndActions()).events


def test_then_fails_on_other_events_and_then_refused_on_another_code() -> None:
    """The two verdicts compare what happened with what the rule says."""
    state = table(hands=(("T01",), ()), fare_swipes=(2, 2))
    with pytest.raises(AssertionError):
        given(GAME, state).when(Board(line="U1")).then(ActionTaken(seat=UPTOWN, action="board"))
    with pytest.raises(AssertionError):
        given(GAME, state).when(Board(line="Q7")).then_refused("stop-occupied")
