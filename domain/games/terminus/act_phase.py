"""Set-up choices, Annual Income choices, storage returns and the Action Loop moves (Move, Pass, End Turn)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from msgspec.structs import replace

from domain.engine import Command, Decision
from domain.games.terminus import common as c
from domain.games.terminus.cards import DATA, RESOURCES, ZONE_INDEX, ZONES, Reward
from domain.games.terminus.commands import (
    EndTurn,
    KeepAgenda,
    Move,
    Pass,
    PlaceHub,
    ReturnResource,
    TakeReward,
)
from domain.games.terminus.events import (
    ActionDone,
    AutomaMoved,
    MarkerMoved,
    Passed,
    PrimeHubPlaced,
    ResourceReturned,
    RewardTaken,
    SecretAgendaKept,
)
from domain.games.terminus.state import State, replace_player

# --- Set-up: keep a secret Agenda, place the Prime Hub -------------------------------------------------------------


def check_secret(state: State, seat: int, cmd: KeepAgenda) -> c.Error:
    player = state.players[seat]  # a seat that already kept one is no longer to move
    if cmd.agenda not in player.hand:
        return "not-in-hand", f"{cmd.agenda} is not one of your 2 dealt Agendas"
    return None


def run_secret(b: Decision[State], seat: int, cmd: KeepAgenda) -> None:
    b.emit(SecretAgendaKept(seat=seat, agenda=cmd.agenda))


def check_place_hub(state: State, seat: int, cmd: PlaceHub) -> c.Error:
    plot = c.geo(state).plot_index.get(cmd.plot)
    if plot is None:
        return "unknown-plot", f"there is no plot {cmd.plot!r}"
    if state.stop_owner[plot] >= 0:
        return "plot-taken", f"{cmd.plot} already holds a Stop"
    return None


def place_hub_candidates(state: State, seat: int) -> Iterator[PlaceHub]:
    g = c.geo(state)
    for plot, owner in enumerate(state.stop_owner):
        if owner < 0:
            yield PlaceHub(plot=g.plots[plot].id)


def run_place_hub(b: Decision[State], seat: int, cmd: PlaceHub) -> None:
    b.emit(PrimeHubPlaced(seat=seat, plot=cmd.plot))


# --- Annual Income: Turn Order Reward choice (the Bonus Track: bonus.py), storage returns -------------------------


def reward_of(state: State, seat: int) -> Reward:
    """Reading 5: the Turn Order card's leftmost N columns show; 1st place sits in the rightmost visible column."""
    position = state.order.index(seat)
    return DATA.turn_order_rewards[state.seats - 1 - position]


def reward_choices(state: State, seat: int) -> list[str]:
    """What the seat may choose as its Turn Order Reward: available resources (reading 31), 'coins' if allowed."""
    reward = reward_of(state, seat)
    if not reward.resources:
        return []
    out = [r for i, r in enumerate(RESOURCES) if sum(state.markets[i])]
    return [*out, "coins"] if reward.either else out


def reward_event(state: State, seat: int, choice: str) -> RewardTaken:
    reward = reward_of(state, seat)
    if choice == "coins" or not choice:
        return RewardTaken(seat=seat, coins=reward.coins)
    return RewardTaken(seat=seat, resource=choice, coins=0 if reward.either else reward.coins)


def check_reward(state: State, seat: int, cmd: TakeReward) -> c.Error:
    if not state.income or state.income[0] != ("reward", seat):
        return "wrong-step", "it is not your turn to take a Turn Order Reward"
    if cmd.choice not in reward_choices(state, seat):
        return "reward-unavailable", f"{cmd.choice!r} is not a Turn Order Reward you can take"
    return None


def reward_candidates(state: State, seat: int) -> Iterator[TakeReward]:
    for choice in reward_choices(state, seat):
        yield TakeReward(choice=choice)


def run_reward(b: Decision[State], seat: int, cmd: TakeReward) -> None:
    b.emit(reward_event(b.state, seat, cmd.choice))


def check_return(state: State, seat: int, cmd: ReturnResource) -> c.Error:
    r = c.resource_index(cmd.resource)
    if r is None:
        return "unknown-resource", f"resources are {', '.join(RESOURCES)}"
    if not state.players[seat].res[r]:
        return "nothing-to-return", f"you hold no {cmd.resource}"
    return None


def return_candidates(state: State, seat: int) -> Iterator[ReturnResource]:
    for resource in RESOURCES:
        yield ReturnResource(resource=resource)


def run_return(b: Decision[State], seat: int, cmd: ReturnResource) -> None:
    b.emit(ResourceReturned(seat=seat, resource=cmd.resource))


# --- The Action Loop: Move, Pass, End Turn -------------------------------------------------------------------------

ZoneProbe = Callable[[State, int], bool]


def automa_fee(state: State, zone: int) -> int:
    """2-player Automa, Trigger 1: entering the Automa's Zone costs 1 coin."""
    return DATA.costs.automa_fee if state.automa is not None and state.automa.zone == zone else 0


def make_check_move(has_action: ZoneProbe) -> Callable[[State, int, Move], c.Error]:
    """The Move check, given the probe telling whether a Zone offers the seat any action."""

    def check_move(state: State, seat: int, cmd: Move) -> c.Error:
        zone = ZONE_INDEX.get(cmd.zone)
        if zone is None:
            return "unknown-zone", f"Zones are {', '.join(ZONES)}"
        player = state.players[seat]
        if zone == player.zone:
            return "same-zone", "move at least one Zone clockwise"
        if 0 <= zone < player.zone and player.cycle >= 3:
            # Rules, Cycle Track: on the third cycle, reaching the Checkpoint means passing
            return "cycle-limit", "your third cycle ends at the Checkpoint: pass instead"
        fee = automa_fee(state, zone)
        if player.coins < fee:
            return "automa-fee", "entering the Automa's Zone costs 1 coin"
        probe = replace_player(state, seat, replace(player, zone=zone, coins=player.coins - fee))
        if not has_action(probe, seat):
            return "no-action-in-zone", f"you could take no action in the {cmd.zone} Zone"
        return None

    return check_move


def move_candidates(state: State, seat: int) -> Iterator[Command]:
    yield Pass()
    for zone in ZONES:
        yield Move(zone=zone)


def run_move(b: Decision[State], seat: int, cmd: Move) -> None:
    zone = ZONE_INDEX[cmd.zone]
    player = b.state.players[seat]
    crossing = 0 <= zone < player.zone  # Rules, Cycle Track: move the Cycle Marker down before passing it
    fee = automa_fee(b.state, zone)
    b.emit(MarkerMoved(seat=seat, zone=cmd.zone, cycle=player.cycle + crossing, fee=fee))
    automa = b.state.automa
    if fee and automa is not None:
        card = c.geo(b.state).automa_cards[automa.card]
        n = (card.side_a if automa.side == "a" else card.side_b).n
        b.emit(AutomaMoved(zone=ZONES[(automa.zone - n) % len(ZONES)]))


def check_pass(state: State, seat: int, cmd: Pass) -> c.Error:
    return None


def run_pass(b: Decision[State], seat: int, cmd: Pass) -> None:
    b.emit(Passed(seat=seat, position=len(b.state.passed_order) + 1))


def check_end_turn(state: State, seat: int, cmd: EndTurn) -> c.Error:
    return None


def run_end_turn(b: Decision[State], seat: int, cmd: EndTurn) -> None:
    b.emit(ActionDone(seat=seat))
