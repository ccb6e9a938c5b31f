"""Rules section 6 (Power Cards) and the Power Notes (section 11): Appeal out of turn, Tram Tracker, one Power a
turn. Priority Seat and Peak Hour are in test_evaders.py, Feet On Seat in test_inspectors.py."""

from __future__ import annotations

from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.commands import (
    Appeal,
    EndTurn,
    FeetOnSeat,
    GiveCard,
    Inspect,
    Pass,
    PeakHour,
    PlayEvaders,
    TramTracker,
)
from tests.games.given import given
from tests.games.touched_on.tables import APPEAL, FEET, PEAK, TRACKER, carriage, evaders, table

ON_TABLE = evaders("L2", 4, 5)


def inspection(inspector_hand: list[str], owner_hand: list[str]) -> object:
    """Seat 0 has just inspected seat 1's carriage on L2 with an Undercover Inspector."""
    state = table([inspector_hand, owner_hand], current_line="L2", carriage_open=True,
                  carriages=(carriage("L2", 1, *ON_TABLE),))
    return given(GAME, state).when(Inspect(inspector="undercover")).state


def test_appeal_is_played_outside_your_turn_and_the_inspector_takes_the_cards() -> None:
    """Rules 11, Appeal: 'If successful, the player who inspected must take the cards instead. Can be played
    outside of your turn' (DEFAULT: always successful) — worked example 9."""
    state = inspection(["UC-1", "EV-L1-1"], [APPEAL, "EV-L1-2"])
    assert GAME.to_move(state) == [1] and state.turn_seat == 0
    assert GAME.legal(state, 1) == [Appeal(), Pass()]
    events = given(GAME, state).when(1, Appeal()).events
    assert events == [ev.Appealed(seat=1, card=APPEAL), ev.InspectionResolved(taker=0, appealed=True)]
    state = given(GAME, state).when(1, Appeal()).state
    assert state.hands[0] == ("EV-L1-1", *ON_TABLE) and state.hands[1] == ("EV-L1-2",)
    assert set(state.discard) == {APPEAL, "UC-1"}
    assert GAME.to_move(state) == [0]  # the inspector's turn goes on
    assert PlayEvaders(line="L2", count=2) in GAME.legal(state, 0)


def test_the_window_opens_whether_or_not_the_owner_holds_an_appeal() -> None:
    """Hands are private: the window opens for every inspection of a seat holding cards, so its opening says
    nothing; without an Appeal the only answer is to pass."""
    state = inspection(["UC-1"], ["EV-L1-2"])
    assert GAME.to_move(state) == [1] and GAME.legal(state, 1) == [Pass()]
    given(GAME, state).when(1, Appeal()).then_refused("not-in-hand")
    state = given(GAME, state).when(1, Pass()).state
    assert state.hands[1] == ("EV-L1-2", *ON_TABLE)


def test_appeal_cannot_be_played_in_your_own_turn() -> None:
    """Reading 21: Appeal is never playable on your own turn (it answers an inspection); nor is pass."""
    state = table([[APPEAL, "EV-L1-1"], ["EV-L2-1"]], draw=["EV-L1-3"])
    given(GAME, state).when(Appeal()).then_refused("nothing-to-answer")
    given(GAME, state).when(Pass()).then_refused("nothing-to-answer")


def test_one_power_card_a_turn() -> None:
    """Rules 3: 'a maximum of 1 Power'; rules 6: Power cards can be played any time during your turn."""
    state = table([[PEAK, TRACKER, FEET, "EV-L1-1"], ["EV-L2-1"]], current_line="L1",
                  carriages=(carriage("L1", 1, "EV-L1-5"),))
    state = given(GAME, state).when(PeakHour()).state
    given(GAME, state).when(TramTracker(target=1)).then_refused("power-already-played")
    given(GAME, state).when(FeetOnSeat()).then_refused("power-already-played")
    given(GAME, state).when(PeakHour()).then_refused("power-already-played")
    after_evaders = given(GAME, table([["EV-L1-1", PEAK], ["EV-L2-1"]])).when(PlayEvaders(line="L1", count=1)).state
    assert PeakHour() in GAME.legal(after_evaders, 0)  # Powers any time in the turn, after Evaders too
    given(GAME, table([["EV-L1-1"], ["EV-L2-1"]])).when(PeakHour()).then_refused("not-in-hand")


def test_tram_tracker_takes_a_card_unseen_then_gives_one_back() -> None:
    """Rules 11, Tram Tracker: 'Your opponent must fan out their cards for you to choose from' (DEFAULT: face
    down; you take 1, then give them 1 card of your choice)."""
    state = table([[TRACKER, "EV-L1-1"], ["EV-L2-1", "EV-L2-2"], ["EV-L3-3"]])
    events = given(GAME, state).when(TramTracker(target=1)).events
    assert events[0] == ev.TramTrackerPlayed(seat=0, card=TRACKER, target=1)
    taken = events[1]
    assert isinstance(taken, ev.CardTaken) and taken.card in ("EV-L2-1", "EV-L2-2")
    state = given(GAME, state).when(TramTracker(target=1)).state
    assert GAME.legal(state, 0) == [GiveCard(card=c) for c in state.hands[0]]
    given(GAME, state).when(EndTurn()).then_refused("give-card-first")
    given(GAME, state).when(GiveCard(card="EV-L3-3")).then_refused("not-in-hand")
    state = given(GAME, state).when(GiveCard(card="EV-L1-1")).state
    assert len(state.hands[0]) == 1 and len(state.hands[1]) == 2 and "EV-L1-1" in state.hands[1]
    assert state.discard == (TRACKER,)
    given(GAME, state).when(GiveCard(card=state.hands[0][0])).then_refused("nothing-to-give")


def test_tram_tracker_needs_an_opponent_holding_cards() -> None:
    """Reading 21: Tram Tracker needs an opponent holding cards."""
    state = table([[TRACKER, "EV-L1-1"], [], ["EV-L3-3"]], places=(1,))
    assert [c for c in GAME.legal(state, 0) if isinstance(c, TramTracker)] == [TramTracker(target=2)]
    given(GAME, state).when(TramTracker(target=1)).then_refused("empty-hand")
    given(GAME, state).when(TramTracker(target=0)).then_refused("bad-target")
    given(GAME, state).when(TramTracker(target=7)).then_refused("bad-target")


def test_tram_tracker_cards_are_seen_only_by_who_holds_them() -> None:
    """Hands are private: the taken card is shown to the taker, the given card to its receiver, nobody else."""
    taken = ev.CardTaken(seat=0, target=1, card="EV-L2-1")
    given = ev.CardGiven(seat=0, target=1, card="EV-L1-1")
    assert [GAME.redact(taken, s).card for s in (0, 1, 2, None)] == ["EV-L2-1", "", "", ""]  # type: ignore[attr-defined]
    assert [GAME.redact(given, s).card for s in (0, 1, 2, None)] == ["", "EV-L1-1", "", ""]  # type: ignore[attr-defined]
