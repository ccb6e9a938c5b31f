"""Hidden information: hands are private; the draw pile and the Exp under the Line cards or in the pile are
hidden from all, spectators too. Everything on the table is public."""

from __future__ import annotations

import msgspec

from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.rng import Rng
from tests.games.touched_on.tables import carriage, table


def sample():
    """Three seats, a carriage on the table, a discard, a draw pile."""
    return table([["EV-L1-1", "UC-1"], ["EV-L2-1"], ["AU-L3", "PW-01"]], draw=["EV-L3-1", "PW-05"],
                 carriages=(carriage("L2", 1, "EV-L2-2"),), current_line="L2", discard=("UC-2",))


def test_hidden_from_lists_the_others_hands_the_draw_pile_and_every_uncollected_exp() -> None:
    """Each seat is kept from the other hands, the draw pile and the Exp; a spectator from every hand."""
    state = sample()
    exp = set(state.exp_pile) | {c for c in state.exp_under if c}
    assert GAME.hidden_from(state, 0) == frozenset({"EV-L2-1", "AU-L3", "PW-01", "EV-L3-1", "PW-05"} | exp)
    assert GAME.hidden_from(state, None) >= {"EV-L1-1", "UC-1", "EV-L2-1"}
    assert "EV-L2-2" not in GAME.hidden_from(state, None) and "UC-2" not in GAME.hidden_from(state, None)


def test_a_view_shows_the_own_hand_and_the_others_sizes() -> None:
    """A seat sees its own hand; others' hands and the piles only as sizes; the table in full."""
    state = sample()
    mine = GAME.view(state, 0)
    assert mine.hand == ("EV-L1-1", "UC-1")
    assert [s.hand_size for s in mine.seats] == [2, 1, 2] and mine.draw_size == 2
    assert mine.carriages == state.carriages and mine.discard == ("UC-2",)
    assert [line.exp_hidden for line in mine.lines] == [True, True, True]
    spectator = msgspec.json.encode(GAME.view(state, None))
    assert b"EV-L1-1" not in spectator and b"XP-" not in spectator and GAME.view(state, None).hand is None


def test_scramble_redeals_only_what_the_seat_cannot_see() -> None:
    """`scramble` re-deals the other hands with the draw pile, and the hidden Exp; the view is unchanged."""
    state = sample()
    changed = False
    for n in range(8):
        scrambled = GAME.scramble(state, 0, Rng.derive(f"scramble-{n}", 0))
        assert scrambled.hands[0] == state.hands[0]
        assert GAME.view(scrambled, 0) == GAME.view(state, 0)
        changed |= scrambled != state
    assert changed


def test_events_that_carry_hidden_cards_are_redacted() -> None:
    """A drawn card is shown to the drawer only; a renewed draw pile's order to nobody."""
    drawn = ev.CardDrawn(seat=1, card="PW-05")
    assert [GAME.redact(drawn, s) for s in (0, 1, None)] == [
        ev.CardDrawn(seat=1), drawn, ev.CardDrawn(seat=1)
    ]
    renewed = ev.DrawPileRenewed(order=("UC-2", "PW-06"), size=2)
    assert GAME.redact(renewed, 1) == ev.DrawPileRenewed(size=2)
    public = ev.EvadersPlayed(seat=0, line="L1", cards=("EV-L1-1",), new_carriage=True)
    assert GAME.redact(public, None) == public
