"""Hidden information: each seat's dealt and secret Agendas, Agendas drawn before keeping one, the Agenda deck, and
Bonus choices before all have chosen (Rules, Turn Order 2: 'The objective of this card remains hidden')."""

from __future__ import annotations

from msgspec.structs import replace

from domain.codec import encode
from domain.games.terminus import GAME
from domain.games.terminus import commands as C
from domain.games.terminus.events import AgendaChosen, AgendasDealt, AgendasDrawn
from domain.games.terminus.options import Options
from domain.games.terminus.setup import start
from domain.rng import Rng
from tests.games.given import given
from tests.games.terminus.tables import started, table, to_act


def test_dealt_hands_are_seen_only_by_their_seat() -> None:
    """Turn Order 1-2: each seat sees its own 2 dealt Agendas; the deck is face down for everyone."""
    events = start(Options(), 3, Rng.derive("vis", 0))
    dealt = next(e for e in events if isinstance(e, AgendasDealt))
    mine = GAME.redact(dealt, 1)
    assert mine.hands[1] == dealt.hands[1] and mine.hands[0] == () and mine.deck == () and mine.deck_size == 29
    spectator = GAME.redact(dealt, None)
    assert all(h == () for h in spectator.hands)


def test_hidden_tokens_during_set_up() -> None:
    """hidden_from: the deck and the others' hands are hidden; your own hand is not."""
    state = started(3, seed="vis")
    hidden = GAME.hidden_from(state, 0)
    assert set(state.players[0].hand).isdisjoint(hidden)
    assert set(state.players[1].hand) <= hidden and set(state.deck) <= hidden
    assert set(state.players[0].hand) <= GAME.hidden_from(state, None)


def test_the_secret_agenda_stays_hidden_all_game() -> None:
    """The kept Agenda is hidden from the others (view shows only that it exists) until final scoring."""
    state = table(3)
    secret = state.players[0].secret
    assert secret in GAME.hidden_from(state, 1) and secret not in GAME.hidden_from(state, 0)
    assert GAME.view(state, 1).players[0].secret is True
    assert GAME.view(state, 0).players[0].secret == secret
    assert secret.encode() not in encode(GAME.view(state, 2))


def test_revealed_turn_order_cards_are_public_though_back_in_the_deck() -> None:
    """Turn Order 3 and 6: the revealed cards are known to all; where they lie in the deck is not."""
    state = table(3)
    for card in state.public_agendas:
        assert card in state.deck and card not in GAME.hidden_from(state, 0)


def test_drawn_agendas_are_seen_by_the_drawer_only() -> None:
    """Draw Agendas: the drawer sees the drawn cards; the returned ones go to the bottom, still unknown to others."""
    state = to_act(replace(table(3), year=2), 0, "lobby", res=(1, 0, 0, 0))
    move = given(GAME, state).when(0, C.DrawAgendas())
    state, events = move.state, move.events
    drawn = next(e for e in events if isinstance(e, AgendasDrawn))
    assert GAME.redact(drawn, 1).cards == () and GAME.redact(drawn, 0).cards == drawn.cards
    assert set(drawn.cards) <= GAME.hidden_from(state, 1)
    assert GAME.view(state, 1).players[0].hand == 2
    move = given(GAME, state).when(0, C.KeepAgenda(agenda=drawn.cards[0]))
    state, events = move.state, move.events
    chosen = next(e for e in events if isinstance(e, AgendaChosen))
    assert GAME.redact(chosen, 2).returned == () and GAME.redact(chosen, 0).returned == (drawn.cards[1],)
    assert drawn.cards[1] in GAME.hidden_from(state, 1) and drawn.cards[1] not in GAME.hidden_from(state, 0)
    assert drawn.cards[0] not in GAME.hidden_from(state, 1)


def test_scramble_redeals_only_what_the_seat_cannot_see() -> None:
    """scramble keeps the seat's view identical and really changes hidden places."""
    state = table(4)
    rng = Rng.derive("scramble", 0)
    for seat in (0, 3, None):
        other = GAME.scramble(state, seat, rng)
        assert other != state
        assert encode(GAME.view(other, seat)) == encode(GAME.view(state, seat))
    assert GAME.scramble(state, 0, rng).players[0].secret == state.players[0].secret


def test_bonus_choices_are_hidden_until_everyone_chose() -> None:
    """Bonuses are chosen simultaneously: a pending choice shows only as 'chosen'."""
    state = started(2)
    for seat in range(2):
        state = given(GAME, state).when(seat, C.KeepAgenda(agenda=state.players[seat].hand[0])).state
    while state.phase == "place-hub":
        state = given(GAME, state).when(state.current, C.PlaceHub(plot=["P11", "P51"][state.current])).state
    state = given(GAME, state).when(1, C.ChooseBonus(option=3)).state
    assert GAME.view(state, 0).players[1].bonus is True
    assert GAME.view(state, 1).players[1].bonus == 3
    assert GAME.view(state, 0).players[0].bonus == -1


def test_render_draws_the_table() -> None:
    """render gives a plain-text picture (used by golden files)."""
    text = GAME.render(table(3))
    assert "Terminus  year 1" in text and "<0>" in text and "seat 2:" in text
