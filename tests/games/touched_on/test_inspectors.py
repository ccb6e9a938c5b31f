"""Rules section 5 (Inspectors), Feet On Seat (section 11), readings 7, 17 and 22; worked example 3."""

from __future__ import annotations

from domain import playout
from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.commands import EndTurn, FeetOnSeat, Inspect, Pass, PlayEvaders
from tests.games.given import given
from tests.games.touched_on.tables import APPEAL, FEET, SEAT, carriage, evaders, table

L2_ON_TABLE = evaders("L2", 4, 5, 6)


def inspected_table(hand: list[str], *, owner_hand: tuple[str, ...] = ("EV-L3-9",)) -> object:
    """Seat 0 to play; the most recent carriage is seat 2's, on L2 (older ones below it)."""
    return table(
        [hand, ["EV-L1-9"], list(owner_hand)], current_line="L2", carriage_open=True,
        carriages=(carriage("L1", 1, "EV-L1-1"), carriage("L2", 2, *L2_ON_TABLE, SEAT)),
    )


def test_an_authorised_inspector_inspects_its_own_line() -> None:
    """Rules 5: 'Authorised — who can inspect Evaders on their given line' (worked example 3)."""
    state = inspected_table(["AU-L2", "AU-L3"])
    events = given(GAME, state).when(Inspect(inspector="authorised")).events
    assert events == [ev.InspectionStarted(seat=0, card="AU-L2", kind="authorised", line="L2", owner=2,
                                           responders=(2,))]
    wrong = inspected_table(["AU-L3"])
    given(GAME, wrong).when(Inspect(inspector="authorised")).then_refused("wrong-line")
    given(GAME, inspected_table(["UC-1"])).when(Inspect(inspector="authorised")).then_refused("not-in-hand")


def test_an_undercover_inspector_inspects_any_line() -> None:
    """Rules 5: 'Undercover — who can inspect any line' (worked example 3)."""
    state = inspected_table(["UC-3"])
    assert Inspect(inspector="undercover") in GAME.legal(state, 0)
    given(GAME, inspected_table(["AU-L2"])).when(Inspect(inspector="undercover")).then_refused("not-in-hand")


def test_the_inspected_evaders_go_back_to_who_played_them() -> None:
    """Rules 5: 'The previous player must take all Evaders from an inspected carriage. Any other cards in the
    carriage must be discarded' — reading 7: the player who added Evaders to it last takes them all; the
    Inspector and a Priority Seat are discarded (worked example 3); reading 22: the current line stays."""
    state = given(GAME, inspected_table(["UC-3", "EV-L2-9"])).when(Inspect(inspector="undercover")).state
    assert GAME.to_move(state) == [2]
    state = given(GAME, state).when(2, Pass()).state
    assert state.hands[2] == tuple(sorted(("EV-L3-9", *L2_ON_TABLE)))
    assert set(state.discard) == {SEAT, "UC-3"}
    assert state.carriages == (carriage("L1", 1, "EV-L1-1"),)
    assert state.current_line == "L2" and not state.carriage_open
    state = given(GAME, state).when(PlayEvaders(line="L2", count=1)).state
    assert state.carriages[-1] == carriage("L2", 0, "EV-L2-9")  # Evaders after an inspection: a new carriage


def test_only_the_most_recent_carriage_may_be_inspected() -> None:
    """Rules 5: 'Inspectors can only be played onto Evaders, in the most recent carriage' (worked example 3):
    the Authorised Inspector of an older carriage's line is not playable."""
    state = inspected_table(["AU-L1"])
    given(GAME, state).when(Inspect(inspector="authorised")).then_refused("wrong-line")
    given(GAME, table([["UC-1"], ["EV-L1-1"]])).when(Inspect(inspector="undercover")).then_refused("no-carriage")


def test_your_own_carriage_cannot_be_inspected() -> None:
    """Reading 17 (DEVIATION): an Inspector goes only on a carriage whose last Evaders another player played."""
    state = table([["UC-1", FEET], ["EV-L1-1"]], current_line="L2", carriages=(carriage("L2", 0, "EV-L2-1"),))
    given(GAME, state).when(Inspect(inspector="undercover")).then_refused("own-carriage")
    given(GAME, state).when(FeetOnSeat()).then_refused("own-carriage")


def test_inspectors_cannot_follow_evaders() -> None:
    """Rules 3: 'Inspectors cannot be played after Evaders' (worked example 3)."""
    state = given(GAME, inspected_table(["UC-3", "EV-L2-9"])).when(PlayEvaders(line="L2", count=1)).state
    given(GAME, state).when(Inspect(inspector="undercover")).then_refused("inspector-after-evaders")


def test_one_inspector_a_turn_but_feet_on_seat_may_join_it() -> None:
    """Rules 3: a maximum of 1 Inspector a turn; rules 11, Feet On Seat: 'Can be played with other Inspector
    cards'. Once the most recent carriage is emptied, the one before it is the most recent (reading 22)."""
    state = given(GAME, inspected_table(["UC-3", "UC-4", FEET])).when(Inspect(inspector="undercover")).state
    state = given(GAME, state).when(2, Pass()).state
    given(GAME, state).when(Inspect(inspector="undercover")).then_refused("inspector-already-played")
    events = given(GAME, state).when(FeetOnSeat()).events
    assert events[0] == ev.InspectionStarted(seat=0, card=FEET, kind="feet-on-seat", line="L1", owner=1,
                                             responders=(1,))


def test_every_line_in_play_may_be_inspected_by_its_authorised_inspector() -> None:
    """Rules 5: 'Inspectors come in 2 types: Authorised — who can inspect Evaders on their given line, and
    Undercover — who can inspect any line.' Reading 23: the rulebook names no line as the Free Tram Zone, so by
    default there is none and L1's Authorised Inspector inspects L1 like any other (it used to be unplayable)."""
    state = table([["UC-1", "AU-L1", FEET], ["EV-L1-9"]], current_line="L1", carriages=(carriage("L1", 1, "EV-L1-1"),))
    assert state.free_tram_zone == ""
    assert GAME.legal(state, 0) == [Inspect(inspector="authorised"), Inspect(inspector="undercover"), FeetOnSeat()]
    events = given(GAME, state).when(Inspect(inspector="authorised")).events
    assert events == [ev.InspectionStarted(seat=0, card="AU-L1", kind="authorised", line="L1", owner=1,
                                           responders=(1,))]
    state = given(GAME, state).when(Inspect(inspector="authorised")).when(1, Pass()).state
    assert state.hands[1] == ("EV-L1-1", "EV-L1-9") and "AU-L1" in state.discard


def test_in_random_play_the_l1_authorised_inspector_is_played() -> None:
    """Issue 17: whoever held L1's Authorised Inspector could never empty their hand. Random 2-player games now
    play it like every other Inspector."""
    played = set()
    for n in range(6):
        events = playout.play(GAME, 2, {}, f"l1-inspector-{n}").events
        played |= {e.card for e in events if isinstance(e, ev.InspectionStarted)}
    assert {"AU-L1", "AU-L2"} <= played


def test_the_free_tram_zone_option_is_closed_to_inspector_cards_but_not_to_feet_on_seat() -> None:
    """Rules 11, Feet On Seat: 'Can be played with other Inspector cards. Can be played in the Free Tram Zone.'
    Reading 23 (option `free_tram_zone`): on that line no Inspector card may be played; Feet On Seat may."""
    state = table([["UC-1", "AU-L1", FEET], ["EV-L1-9"]], current_line="L1", carriages=(carriage("L1", 1, "EV-L1-1"),),
                  free_tram_zone="L1")
    given(GAME, state).when(Inspect(inspector="undercover")).then_refused("free-tram-zone")
    given(GAME, state).when(Inspect(inspector="authorised")).then_refused("free-tram-zone")
    assert GAME.legal(state, 0) == [FeetOnSeat()]
    state = given(GAME, state).when(FeetOnSeat()).state
    state = given(GAME, state).when(1, Pass()).state
    assert state.hands[1] == ("EV-L1-1", "EV-L1-9") and state.played_power


def test_a_player_already_out_has_left_the_tram() -> None:
    """Gap decided here: the carriage of a player whose finish already stood cannot be inspected (they are out of
    the journey and keep their place)."""
    state = table([["UC-1"], [], ["EV-L1-9"]], current_line="L2", carriages=(carriage("L2", 1, "EV-L2-1"),),
                  places=(1,))
    given(GAME, state).when(Inspect(inspector="undercover")).then_refused("owner-finished")


def test_a_player_with_an_empty_hand_gets_no_window() -> None:
    """A seat holding no card cannot Appeal, which all can see: the inspection is resolved at once."""
    state = table([["UC-1", "EV-L3-3"], ["EV-L1-9"], []], current_line="L2", carriage_open=True,
                  carriages=(carriage("L2", 2, "EV-L2-1"),))
    events = given(GAME, state).when(Inspect(inspector="undercover")).events
    assert events[1] == ev.InspectionResolved(taker=2)
    assert GAME.to_move(given(GAME, state).when(Inspect(inspector="undercover")).state) == [0]


def test_the_inspector_waits_while_the_window_is_open() -> None:
    """Response windows: while the inspected seat may answer, nobody else may act."""
    state = given(GAME, inspected_table(["UC-3", "EV-L2-9", APPEAL])).when(Inspect(inspector="undercover")).state
    given(GAME, state).when(0, EndTurn()).then_refused("awaiting-response")
    given(GAME, state).when(1, Pass()).then_refused("not-your-turn")
    assert GAME.legal(state, 0) == [] and GAME.legal(state, 1) == []
    given(GAME, state).when(2, PlayEvaders(line="L3", count=1)).then_refused("answer-expected")
