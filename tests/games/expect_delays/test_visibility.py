"""Hidden information (rulebook, Setup 2-3): hands are private, the Train deck is face down, the advisory
deck lies face up so only its top card can be read; everything else on the table is public."""

from __future__ import annotations

from domain.codec import encode
from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import RunTheLine
from domain.games.expect_delays.events import AdvisoryDeckShuffled, CardsDiscarded, CardsDrawn, TrainDeckShuffled
from domain.rng import Rng
from tests.games.expect_delays.tables import DOWNTOWN, UPTOWN, table
from tests.games.given import given, of_type

HANDS = (("T01", "T02", "T03"), ("T07", "T08", "T09"))


def test_a_view_shows_the_own_hand_and_only_sizes_of_the_rest() -> None:
    """Each seat sees its own hand; of the other hand and the Train deck only their sizes."""
    state = table(hands=HANDS, advisory_deck=("SA04", "SA11", "SA16"), active_advisory="SA02")
    mine, spectator = GAME.view(state, UPTOWN), GAME.view(state, None)
    assert mine.hand == HANDS[UPTOWN] and spectator.hand is None
    assert [seat.hand_size for seat in mine.seats] == [3, 3] and mine.train_deck_size == 10
    assert (mine.active_advisory, mine.next_advisory, mine.advisory_deck_size) == ("SA02", "SA04", 3)
    assert mine.data == "DEFAULT"
    for seen in (encode(spectator), encode(GAME.view(state, DOWNTOWN))):
        assert not any(f'"{card}"'.encode() in seen for card in HANDS[UPTOWN] + ("SA11", "SA16"))


def test_draws_are_redacted_for_the_other_seat_and_spectators() -> None:
    """A draw shows its cards to the drawing seat only; the others learn the count."""
    drawn = CardsDrawn(seat=UPTOWN, cards=("T01", "T05"), count=2)
    assert GAME.redact(drawn, UPTOWN) == drawn
    assert GAME.redact(drawn, DOWNTOWN) == CardsDrawn(seat=UPTOWN, cards=(), count=2)
    assert GAME.redact(drawn, None) == CardsDrawn(seat=UPTOWN, cards=(), count=2)


def test_shuffles_hide_the_order_from_everyone_but_the_face_up_advisory() -> None:
    """The Train deck order is hidden from all; of the advisory deck only the top (next) card shows."""
    deck = TrainDeckShuffled(order=("T03", "T01", "T02"), size=3)
    advisories = AdvisoryDeckShuffled(order=("SA03", "SA01", "SA02"), size=3)
    for seat in (UPTOWN, DOWNTOWN, None):
        assert GAME.redact(deck, seat) == TrainDeckShuffled(order=(), size=3)
        assert GAME.redact(advisories, seat) == AdvisoryDeckShuffled(order=("SA03",), size=3)


def test_public_events_are_not_redacted() -> None:
    """Discards are face up (rulebook, Repair: the Discard pile is face up)."""
    discarded = CardsDiscarded(seat=UPTOWN, cards=("T01",))
    assert GAME.redact(discarded, DOWNTOWN) == discarded


def test_hidden_from_names_other_hands_the_deck_and_the_advisories_below_the_top() -> None:
    """What a seat must not learn: the other hand, the Train deck, the advisory deck below its top card."""
    state = table(hands=HANDS, deck=("T10", "T11"), advisory_deck=("SA01", "SA02"))
    assert GAME.hidden_from(state, UPTOWN) == {"T07", "T08", "T09", "T10", "T11", "SA02"}
    assert GAME.hidden_from(state, None) == {*HANDS[0], *HANDS[1], "T10", "T11", "SA02"}


def test_cards_shown_face_up_then_reshuffled_are_hidden_again_and_never_named_after() -> None:
    """A card discarded face up is seen by everyone when it is discarded; once the Upkeep shuffles it into the deck
    or into the hand just drawn it is hidden again, and no event from then on names it for the other seat (each
    event is judged against the table right after it, as the conformance suite does)."""
    state = table(hands=(("T01", "T02"), ("T07", "T08", "T09")), deck=(), discard=("T03", "T04"), actions_left=1,
                  out_of_service=("T05", "T06", "T10", "T11", "T12", "T13", "T14", "T15", "T16"),
                  advisory_deck=("SA01", "SA02"))
    move = given(GAME, state).when(RunTheLine(line="U1", cards=("T01",)))
    # T01-T04 were reshuffled: Uptown's new hand and the deck hold them, all hidden from Downtown again.
    assert set(move.state.hands[UPTOWN] + move.state.train_deck) == {"T01", "T02", "T03", "T04"}
    assert GAME.hidden_from(move.state, DOWNTOWN) == {"T01", "T02", "T03", "T04"}
    table_now = given(GAME, state)
    for event in move.events:
        table_now = table_now.fold([event])
        redacted = encode(GAME.redact(event, DOWNTOWN))
        assert not any(f'"{card}"'.encode() in redacted for card in GAME.hidden_from(table_now.state, DOWNTOWN))
    shown = [card for e in of_type(move.events, CardsDiscarded) for card in GAME.redact(e, DOWNTOWN).cards]
    assert shown == ["T01", "T02"]  # face up when discarded: the run's card, then the hand in Upkeep


def test_scramble_redeals_only_what_the_seat_cannot_see() -> None:
    """`scramble` re-deals the other hand, the deck and the advisories below the top: the view is unchanged."""
    state = table(hands=HANDS, advisory_deck=("SA01", "SA02", "SA03", "SA04"))
    rng = Rng(b"scramble")
    changed = [GAME.scramble(state, UPTOWN, rng) for _ in range(5)]
    assert any(other != state for other in changed)
    for other in changed:
        assert other.hands[UPTOWN] == HANDS[UPTOWN] and other.next_advisory == "SA01"
        assert GAME.view(other, UPTOWN) == GAME.view(state, UPTOWN)
    spectator = GAME.scramble(state, None, rng)
    assert GAME.view(spectator, None) == GAME.view(state, None)
