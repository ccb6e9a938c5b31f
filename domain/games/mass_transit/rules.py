"""`decide`, `legal` and `to_move`: every judgement of a Mass Transit turn (plays, its end, the loss check)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from domain.engine import Command, Decision, Event, Refusal
from domain.games.mass_transit.commands import DiscardCard, EndTurn, PlaceCard
from domain.games.mass_transit.components import CARDS, HAND_SIZE, MIN_PLAYS, ROUTES
from domain.games.mass_transit.events import CardPlaced, CommuterMoved, TeamLost, TurnEnded
from domain.games.mass_transit.rules_movement import move
from domain.games.mass_transit.state import State, evolve
from domain.rng import Rng

# --- the two kinds of play -------------------------------------------------------------------------------------


def check_place(state: State, card: str, route: int) -> None:
    """Seed, Gameplay 1 and Suburbs; readings 6 and 16: extend a route at its open end."""
    if not 0 <= route < ROUTES:
        raise Refusal("no-such-route", f"routes are numbered 0 to {ROUTES - 1}")
    if state.route_closed(route):
        raise Refusal("route-closed", f"route {route} already ends in the Suburbs")
    need = CARDS[card].suburbs
    if need and len(state.routes[route]) < need:
        raise Refusal(
            "suburbs-too-close",
            f"this Suburbs card needs at least {need} cards between it and the Big City; route {route} has "
            f"{len(state.routes[route])}",
        )


def place_event(state: State, seat: int, command: PlaceCard) -> CardPlaced:
    """The event of a legal placement (or a refusal)."""
    check_place(state, command.card, command.route)
    return CardPlaced(seat=seat, card=command.card, route=command.route, position=len(state.routes[command.route]))


def discard_event(state: State, seat: int, command: DiscardCard) -> CommuterMoved:
    """Seed, Gameplay 2: discard a card to move one Commuter by its movement icon (or a refusal)."""
    if not 0 <= command.commuter < ROUTES:
        raise Refusal("no-such-commuter", f"Commuters are numbered 0 to {ROUTES - 1}")
    played = CARDS[command.card]
    if not played.discardable:
        kind = "a Suburbs card" if played.is_suburbs else "a Null card"
        raise Refusal("card-not-discardable", f"{command.card} is {kind} and cannot be discarded to move a Commuter")
    rider = state.commuters[command.commuter]
    step = move(state.routes[command.commuter], rider, played.move)
    return CommuterMoved(
        seat=seat, card=command.card, commuter=command.commuter, by=played.move,
        from_pos=rider.pos, to_pos=step.to_pos, held=step.held, home=step.home,
    )


def play_event(state: State, seat: int, command: Command) -> Event:
    """A placement or a discard by the active seat, judged."""
    if not isinstance(command, PlaceCard | DiscardCard):
        raise TypeError(command)
    if command.card not in state.hands[seat]:
        raise Refusal("card-not-in-hand", f"{command.card} is not in your hand")
    if isinstance(command, PlaceCard):
        return place_event(state, seat, command)
    return discard_event(state, seat, command)


def plays(state: State) -> Iterator[PlaceCard | DiscardCard]:
    """Every placement and discard the active seat may make now."""
    hand = state.hands[state.active]
    open_routes = [r for r in range(ROUTES) if not state.route_closed(r)]
    movers: dict[str, list[int]] = {}
    for card_id in hand:
        c = CARDS[card_id]
        for route in open_routes:
            if len(state.routes[route]) >= c.suburbs:
                yield PlaceCard(card=card_id, route=route)
        if c.discardable:
            if c.move not in movers:
                movers[c.move] = [i for i in range(ROUTES) if _can_move(state, i, c.move)]
            for commuter in movers[c.move]:
                yield DiscardCard(card=card_id, commuter=commuter)


def _can_move(state: State, commuter: int, by: str) -> bool:
    try:
        move(state.routes[commuter], state.commuters[commuter], by)
    except Refusal:
        return False
    return True


# --- ending a turn, winning and losing ---------------------------------------------------------------------------


def urgent_playable(listed: Sequence[Command]) -> list[str]:
    """Urgent cards still in hand that have a legal play (reading 7: one with no legal play may stay)."""
    return sorted({c.card for c in listed if isinstance(c, PlaceCard | DiscardCard) and CARDS[c.card].urgent})


def end_turn_events(state: State, seat: int) -> list[Event]:
    """Seed, Ending Your Turn and Urgent: 2+ cards played and no playable Urgent card kept; then draw to four."""
    if state.played < MIN_PLAYS:
        raise Refusal("too-few-cards-played", f"play at least {MIN_PLAYS} cards before ending your turn")
    urgent = urgent_playable(list(plays(state)))
    if urgent:
        raise Refusal("urgent-cards-left", f"Urgent cards must be played this turn: {', '.join(urgent)}")
    # Seed: "If the draw pile runs out, players can no longer draw cards ... Never reshuffle the discard pile."
    drawn = state.deck[: max(0, HAND_SIZE - len(state.hands[seat]))]
    return [TurnEnded(seat=seat, drawn=drawn, drawn_count=len(drawn), next_seat=(seat + 1) % state.seats)]


def can_play(state: State, count: int) -> bool:
    """Whether the active seat can still make `count` more plays this turn (a depth-first search, with a fast path)."""
    if count <= 0 or state.won:
        return True
    hand = state.hands[state.active]
    if sum(not CARDS[c].is_suburbs for c in hand) >= count and any(not state.route_closed(r) for r in range(ROUTES)):
        return True  # ordinary cards can always be laid on a route that is still open
    return any(
        can_play(evolve(state, play_event(state, state.active, command)), count - 1) for command in plays(state)
    )


def loss_check(state: State) -> list[Event]:
    """Seed, Losing the Game: the active seat can no longer reach two plays this turn, so the team loses."""
    if state.over or can_play(state, MIN_PLAYS - state.played):
        return []
    return [TeamLost(seat=state.active, hand_size=len(state.hands[state.active]))]


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """Judge one command of `seat`: the events it causes, or a `Refusal`."""
    if state.over:
        raise Refusal("game-over", "the team has already won or lost")
    if seat != state.active:
        raise Refusal("not-your-turn", f"it is seat {state.active}'s turn")
    decision = Decision(state, evolve)
    if isinstance(command, EndTurn):
        decision.emit(*end_turn_events(state, seat))
    else:
        decision.emit(play_event(state, seat, command))
    decision.emit(*loss_check(decision.state))
    return decision.events


def legal(state: State, seat: int) -> list[Command]:
    """Every command `seat` may send now: its plays, and ending the turn when that would be accepted."""
    if state.over or seat != state.active:
        return []
    listed: list[Command] = list(plays(state))
    if state.played >= MIN_PLAYS and not urgent_playable(listed):
        listed.append(EndTurn())
    return listed


def to_move(state: State) -> list[int]:
    """The active seat, until the team has won or lost."""
    return [] if state.over else [state.active]
