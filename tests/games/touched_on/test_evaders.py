"""Rules section 4 (Evaders), the Priority Seat and Peak Hour notes (section 11); worked example 2."""

from __future__ import annotations

from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.commands import Draw, EndTurn, PeakHour, PlayEvaders
from tests.games.given import given
from tests.games.touched_on.tables import PEAK, SEAT, SEAT_2, carriage, evaders, replace, table

L1, L2, L3, L4 = evaders("L1", 1, 2), evaders("L2", 1, 2), evaders("L3", 1, 2), evaders("L4", 1, 2)


def test_the_first_evaders_of_a_journey_may_go_on_any_line() -> None:
    """Reading 3: before any carriage exists, there is no current line to follow."""
    state = table([[*L1, *L3], ["EV-L2-9"], ["EV-L2-8"]])
    lines = {c.line for c in GAME.legal(state, 0) if isinstance(c, PlayEvaders)}
    assert lines == {"L1", "L3"}
    events = given(GAME, state).when(PlayEvaders(line="L3", count=2)).events
    assert events == [ev.EvadersPlayed(seat=0, line="L3", cards=L3, new_carriage=True)]


def test_evaders_on_the_current_line_continue_the_carriage() -> None:
    """Rules 4: 'You can play Evaders either on the current line — which will continue the current carriage'
    (worked example 2); reading 7: the carriage is now the player's who added to it last."""
    state = table([[*L2], ["EV-L2-9"]], current_line="L2", carriage_open=True,
                  carriages=(carriage("L2", 1, "EV-L2-5"),))
    state = given(GAME, state).when(PlayEvaders(line="L2", count=2)).state
    assert state.carriages == (carriage("L2", 0, "EV-L2-5", *L2),)


def test_evaders_on_an_adjacent_line_start_a_new_carriage() -> None:
    """Rules 4: '... or a line immediately next to it — to start a new carriage' (worked example 2)."""
    state = table([[*L1, *L3], ["EV-L2-9"], ["EV-L4-9"]], current_line="L2", carriage_open=True,
                  carriages=(carriage("L2", 2, "EV-L2-5"),))
    events = given(GAME, state).when(PlayEvaders(line="L1", count=1)).events
    assert events == [ev.EvadersPlayed(seat=0, line="L1", cards=("EV-L1-1",), new_carriage=True)]
    state = given(GAME, state).when(PlayEvaders(line="L3", count=2)).state
    assert state.current_line == "L3" and state.carriages[-1] == carriage("L3", 0, *L3)


def test_a_line_cannot_be_skipped() -> None:
    """Rules 4: 'Lines cannot be skipped' (worked example 2); reading 3: no wrap-around."""
    state = table([[*L3, *L4], ["EV-L2-9"], ["EV-L4-9"], ["EV-L4-8"]], current_line="L1", draw=["EV-L1-9"],
                  carriages=(carriage("L1", 3, "EV-L1-5"),), carriage_open=True)
    given(GAME, state).when(PlayEvaders(line="L3", count=1)).then_refused("line-not-reachable")
    given(GAME, state).when(PlayEvaders(line="L4", count=1)).then_refused("line-not-reachable")
    assert GAME.legal(state, 0) == [Draw()]  # nothing playable: draw


def test_evaders_must_be_held_and_of_one_line() -> None:
    """Rules 4: the Evaders go on their given line; you play only cards you hold (reading 4)."""
    state = table([[*L1], ["EV-L2-9"]])
    given(GAME, state).when(PlayEvaders(line="L1", count=3)).then_refused("not-in-hand")
    given(GAME, state).when(PlayEvaders(line="L2", count=1)).then_refused("not-in-hand")
    given(GAME, state).when(PlayEvaders(line="L1", count=0)).then_refused("empty-play")
    given(GAME, state).when(PlayEvaders(line="L9", count=1)).then_refused("no-such-line")
    given(GAME, state).when(PlayEvaders(line="L3", count=1)).then_refused("no-such-line")  # not in a 2-player game


def test_evaders_are_played_once_a_turn() -> None:
    """Rules 3 and 4: 'up to 9 Evaders of the same colour' — all on the same line, in one play."""
    state = given(GAME, table([[*L1, *L2], ["EV-L2-9"]])).when(PlayEvaders(line="L1", count=1)).state
    given(GAME, state).when(PlayEvaders(line="L1", count=1)).then_refused("evaders-already-played")
    given(GAME, state).when(PlayEvaders(line="L2", count=1)).then_refused("evaders-already-played")
    assert GAME.legal(state, 0) == [EndTurn()]


def test_a_priority_seat_is_a_wild_evader_that_counts() -> None:
    """Rules 11, Priority Seat: 'Can be played with other Evader cards. Counts towards all 9 evaders on a line';
    reading 21: it may go alone on any line you may play on. It is the turn's one Power card."""
    state = table([[*L1, SEAT, SEAT_2], ["EV-L2-9"]])
    events = given(GAME, state).when(PlayEvaders(line="L1", count=2, priority_seat=True)).events
    assert events == [ev.EvadersPlayed(seat=0, line="L1", cards=(*L1, SEAT), new_carriage=True)]
    alone = given(GAME, state).when(PlayEvaders(line="L2", count=0, priority_seat=True)).state
    assert alone.carriages == (carriage("L2", 0, SEAT),) and alone.played_power
    assert GAME.view(alone, 1).lines[1].count == 1
    none = table([[*L1], ["EV-L2-9"]])
    given(GAME, none).when(PlayEvaders(line="L1", count=1, priority_seat=True)).then_refused("not-in-hand")


def test_peak_hour_keeps_the_others_on_the_current_line() -> None:
    """Rules 11, Peak Hour: 'Effects all lines but not who played it. Place in front of yourself while in play'
    (DEFAULT reading: the others may only play Evaders on the current line until its owner's next turn)."""
    state = table([[PEAK, "EV-L2-3"], [*L1, *L2], ["EV-L3-9"]], current_line="L2", carriage_open=True,
                  carriages=(carriage("L2", 2, "EV-L2-5"),))
    state = given(GAME, state).when(PeakHour()).state
    assert state.peak_hours == ((0, PEAK),)
    state = given(GAME, state).when(EndTurn()).state
    given(GAME, state).when(PlayEvaders(line="L1", count=1)).then_refused("peak-hour")
    assert {c.line for c in GAME.legal(state, 1) if isinstance(c, PlayEvaders)} == {"L2"}
    state = given(GAME, state).when(PlayEvaders(line="L2", count=1)).when(EndTurn()).state
    state = given(GAME, state).when(EndTurn()).state  # seat 2 can neither play nor draw, and passes
    assert state.turn_seat == 0 and state.peak_hours == () and PEAK in state.discard


def test_peak_hour_does_not_bind_its_owner() -> None:
    """Rules 11, Peak Hour: '... but not who played it'."""
    state = table([[PEAK, *L1, "EV-L3-1"], ["EV-L2-9"], ["EV-L3-9"]], current_line="L2", carriage_open=True,
                  carriages=(carriage("L2", 2, "EV-L2-5"),))
    state = given(GAME, state).when(PeakHour()).state
    assert {c.line for c in GAME.legal(state, 0) if isinstance(c, PlayEvaders)} == {"L1", "L3"}


def test_under_peak_hour_no_first_carriage_can_start() -> None:
    """Peak Hour before any carriage of the journey: the others have no current line to continue."""
    state = replace(table([[*L1], ["EV-L2-9"]]), peak_hours=((1, PEAK),))
    given(GAME, state).when(PlayEvaders(line="L1", count=1)).then_refused("peak-hour")
