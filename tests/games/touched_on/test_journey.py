"""Rules section 9 (Win Exp: DING, places, journeys, the end, ties) and the glossary; readings 9-13, 18, 19;
worked examples 6 and 9."""

from __future__ import annotations

from domain.engine import Decision
from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.commands import Appeal, EndTurn, Inspect, PeakHour, PlayEvaders
from domain.games.touched_on.rules_flow import end_journey
from domain.games.touched_on.scoring import tie_key
from domain.games.touched_on.state import evolve
from domain.rng import Rng
from tests.games.given import given, of_type
from tests.games.touched_on.tables import carriage, evaders, replace, table


def ding_table():
    """3 players: seat 0 plays its last card onto L2; seat 1 holds an Undercover Inspector."""
    state = table([["EV-L2-9"], ["UC-1", "EV-L3-1", "EV-L3-2"], ["EV-L1-5", "EV-L3-3"]], current_line="L2",
                  carriages=(carriage("L2", 2, "EV-L2-1"),), carriage_open=True)
    return replace(state, exp_under=("XP-10", "XP-11", "XP-12"), exp_pile=("XP-01", "XP-05", "XP-09"))


def test_the_next_player_may_still_inspect_after_a_ding() -> None:
    """Rules 9: 'Once you play your last card, shout DING ... The next player still has the opportunity to take
    their turn' — an inspection gives the cards back and the player is in again (worked example 6; reading 9)."""
    state = given(GAME, ding_table()).when(PlayEvaders(line="L2", count=1)).when(EndTurn()).state
    assert GAME.view(state, 2).seats[0].ding
    state = given(GAME, state).when(1, Inspect(inspector="undercover")).state
    assert state.hands[0] == ("EV-L2-1", "EV-L2-9") and state.emptied == ()
    events = given(GAME, state).when(1, EndTurn()).events
    assert of_type(events, ev.PlayerFinished) == []


def test_a_ding_stands_after_the_next_turn_and_wins_two_exp() -> None:
    """Rules 9: '... otherwise you win and can collect the top 2 cards from the Exp pile' (worked example 6)."""
    state = given(GAME, ding_table()).when(PlayEvaders(line="L2", count=1)).when(EndTurn()).state
    state = given(GAME, state).when(1, PlayEvaders(line="L3", count=2)).state
    events = given(GAME, state).when(1, EndTurn()).events
    assert events[:3] == [ev.TurnEnded(seat=1), ev.PlayerFinished(seat=0, place=1),
                          ev.ExpAwarded(seat=0, cards=("XP-01", "XP-05"), reason="first")]
    assert events[3] == ev.TurnStarted(seat=2)  # everyone else keeps playing for 2nd place


def test_second_place_takes_one_exp_and_ends_the_journey() -> None:
    """Rules 9: 'Everyone else keeps playing for 2nd place, who collects 1 Exp card'; glossary 3: a journey is
    'Over when 2 players have no cards left' (worked example 6)."""
    state = table([["EV-L2-9"], [], ["EV-L1-5", "EV-L3-3"]], current_line="L2", places=(1,),
                  carriages=(carriage("L2", 2, "EV-L2-1"),), carriage_open=True)
    state = given(GAME, state).when(PlayEvaders(line="L2", count=1)).when(EndTurn()).state
    state = given(GAME, state).when(2, PlayEvaders(line="L3", count=1)).state
    events = given(GAME, state).when(2, EndTurn()).events
    assert events[1:4] == [ev.PlayerFinished(seat=0, place=2), ev.ExpAwarded(seat=0, cards=("XP-04",),
                           reason="second"), ev.JourneyEnded(journey=1, reason="two-out")]
    assert isinstance(events[4], ev.JourneyDealt) and events[4].dealer == 0 and events[4].journey == 2


def test_in_a_two_player_journey_the_other_player_is_second_at_once() -> None:
    """Reading 10: in 2-player games, once the winner's DING stands the other player takes 2nd place."""
    state = table([["EV-L2-9"], ["EV-L1-5", "EV-L1-6"]], current_line="L2", carriage_open=True,
                  carriages=(carriage("L2", 1, "EV-L2-1"),))
    state = given(GAME, state).when(PlayEvaders(line="L2", count=1)).when(EndTurn()).state
    state = given(GAME, state).when(1, PlayEvaders(line="L1", count=1)).state
    events = given(GAME, state).when(1, EndTurn()).events
    finished = of_type(events, ev.PlayerFinished)
    assert finished == [ev.PlayerFinished(seat=0, place=1), ev.PlayerFinished(seat=1, place=2)]
    assert [e.cards for e in of_type(events, ev.ExpAwarded)] == [("XP-03", "XP-04"), ("XP-05",)]


def test_rewards_come_from_under_the_lines_when_the_pile_is_empty() -> None:
    """Rules 9: 'If there are no Exp cards left in the pile, take them from beneath the Line cards'; reading 11:
    the pile first, then under the Line cards in table order (worked example 9)."""
    state = replace(ding_table(), exp_pile=("XP-01",))
    state = given(GAME, state).when(PlayEvaders(line="L2", count=1)).when(EndTurn()).state
    state = given(GAME, state).when(1, PlayEvaders(line="L3", count=2)).state
    events = given(GAME, state).when(1, EndTurn()).events
    assert events[2] == ev.ExpAwarded(seat=0, cards=("XP-01", "XP-10"), reason="first")


def test_the_game_ends_when_no_exp_is_left() -> None:
    """Rules 9: 'The game ends when there are no Exp cards left' — even in the middle of a journey."""
    state = replace(ding_table(), exp_pile=(), exp_under=("", "XP-11", ""))
    state = given(GAME, state).when(PlayEvaders(line="L2", count=1)).when(EndTurn()).state
    state = given(GAME, state).when(1, PlayEvaders(line="L3", count=2)).state
    events = given(GAME, state).when(1, EndTurn()).events
    assert events[-1] == ev.ExpAwarded(seat=0, cards=("XP-11",), reason="first")
    state = given(GAME, state).when(1, EndTurn()).state
    assert GAME.to_move(state) == [] and GAME.legal(state, 2) == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "no-exp-left"
    assert [r.rank for r in outcome.results] == [1, 2, 2]
    given(GAME, state).when(2, EndTurn()).then_refused("game-over")


def test_ties_are_broken_by_removing_the_lowest_exp_card() -> None:
    """Rules 9: 'If 2 players have the same Exp ..., each player should remove 1 Exp card, then count again';
    reading 13: the lowest card goes; a player who runs out loses; equal to the end is a shared win."""
    assert tie_key(("XP-01", "XP-12"), 2) > tie_key(("XP-05", "XP-06"), 2)  # 1+3 = 2+2; then 3 beats 2
    assert tie_key(("XP-09",), 2) < tie_key(("XP-01", "XP-05"), 2)  # 3 = 1+2; the single card runs out first
    assert tie_key(("XP-01", "XP-09"), 2) == tie_key(("XP-02", "XP-10"), 2)  # equal to the end: shared
    state = replace(table([["EV-L1-1"], ["EV-L2-1"], ["EV-L3-1"], ["EV-L3-2"]]), exp_pile=(), exp_under=("",) * 4,
                    collected=(("XP-01", "XP-09"), ("XP-05", "XP-06"), ("XP-02", "XP-12"), ("XP-03",)))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert [(r.seat, r.rank, r.score, r.winner) for r in outcome.results] == [
        (0, 1, 4.0, True), (1, 3, 4.0, False), (2, 1, 4.0, True), (3, 4, 1.0, False)
    ]


def test_a_stuck_round_ends_the_journey_and_places_the_fewest_cards() -> None:
    """Reading 18: nobody plays or draws for a full round, piles empty: fewest cards 1st, next fewest 2nd."""
    state = table([["UC-1"], ["AU-L1", "PW-01"], ["AU-L3", "PW-07", "PW-10"]], current_line="L2", turn=1,
                  carriages=(carriage("L2", 0, "EV-L2-1"),), carriage_open=True)
    state = given(GAME, state).when(1, EndTurn()).when(2, EndTurn()).state
    assert state.idle_turns == 2
    events = given(GAME, state).when(0, EndTurn()).events
    assert of_type(events, ev.PlayerFinished) == [ev.PlayerFinished(seat=0, place=1),
                                                  ev.PlayerFinished(seat=1, place=2)]
    assert of_type(events, ev.JourneyEnded) == [ev.JourneyEnded(journey=1, reason="stuck")]


def test_a_deadlocked_journey_ends_even_while_powers_cycle() -> None:
    """Extension of reading 18: when no Evader can ever be played again (none of the current or adjacent lines
    and no Priority Seat left in hands or piles) and nothing can inspect the most recent carriage, the journey
    ends at once instead of cycling Power cards through the discards."""
    on_table = (carriage("L3", 0, *evaders("L3", *range(1, 10))), carriage("L4", 3, *evaders("L4", *range(1, 10))))
    state = table([["EV-L1-1", "EV-L1-4", "PW-05"], ["EV-L1-2", "AU-L2"], ["EV-L1-3"], []], current_line="L4",
                  carriages=on_table, places=(3,), draw=["PW-06"], dealer=3)
    assert GAME.legal(state, 0) == [PeakHour()]
    events = given(GAME, state).when(PeakHour()).when(EndTurn()).events
    assert of_type(events, ev.PlayerFinished) == [ev.PlayerFinished(seat=2, place=2)]
    assert of_type(events, ev.JourneyEnded) == [ev.JourneyEnded(journey=1, reason="stuck")]


def test_the_engine_limits_end_long_journeys_and_long_games() -> None:
    """Engine limits (deviations): after max_turns_per_journey turns the journey ends as a stuck one; after
    max_journeys journeys the game ends, ranked by Exp."""
    state = replace(table([["EV-L1-1", "EV-L1-2"], ["EV-L2-1"], ["EV-L2-2", "EV-L2-3"]]),
                    journey_turns=200)
    events = given(GAME, state).when(PlayEvaders(line="L1", count=1)).when(EndTurn()).events
    assert of_type(events, ev.JourneyEnded) == [ev.JourneyEnded(journey=1, reason="turn-limit")]
    flow = Decision(replace(state, journey=40, places=(0, 1)), evolve)
    end_journey(flow, "two-out", Rng.derive("last", 1))
    assert flow.events == [ev.JourneyEnded(journey=40, reason="two-out", final=True)]
    outcome = GAME.outcome(flow.state)
    assert outcome is not None and outcome.reason == "journey-limit"


def test_an_appeal_played_as_the_last_card_is_a_ding_that_stands_after_the_next_turn() -> None:
    """Gap decided here (reading 9 for a hand emptied out of turn): the hand stands once the next turn after it
    emptied has ended; a seat with an empty hand is skipped in turn order."""
    state = table([["UC-1", "EV-L3-1"], ["PW-01"], ["EV-L1-5", "EV-L3-3"]], current_line="L2",
                  carriages=(carriage("L2", 1, "EV-L2-1"),), carriage_open=True)
    state = given(GAME, state).when(Inspect(inspector="undercover")).when(1, Appeal()).state
    assert state.hands[1] == () and state.hands[0] == ("EV-L2-1", "EV-L3-1")
    events = given(GAME, state).when(EndTurn()).events
    assert of_type(events, ev.PlayerFinished) == [] and events[-1] == ev.TurnStarted(seat=2)
    state = given(GAME, state).when(EndTurn()).when(2, PlayEvaders(line="L3", count=1)).state
    events = given(GAME, state).when(2, EndTurn()).events
    assert events[1] == ev.PlayerFinished(seat=1, place=1) and events[-1] == ev.TurnStarted(seat=0)
