"""The passage of turns and journeys: end of turn, DING confirmed, rewards, next journey.

Each step emits into the `Decision` in progress, so the next one is judged on the table as it now is.
"""

from __future__ import annotations

from domain.engine import Decision
from domain.games.touched_on.components import DATA
from domain.games.touched_on.events import (
    ClaimOffered,
    EndReason,
    ExpAwarded,
    JourneyEnded,
    PlayerFinished,
    TurnEnded,
    TurnStarted,
)
from domain.games.touched_on.rules_table import deadlocked, is_over
from domain.games.touched_on.setup import deal
from domain.games.touched_on.state import State
from domain.rng import Rng


def next_seat(state: State, after: int) -> int | None:
    """The next seat to the left of `after` still holding cards (it may be `after` itself)."""
    for k in range(1, state.seats + 1):
        seat = (after + k) % state.seats
        if state.hands[seat]:
            return seat
    return None


def take_exp(state: State, amount: int) -> tuple[str, ...]:
    """Rules, Win Exp + reading 11: the top cards of the Exp pile, then from under the Line cards in order."""
    available = state.exp_pile + tuple(card for card in state.exp_under if card)
    return available[:amount]


def place(decision: Decision[State], seat: int) -> None:
    """`seat` is out of the journey in the next place; 1st takes 2 Exp, 2nd takes 1 (rules, Win Exp)."""
    number = len(decision.state.places) + 1
    decision.emit(PlayerFinished(seat=seat, place=number))
    amount = {1: DATA.winner_exp, 2: DATA.second_exp}.get(number, 0)
    cards = take_exp(decision.state, amount)
    if cards:
        decision.emit(ExpAwarded(seat=seat, cards=cards, reason="first" if number == 1 else "second"))


def confirm_dings(decision: Decision[State]) -> None:
    """Reading 9: an emptied hand stands once the next turn after it emptied is over (that player's last
    chance to inspect); if nobody holds cards any more, every emptied hand stands at once, oldest first."""
    state = decision.state
    due = [seat for seat, turn in state.emptied if turn < state.turn_no]
    if next_seat(state, state.turn_seat) is None:
        due = [seat for seat, _ in state.emptied]
    for seat in due:
        place(decision, seat)
        if is_over(decision.state):
            return
    unplaced = [s for s in range(state.seats) if s not in decision.state.places]
    if len(decision.state.places) < 2 and len(unplaced) == 1:
        place(decision, unplaced[0])  # reading 10: in a 2-player journey the other player is 2nd at once


def journey_end(state: State) -> EndReason | None:
    """Why the journey ends now, or None (readings 10 and 18; the engine's turn limit)."""
    unplaced = [s for s in range(state.seats) if s not in state.places]
    if len(state.places) >= 2 or len(unplaced) <= 1:
        return "two-out"
    holders = sum(1 for hand in state.hands if hand)
    if state.idle_turns >= holders and not state.draw_pile and not state.discard:
        return "stuck"
    if deadlocked(state):
        return "stuck"
    if state.journey_turns >= state.max_turns_per_journey:
        return "turn-limit"
    return None


def place_by_hand_size(decision: Decision[State]) -> None:
    """Reading 18: a journey that cannot end gives its remaining places to the fewest cards; ties: no award."""
    while len(decision.state.places) < 2 and not is_over(decision.state):
        sizes = {s: len(decision.state.hands[s]) for s in range(decision.state.seats) if s not in decision.state.places}
        least = min(sizes.values())
        fewest = [s for s, n in sizes.items() if n == least]
        if len(fewest) != 1:
            return
        place(decision, fewest[0])


def end_journey(decision: Decision[State], reason: EndReason, rng: Rng) -> None:
    """Close the journey and deal the next one, the dealer passing left (reading 12)."""
    if reason != "two-out":
        place_by_hand_size(decision)
        if is_over(decision.state):
            return
    state = decision.state
    final = state.journey >= state.max_journeys
    decision.emit(JourneyEnded(journey=state.journey, reason=reason, final=final))
    if final or is_over(decision.state):
        return
    dealer = (state.dealer + 1) % state.seats
    dealt = deal(state.seats, dealer, state.journey + 1, rng, state.rules, state.free_tram_zone)
    decision.emit(dealt, TurnStarted(seat=(dealer + 1) % state.seats))


def finish_turn(decision: Decision[State], rng: Rng) -> None:
    """End the turn: DINGs that stood, the journey's end, else the forgotten Exp offered, else the next turn."""
    seat, unlocked = decision.state.turn_seat, decision.state.unlock_line
    decision.emit(TurnEnded(seat=seat))
    confirm_dings(decision)
    if is_over(decision.state):
        return
    reason = journey_end(decision.state)
    if reason:
        end_journey(decision, reason, rng)
        return
    state = decision.state
    following = next_seat(state, seat)
    assert following is not None
    if unlocked and state.exp_under[state.lines.index(unlocked)] and following != seat:
        # Rules, Unlock Exp: "If you forget then it can be taken by the next player."
        decision.emit(ClaimOffered(seat=following, line=unlocked))
        return
    decision.emit(TurnStarted(seat=following))
