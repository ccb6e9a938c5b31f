"""Rules sections 1 (Setup), 2 (Deal) and 3 (Taking A Turn); rules file worked examples 1 and 7."""

from __future__ import annotations

from collections import Counter

import pytest

from domain import match
from domain.engine import Decision, Refusal
from domain.games.touched_on import GAME
from domain.games.touched_on import events as ev
from domain.games.touched_on.components import (
    DATA,
    evader_inspector_pile,
    exp_cards,
    grouped,
    lines_for,
    power_kind,
    power_pile,
)
from domain.games.touched_on.rules_flow import end_journey
from domain.games.touched_on.state import evolve
from domain.rng import Rng
from tests.games.given import given
from tests.games.touched_on.tables import replace, table


@pytest.mark.parametrize(
    ("players", "lines", "evaders", "authorised", "undercover", "power", "exp"),
    [(2, 2, 18, 2, 2, 6, 12), (3, 3, 27, 3, 3, 9, 12), (4, 4, 36, 4, 4, 12, 12)],
)
def test_the_cards_used_follow_the_setup_table(
    players: int, lines: int, evaders: int, authorised: int, undercover: int, power: int, exp: int
) -> None:
    """Rules 1, Setup: the table of cards per player count (worked example 1); reading 2: whole lines are
    removed, their Evaders and Authorised Inspector with them."""
    assert len(lines_for(players)) == lines
    pile = evader_inspector_pile(players)
    kinds = Counter(card[:2] for card in pile)
    assert (kinds["EV"], kinds["AU"], kinds["UC"]) == (evaders, authorised, undercover)
    assert {card.split("-")[1] for card in pile if card.startswith(("EV", "AU"))} == set(lines_for(players))
    assert len(power_pile(players)) == power
    assert len(exp_cards(players)) == exp
    assert len(set(pile) | set(power_pile(players))) == len(pile) + len(power_pile(players))


@pytest.mark.parametrize(("players", "draw_size"), [(2, 6), (3, 9), (4, 12)])
def test_the_deal(players: int, draw_size: int) -> None:
    """Rules 2, Deal: 2 Power cards and 9 Evader/Inspector cards to each player; reading 1: the remainders of
    both piles are mixed into the draw pile (2p: 2 + 4 = 6, 4p: 4 + 8 = 12); one Exp hidden under each Line
    card, the rest face down beside the draw pile (worked example 1)."""
    events = GAME.start(GAME.options_type(), players, Rng.derive("deal", 0))
    setup, dealt, turn = events
    assert isinstance(setup, ev.GameSetUp) and isinstance(dealt, ev.JourneyDealt)
    for hand in dealt.hands:
        assert sum(1 for card in hand if power_kind(card)) == DATA.power_each
        assert sum(1 for card in hand if not power_kind(card)) == DATA.evader_inspector_each
    assert len(dealt.draw_pile) == draw_size
    every = [card for hand in dealt.hands for card in hand] + list(dealt.draw_pile)
    assert sorted(every) == sorted(evader_inspector_pile(players) + power_pile(players))
    state = given(GAME, None, *events).state  # type: ignore[arg-type]
    assert all(state.exp_under) and len(state.exp_under) == players
    assert len(state.exp_pile) == 12 - players


def test_the_player_left_of_the_dealer_begins() -> None:
    """Rules 3: 'The player to the left of the dealer begins the game' (worked example 7); reading 16: the first
    dealer is chosen at random and recorded in the set-up event."""
    dealers = set()
    for n in range(12):
        setup, _, turn = GAME.start(GAME.options_type(), 4, Rng.derive(f"dealer-{n}", 0))
        assert isinstance(setup, ev.GameSetUp) and isinstance(turn, ev.TurnStarted)
        assert turn.seat == (setup.dealer + 1) % 4
        dealers.add(setup.dealer)
    assert len(dealers) > 1


def test_the_dealer_passes_left_and_a_fresh_journey_is_dealt() -> None:
    """Rules 9: 'deal again for the next journey'; reading 12: the dealer passes to the left; reading 19: a Line
    card with no hidden Exp gets one from the pile, unclaimed ones stay (worked example 7)."""
    state = table([["EV-L1-1"], ["EV-L2-1"], ["EV-L1-2"]], dealer=2)
    state = replace(state, exp_under=("XP-01", "", "XP-03"), exp_pile=("XP-05",), places=(0, 1))
    flow = Decision(state, evolve)
    end_journey(flow, "two-out", Rng.derive("next", 1))
    kinds = [type(e) for e in flow.events]
    assert kinds == [ev.JourneyEnded, ev.JourneyDealt, ev.TurnStarted]
    dealt = flow.events[1]
    assert isinstance(dealt, ev.JourneyDealt) and dealt.dealer == 0 and dealt.journey == 2
    assert flow.events[2] == ev.TurnStarted(seat=1)
    assert flow.state.exp_under == ("XP-01", "XP-05", "XP-03")
    assert all(len(hand) == 11 for hand in flow.state.hands)
    assert flow.state.carriages == () and flow.state.places == ()


def test_a_deal_is_redacted_per_seat() -> None:
    """Hands are private; the draw pile and the Exp are hidden from all, spectators too."""
    events = match.open_match(GAME, ["a", "b", "c"], {}, "redact")
    dealt = next(e for e in events if isinstance(e, ev.JourneyDealt))
    setup = next(e for e in events if isinstance(e, ev.GameSetUp))
    for seat in (0, 1, 2, None):
        seen = GAME.redact(dealt, seat)
        assert isinstance(seen, ev.JourneyDealt)
        assert seen.draw_pile == () and seen.draw_size == 9 and seen.hand_sizes == (11, 11, 11)
        assert [bool(h) for h in seen.hands] == [s == seat for s in range(3)]
        hidden = GAME.redact(setup, seat)
        assert isinstance(hidden, ev.GameSetUp) and hidden.exp_pile == () and hidden.exp_count == 12


def test_the_hand_groups_cover_every_card() -> None:
    """Every card of the full box has a kind: Evaders by line, Inspectors, and the five Power cards."""
    box = evader_inspector_pile(4) + power_pile(4)
    groups = grouped(tuple(box))
    assert sum(len(cards) for cards in groups.values()) == 72 - 4 - 12  # less the Line and Exp cards
    assert {"appeal", "priority-seat", "feet-on-seat", "peak-hour", "tram-tracker", "undercover"} <= set(groups)


def test_the_free_tram_zone_option_removes_that_lines_authorised_inspector() -> None:
    """Rules 2, Deal: 'If any cards are removed, make sure the Evader and Authorised Inspector numbers match the
    Line cards you choose.' Reading 23: with the option `free_tram_zone`, no Inspector card may be played on that
    line, so its Authorised Inspector leaves the deck (in every journey) and no card in play is unplayable."""
    events = match.open_match(GAME, ["a", "b", "c"], {"free_tram_zone": "L2"}, "zone")
    setup = next(e for e in events if isinstance(e, ev.GameSetUp))
    dealt = next(e for e in events if isinstance(e, ev.JourneyDealt))
    assert setup.free_tram_zone == "L2"
    cards = [card for hand in dealt.hands for card in hand] + list(dealt.draw_pile)
    assert "AU-L2" not in cards and {"AU-L1", "AU-L3"} <= set(cards)
    assert len(cards) == len(evader_inspector_pile(3)) - 1 + len(power_pile(3))
    state = match.fold(GAME, events).game_state
    assert state.free_tram_zone == "L2" and GAME.view(state, 0).free_tram_zone == "L2"
    flow = Decision(replace(state, places=(0, 1)), evolve)
    end_journey(flow, "two-out", Rng.derive("next", 1))
    again = next(e for e in flow.events if isinstance(e, ev.JourneyDealt))
    assert "AU-L2" not in [card for hand in again.hands for card in hand] + list(again.draw_pile)
    assert flow.state.free_tram_zone == "L2"


def test_by_default_there_is_no_free_tram_zone() -> None:
    """Reading 23: the rulebook never names a line as the Free Tram Zone; every Authorised Inspector is dealt."""
    events = match.open_match(GAME, ["a", "b"], {}, "no-zone")
    setup = next(e for e in events if isinstance(e, ev.GameSetUp))
    dealt = next(e for e in events if isinstance(e, ev.JourneyDealt))
    assert setup.free_tram_zone == ""
    assert {"AU-L1", "AU-L2"} <= {card for hand in (*dealt.hands, dealt.draw_pile) for card in hand}


def test_the_free_tram_zone_must_be_a_line_in_play() -> None:
    """Reading 2: a 2-player game uses L1 and L2 only, so L3 cannot be its Free Tram Zone."""
    with pytest.raises(Refusal) as refused:
        match.open_match(GAME, ["a", "b"], {"free_tram_zone": "L3"}, "bad-zone")
    assert refused.value.code == "bad-options"
    with pytest.raises(Refusal):
        match.open_match(GAME, ["a", "b"], {"free_tram_zone": "L9"}, "bad-zone")
