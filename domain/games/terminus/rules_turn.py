"""A turn around the Action Loop: Move (with the Automa's fee) or Pass, the end of an action and of its optional
follow-ups, and returning resources over the storage limit (Rules, Taking a Turn, Cycle Track, Passing;
Collecting and spending resources)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from msgspec.structs import replace

from domain.engine import Command, Decision, Refusal
from domain.games.terminus.commands import EndTurn, Move, Pass, ReturnResource
from domain.games.terminus.components import DATA, RESOURCES, ZONE_INDEX, ZONES
from domain.games.terminus.events import ActionDone, AutomaMoved, FollowUpOffered, MarkerMoved, Passed, ResourceReturned
from domain.games.terminus.rules_table import board_of, resource_index
from domain.games.terminus.state import FollowUp, State
from domain.games.terminus.state_table import replace_player

ZoneProbe = Callable[[State, int], bool]


def finish_action(seat: int, follow: tuple[FollowUp, ...] = (), via: str = "") -> list[ActionDone | FollowUpOffered]:
    """Rules, Taking a Turn ("Actions must be executed in full, and then your turn ends"): done, or an offer of the
    action's optional follow-ups (A3 Rails, tile #08's Lobbyist)."""
    return [FollowUpOffered(seat=seat, options=follow, via=via)] if follow else [ActionDone(seat=seat)]


def automa_fee(state: State, zone: int) -> int:
    """2-Player Game, Automa Trigger 1: entering the Automa's Zone costs 1 coin."""
    return DATA.costs.automa_fee if state.automa is not None and state.automa.zone == zone else 0


def make_check_move(has_action: ZoneProbe) -> Callable[[State, int, Move], None]:
    """Rules, Taking a Turn: the Move check, given the probe saying whether a Zone offers the seat some action."""

    def check_move(state: State, seat: int, command: Move) -> None:
        """Rules, Taking a Turn: clockwise to another Zone, not past the Checkpoint on the third cycle, paying the
        Automa's fee; this package's reading: only into a Zone where some action is then possible."""
        zone = ZONE_INDEX.get(command.zone)
        if zone is None:
            raise Refusal("unknown-zone", f"Zones are {', '.join(ZONES)}")
        player = state.players[seat]
        if zone == player.zone:
            raise Refusal("same-zone", "move at least one Zone clockwise")
        if player.zone is not None and 0 <= zone < player.zone and player.cycle >= 3:
            # Rules, Cycle Track: on the third cycle, reaching the Checkpoint means passing
            raise Refusal("cycle-limit", "your third cycle ends at the Checkpoint: pass instead")
        fee = automa_fee(state, zone)
        if player.coins < fee:
            raise Refusal("automa-fee", "entering the Automa's Zone costs 1 coin")
        probe = replace_player(state, seat, replace(player, zone=zone, coins=player.coins - fee))
        if not has_action(probe, seat):
            raise Refusal("no-action-in-zone", f"you could take no action in the {command.zone} Zone")

    return check_move


def move_candidates(state: State, seat: int) -> Iterator[Command]:
    """Rules, Taking a Turn and Passing: pass, or move to any Zone."""
    yield Pass()
    for zone in ZONES:
        yield Move(zone=zone)


def run_move(decision: Decision[State], seat: int, command: Move) -> None:
    """Rules, Taking a Turn and Cycle Track: the marker moves (the Cycle Marker down when it passes the Checkpoint);
    paying the Automa's fee moves the Automa on by its card's number, counter-clockwise (Trigger 1)."""
    zone = ZONE_INDEX[command.zone]
    player = decision.state.players[seat]
    crossing = player.zone is not None and 0 <= zone < player.zone
    fee = automa_fee(decision.state, zone)
    decision.emit(MarkerMoved(seat=seat, zone=command.zone, cycle=player.cycle + crossing, fee=fee))
    automa = decision.state.automa
    if fee and automa is not None:
        card = board_of(decision.state).automa_cards[automa.card]
        steps = (card.side_a if automa.side == "a" else card.side_b).n
        decision.emit(AutomaMoved(zone=ZONES[(automa.zone - steps) % len(ZONES)]))


def check_pass(state: State, seat: int, command: Pass) -> None:
    """Rules, Passing: a seat may always choose to leave the Action Loop for this Year."""


def run_pass(decision: Decision[State], seat: int, command: Pass) -> None:
    """Rules, Passing: the seat leaves the Loop; its place in the passing order is next Year's turn order."""
    decision.emit(Passed(seat=seat, position=len(decision.state.passed_order) + 1))


def check_end_turn(state: State, seat: int, command: EndTurn) -> None:
    """Advanced Upgrade A3 and Development #08 (DEFAULT): an optional follow-up may always be declined."""


def run_end_turn(decision: Decision[State], seat: int, command: EndTurn) -> None:
    """Advanced Upgrade A3 and Development #08: the follow-up is declined, and the action is done."""
    decision.emit(ActionDone(seat=seat))


def check_return(state: State, seat: int, command: ReturnResource) -> None:
    """Rules, Collecting and spending resources (reading 28): a resource the seat holds goes back to its market."""
    index = resource_index(command.resource)
    if index is None:
        raise Refusal("unknown-resource", f"resources are {', '.join(RESOURCES)}")
    if not state.players[seat].res[index]:
        raise Refusal("nothing-to-return", f"you hold no {command.resource}")


def return_candidates(state: State, seat: int) -> Iterator[ReturnResource]:
    """Rules, Collecting and spending resources: one of each resource."""
    for resource in RESOURCES:
        yield ReturnResource(resource=resource)


def run_return(decision: Decision[State], seat: int, command: ReturnResource) -> None:
    """Rules, Collecting and spending resources: the resource returns to its market (no coins back)."""
    decision.emit(ResourceReturned(seat=seat, resource=command.resource))
