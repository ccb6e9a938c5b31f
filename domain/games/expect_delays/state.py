"""The table as a frozen Struct, and `evolve`: a few dull lines per event, no judgement, no randomness."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

import msgspec
from msgspec.structs import replace

from domain.engine import Event
from domain.games.expect_delays.components import ADVISORIES, LINE_ORDER, SETUP, TRACK, Advisory, lines_of
from domain.games.expect_delays.editions import CURRENT, Rules
from domain.games.expect_delays.events import (
    ActionPhaseEnded,
    ActionTaken,
    AdvisoryDeckShuffled,
    AdvisoryRevealed,
    CardRepaired,
    CardsDiscarded,
    CardsDrawn,
    CardTakenOutOfService,
    CommuterBoarded,
    CommuterDisembarked,
    ExtraActionGained,
    FareSwipesGained,
    FareSwipesReturned,
    GameOver,
    GameSetUp,
    RidersMoved,
    TouristBoarded,
    TouristReturned,
    TrainDeckShuffled,
    TurnPassed,
)

Rider = Literal["commuter", "tourist"]
Stops = tuple[Rider | None, ...]
T = TypeVar("T")


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything on the table. Decks list their top card first; `tracks` follow `LINE_ORDER`."""

    max_turns: int
    turn: int = 1
    active_seat: int = 0
    actions_left: int
    hands: tuple[tuple[str, ...], ...]
    train_deck: tuple[str, ...] = ()
    discard_pile: tuple[str, ...] = ()
    out_of_service: tuple[str, ...] = ()
    advisory_deck: tuple[str, ...] = ()
    active_advisory: str | None = None
    advisory_discard: tuple[str, ...] = ()
    tracks: tuple[Stops, ...]
    points: tuple[int, ...]
    fare_swipes: tuple[int, ...]
    platform_fare_swipes: int
    platform_tourists: int
    end_reason: str | None = None
    rules: Rules = CURRENT  # the match's edition's switches (domain/editions.py puts them in at set-up)

    @property
    def next_advisory(self) -> str | None:
        """The face-up card on top of the advisory deck (public, rulebook Setup step 3)."""
        return self.advisory_deck[0] if self.advisory_deck else None

    @property
    def advisory(self) -> Advisory | None:
        """The Service Advisory in effect, if any."""
        return ADVISORIES[self.active_advisory] if self.active_advisory else None

    def track(self, line: str) -> Stops:
        """The stops of `line`, from the 0 stop to the last."""
        return self.tracks[LINE_ORDER.index(line)]

    def commuters_in_pool(self, seat: int) -> int:
        """Commuters of `seat` not on the board."""
        on_board = sum(stop == "commuter" for line in lines_of(seat) for stop in self.track(line))
        return SETUP.commuters_per_seat - on_board

    def riders_on_lines(self, seat: int) -> int:
        """Commuters and Tourists on `seat`'s own lines (the first tie-break, reading 14)."""
        return sum(stop is not None for line in lines_of(seat) for stop in self.track(line))


def _put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _add(numbers: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return _put(numbers, index, numbers[index] + delta)


def _without(items: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(item for item in items if item not in gone)


def _set_stop(state: State, line: str, stop: int, rider: Rider | None) -> tuple[Stops, ...]:
    index = LINE_ORDER.index(line)
    return _put(state.tracks, index, _put(state.tracks[index], stop, rider))


def _moved(stops: Stops, event: RidersMoved) -> Stops:
    after = list(stops)
    for move in event.moves:
        after[move.from_stop] = None
    for move in event.moves:
        if move.to_stop is not None:
            after[move.to_stop] = stops[move.from_stop]
    return tuple(after)


def initial_state(event: GameSetUp) -> State:
    """The table after rulebook Setup steps 1, 4, 5, 6 (decks and hands arrive as their own events)."""
    return State(
        max_turns=event.max_turns,
        actions_left=SETUP.actions_per_turn,
        hands=((),) * event.seats,
        tracks=((None,) * len(TRACK.stop_points),) * len(LINE_ORDER),
        points=(0,) * event.seats,
        fare_swipes=SETUP.start_fare_swipes,
        platform_fare_swipes=SETUP.fare_swipes_total - sum(SETUP.start_fare_swipes),
        platform_tourists=SETUP.tourists_total,
    )


def _train_deck_shuffled(state: State, event: TrainDeckShuffled) -> State:
    return replace(state, train_deck=event.order, discard_pile=())


def _advisory_deck_shuffled(state: State, event: AdvisoryDeckShuffled) -> State:
    return replace(state, advisory_deck=event.order, advisory_discard=())


def _cards_drawn(state: State, event: CardsDrawn) -> State:
    hands = _put(state.hands, event.seat, state.hands[event.seat] + event.cards)
    return replace(state, hands=hands, train_deck=_without(state.train_deck, event.cards))


def _action_taken(state: State, event: ActionTaken) -> State:
    return replace(state, actions_left=state.actions_left - 1)


def _commuter_boarded(state: State, event: CommuterBoarded) -> State:
    return replace(
        state,
        tracks=_set_stop(state, event.line, 0, "commuter"),
        fare_swipes=_add(state.fare_swipes, event.seat, -event.fare_paid),
        platform_fare_swipes=state.platform_fare_swipes + event.fare_paid,
    )


def _commuter_disembarked(state: State, event: CommuterDisembarked) -> State:
    return replace(
        state,
        tracks=_set_stop(state, event.line, event.stop, None),
        points=_add(state.points, event.seat, event.points),
    )


def _tourist_boarded(state: State, event: TouristBoarded) -> State:
    tourists = state.platform_tourists - 1
    return replace(state, tracks=_set_stop(state, event.line, 0, "tourist"), platform_tourists=tourists)


def _tourist_returned(state: State, event: TouristReturned) -> State:
    tourists = state.platform_tourists + 1
    return replace(state, tracks=_set_stop(state, event.line, event.stop, None), platform_tourists=tourists)


def _riders_moved(state: State, event: RidersMoved) -> State:
    index = LINE_ORDER.index(event.line)
    returned = sum(move.to_stop is None for move in event.moves)
    return replace(
        state,
        tracks=_put(state.tracks, index, _moved(state.tracks[index], event)),
        platform_tourists=state.platform_tourists + returned,
    )


def _cards_discarded(state: State, event: CardsDiscarded) -> State:
    return replace(
        state,
        hands=_put(state.hands, event.seat, _without(state.hands[event.seat], event.cards)),
        discard_pile=state.discard_pile + event.cards,
    )


def _card_taken_out_of_service(state: State, event: CardTakenOutOfService) -> State:
    return replace(
        state,
        hands=_put(state.hands, event.seat, _without(state.hands[event.seat], (event.card,))),
        out_of_service=state.out_of_service + (event.card,),
        fare_swipes=_add(state.fare_swipes, event.seat, event.fare_swipes),
        platform_fare_swipes=state.platform_fare_swipes - event.fare_swipes,
    )


def _card_repaired(state: State, event: CardRepaired) -> State:
    return replace(
        state,
        out_of_service=_without(state.out_of_service, (event.card,)),
        discard_pile=state.discard_pile + (event.card,),
    )


def _fare_swipes_gained(state: State, event: FareSwipesGained) -> State:
    swipes = _add(state.fare_swipes, event.seat, event.count)
    return replace(state, fare_swipes=swipes, platform_fare_swipes=state.platform_fare_swipes - event.count)


def _fare_swipes_returned(state: State, event: FareSwipesReturned) -> State:
    swipes = _add(state.fare_swipes, event.seat, -event.count)
    return replace(state, fare_swipes=swipes, platform_fare_swipes=state.platform_fare_swipes + event.count)


def _extra_action_gained(state: State, event: ExtraActionGained) -> State:
    return replace(state, actions_left=state.actions_left + event.count)


def _action_phase_ended(state: State, event: ActionPhaseEnded) -> State:
    return replace(state, actions_left=0)


def _advisory_revealed(state: State, event: AdvisoryRevealed) -> State:
    replaced = (state.active_advisory,) if state.active_advisory else ()
    return replace(
        state,
        active_advisory=event.advisory,
        advisory_deck=_without(state.advisory_deck, (event.advisory,)),
        advisory_discard=state.advisory_discard + replaced,
    )


def _turn_passed(state: State, event: TurnPassed) -> State:
    return replace(state, active_seat=event.seat, turn=event.turn, actions_left=SETUP.actions_per_turn)


def _game_over(state: State, event: GameOver) -> State:
    return replace(state, end_reason=event.reason)


# Each event after the set-up, and its fold (the set-up makes the state: `initial_state`).
HANDLERS: dict[type[Event], Callable[[Any, Any], State]] = {
    TrainDeckShuffled: _train_deck_shuffled, AdvisoryDeckShuffled: _advisory_deck_shuffled, CardsDrawn: _cards_drawn,
    ActionTaken: _action_taken, CommuterBoarded: _commuter_boarded, CommuterDisembarked: _commuter_disembarked,
    TouristBoarded: _tourist_boarded, TouristReturned: _tourist_returned, RidersMoved: _riders_moved,
    CardsDiscarded: _cards_discarded, CardTakenOutOfService: _card_taken_out_of_service,
    CardRepaired: _card_repaired, FareSwipesGained: _fare_swipes_gained, FareSwipesReturned: _fare_swipes_returned,
    ExtraActionGained: _extra_action_gained, ActionPhaseEnded: _action_phase_ended,
    AdvisoryRevealed: _advisory_revealed, TurnPassed: _turn_passed, GameOver: _game_over,
}


def evolve(state: State | None, event: Event) -> State:
    """The table after `event`."""
    if state is None:
        if not isinstance(event, GameSetUp):
            raise ValueError("an expect-delays stream begins with expect-delays.game-set-up")
        return initial_state(event)
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise ValueError(f"not an expect-delays event: {event!r}")
    return handler(state, event)
