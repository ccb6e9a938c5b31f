"""Rules sections 3 and 7 (forced play, the draw pile); readings 5, 6, 21; worked examples 4 and 8."""

from __future__ import annotations

from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.commands import Draw, EndTurn, Inspect, PlayEvaders
from tests.games.given import given
from tests.games.touched_on.tables import APPEAL, APPEAL_2, carriage, table

BLOCKED = {"current_line": "L1", "carriages": (carriage("L1", 0, "EV-L1-5"),), "carriage_open": True}


def test_a_player_with_a_playable_card_must_play() -> None:
    """Rules 7: 'Touched On is forced play — you must play any card you can' (worked example 4; reading 5)."""
    state = table([["EV-L1-1", "AU-L2"], ["EV-L2-1"]], draw=["EV-L2-2"])
    assert Draw() not in GAME.legal(state, 0) and EndTurn() not in GAME.legal(state, 0)
    given(GAME, state).when(Draw()).then_refused("must-play")
    given(GAME, state).when(EndTurn()).then_refused("must-play")


def test_at_least_one_card_then_the_turn_may_end() -> None:
    """Rules 3: 'You must play at least 1 of these cards during your turn' — after that, ending is a choice."""
    state = given(GAME, table([["EV-L1-1", "EV-L2-1"], ["EV-L2-2"]])).when(PlayEvaders(line="L1", count=1)).state
    assert EndTurn() in GAME.legal(state, 0)
    given(GAME, state).when(Draw()).then_refused("already-played")
    state = given(GAME, state).when(EndTurn()).state
    assert state.turn_seat == 1


def test_without_a_playable_card_you_draw_and_play_it_if_you_can() -> None:
    """Rules 7: 'If the drawn card is playable then you can take your turn as normal' (worked example 4)."""
    state = table([["EV-L2-9"], ["AU-L2", APPEAL]], draw=["EV-L1-2", "EV-L2-3"], **BLOCKED, turn=1)
    assert GAME.legal(state, 1) == [Draw()]
    given(GAME, state).when(1, EndTurn()).then_refused("must-draw")
    assert given(GAME, state).when(1, Draw()).events == [ev.CardDrawn(seat=1, card="EV-L1-2")]
    state = given(GAME, state).when(1, Draw()).state
    assert GAME.legal(state, 1) == [PlayEvaders(line="L1", count=1)]  # now forced to play it
    given(GAME, state).when(1, Draw()).then_refused("already-drew")


def test_an_unplayable_drawn_card_ends_the_turn() -> None:
    """Rules 7: '... otherwise play moves to the next person'; 'You can only draw 1 card in a single turn'
    (reading 6)."""
    state = table([["EV-L2-9"], ["AU-L2", APPEAL]], draw=[APPEAL_2, "EV-L2-3"], **BLOCKED, turn=1)
    state = given(GAME, state).when(1, Draw()).state
    assert GAME.legal(state, 1) == [EndTurn()]  # an Appeal is never playable in your own turn (reading 21)
    given(GAME, state).when(1, Draw()).then_refused("already-drew")
    state = given(GAME, state).when(1, EndTurn()).state
    assert state.turn_seat == 0


def test_an_empty_draw_pile_is_renewed_from_the_shuffled_discards() -> None:
    """Rules 7: 'If empty, form a new draw pile from the shuffled discard pile' (worked example 8)."""
    state = table([["EV-L2-9"], ["AU-L2"]], discard=("UC-1", "PW-05", "EV-L1-2"), **BLOCKED, turn=1)
    events = given(GAME, state).when(1, Draw()).events
    renewed, drawn = events
    assert isinstance(renewed, ev.DrawPileRenewed) and sorted(renewed.order) == ["EV-L1-2", "PW-05", "UC-1"]
    assert drawn == ev.CardDrawn(seat=1, card=renewed.order[0])
    after = given(GAME, state).when(1, Draw()).state
    assert after.discard == () and len(after.draw_pile) == 2
    assert GAME.redact(renewed, 0).order == () and GAME.redact(renewed, None).size == 3  # type: ignore[attr-defined]
    assert GAME.redact(drawn, 0).card == "" and GAME.redact(drawn, 1).card == drawn.card  # type: ignore[attr-defined]


def test_with_nothing_to_play_or_draw_the_turn_passes() -> None:
    """Reading 18: with both piles empty and nothing playable, the player passes."""
    state = table([["EV-L2-9"], ["AU-L2"], ["EV-L3-1"]], **BLOCKED, turn=1)
    assert GAME.legal(state, 1) == [EndTurn()]
    given(GAME, state).when(1, Draw()).then_refused("nothing-to-draw")


def test_playable_means_a_legal_target() -> None:
    """Reading 21: an Inspector with no legal target is not playable, so the player draws instead: here the most
    recent carriage is the player's own (reading 17) and the Authorised Inspector is of another line."""
    own = {**BLOCKED, "carriages": (carriage("L1", 1, "EV-L1-5"),)}
    state = table([["EV-L2-9"], ["AU-L2", "UC-1"]], draw=["EV-L3-1"], **own, turn=1)
    assert GAME.legal(state, 1) == [Draw()]
    given(GAME, state).when(1, Inspect(inspector="undercover")).then_refused("own-carriage")
    other = table([["EV-L2-9"], ["AU-L2"]], draw=["EV-L3-1"], **BLOCKED, turn=1)
    assert GAME.legal(other, 1) == [Draw()]
    given(GAME, other).when(1, Inspect(inspector="authorised")).then_refused("wrong-line")
