"""Rules section 8 (Unlock Exp); readings 8, 19 and 20 (as changed here); worked examples 5 and 9."""

from __future__ import annotations

from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.commands import ClaimExp, EndTurn, Inspect, Pass, PlayEvaders
from tests.games.given import given
from tests.games.touched_on.tables import SEAT, carriage, evaders, table

EIGHT_ON_L2 = (carriage("L2", 1, *evaders("L2", 1, 2, 3, 4, 5, 6, 7, 8)),)


def nine_to_play(hand0: tuple[str, ...] = ("EV-L2-9", "EV-L1-1"), hand2: tuple[str, ...] = ("UC-1", "EV-L3-1")):
    """Seat 0 to play, holding the 9th Evader of L2; L2 still hides XP-02."""
    return table([list(hand0), ["AU-L1"], list(hand2)], current_line="L2", carriage_open=True,
                 carriages=EIGHT_ON_L2)


def test_the_ninth_evader_unlocks_the_exp_under_its_line() -> None:
    """Rules 8: 'When all 9 Evaders have been played on their line, the hidden Exp is unlocked. If you play the
    9th Evader then you can take the Exp from beneath the Line card' (worked example 5; reading 8)."""
    state = nine_to_play()
    events = given(GAME, state).when(PlayEvaders(line="L2", count=1)).events
    assert events[1] == ev.ExpUnlocked(seat=0, line="L2")
    state = given(GAME, state).when(PlayEvaders(line="L2", count=1)).state
    assert ClaimExp() in GAME.legal(state, 0)
    assert given(GAME, state).when(ClaimExp()).events == [ev.ExpAwarded(seat=0, cards=("XP-02",), reason="unlock")]
    state = given(GAME, state).when(ClaimExp()).state
    assert state.collected[0] == ("XP-02",) and state.exp_under[1] == ""
    given(GAME, state).when(ClaimExp()).then_refused("nothing-to-claim")


def test_a_priority_seat_counts_towards_the_nine() -> None:
    """Rules 11, Priority Seat: 'Counts towards all 9 evaders on a line'."""
    state = nine_to_play(hand0=(SEAT, "EV-L1-1"))
    events = given(GAME, state).when(PlayEvaders(line="L2", count=0, priority_seat=True)).events
    assert events[1] == ev.ExpUnlocked(seat=0, line="L2")


def test_only_the_ninth_card_unlocks() -> None:
    """Rules 8: the Exp unlocks at the 9th; a line with no Exp left unlocks nothing."""
    state = table([["EV-L1-8", "EV-L2-8", "EV-L2-9"], ["EV-L1-9"]], current_line="L2", carriage_open=True,
                  carriages=(carriage("L2", 1, *evaders("L2", 1, 2, 3, 4, 5, 6, 7)),))
    assert len(given(GAME, state).when(PlayEvaders(line="L2", count=1)).events) == 1
    assert given(GAME, state).when(PlayEvaders(line="L2", count=2)).events[1] == ev.ExpUnlocked(seat=0, line="L2")
    taken = given(GAME, table([["EV-L2-9"], ["EV-L1-9"]], current_line="L2", carriages=EIGHT_ON_L2, carriage_open=True,
                      exp_under=("XP-01", ""))).when(PlayEvaders(line="L2", count=1)).state
    assert taken.unlock_line == ""


def test_forgotten_exp_may_be_claimed_by_the_next_player() -> None:
    """Rules 8: 'If you forget then it can be taken by the next player' — a response window between the turns:
    the next player may claim it (or pass), then their turn begins (worked example 5)."""
    state = given(GAME, nine_to_play()).when(PlayEvaders(line="L2", count=1)).state
    events = given(GAME, state).when(EndTurn()).events
    assert events == [ev.TurnEnded(seat=0), ev.ClaimOffered(seat=1, line="L2")]
    state = given(GAME, state).when(EndTurn()).state
    assert GAME.to_move(state) == [1] and GAME.legal(state, 1) == [ClaimExp(), Pass()]
    assert GAME.legal(state, 0) == []
    given(GAME, state).when(0, ClaimExp()).then_refused("not-your-turn")
    assert given(GAME, state).when(1, ClaimExp()).events == [
        ev.ExpAwarded(seat=1, cards=("XP-02",), reason="unlock"), ev.TurnStarted(seat=1)
    ]
    given(GAME, state).when(1, EndTurn()).then_refused("answer-expected")


def test_passing_leaves_the_forgotten_exp_under_its_line() -> None:
    """Rules 8: only the next player may take the forgotten Exp; if they pass it stays hidden (reading 19)."""
    state = given(GAME, nine_to_play()).when(PlayEvaders(line="L2", count=1)).when(EndTurn()).when(1, Pass()).state
    assert state.turn_seat == 1 and state.window is None and state.exp_under[1] == "XP-02"
    given(GAME, state).when(1, ClaimExp()).then_refused("nothing-to-claim")


def test_inspecting_the_line_later_does_not_move_the_exp() -> None:
    """Rules 8: 'This line can still be inspected, but it will not change who keeps the Exp card'
    (worked example 9)."""
    state = given(GAME, nine_to_play()).when(PlayEvaders(line="L2", count=1)).when(ClaimExp()).state
    state = given(GAME, state).when(EndTurn()).when(1, EndTurn()).state  # seat 1 can neither play nor draw: passes
    state = given(GAME, state).when(2, Inspect(inspector="undercover")).state
    state = given(GAME, state).when(0, Pass()).state
    assert state.collected[0] == ("XP-02",) and "EV-L2-9" in state.hands[0]
