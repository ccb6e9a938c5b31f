"""`decide`, `legal` and `to_move`. One table says, for each situation, which commands exist, how each is judged
(its check raises a `Refusal` or returns) and what events it makes. `legal` lists the candidates that pass their
check; `decide` accepts exactly those, so the two never disagree. After an accepted command `rules_flow.settle`
emits everything that follows by itself, until a seat must choose.

The actions live in topic modules: `rules_opening` (secret Agenda, Prime Hub), `rules_income` (Annual Income),
`rules_turn` (Move, Pass, storage), `rules_resources`, `rules_city`, `rules_build`, with `rules_checks` and
`rules_table` shared by all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from domain.engine import Command, Decision, Event, Refusal
from domain.games.terminus import (
    commands,
    rules_build,
    rules_city,
    rules_income,
    rules_opening,
    rules_resources,
    rules_turn,
)
from domain.games.terminus.components import DATA, TILES, ZONES
from domain.games.terminus.rules_checks import Check, allowed
from domain.games.terminus.rules_flow import settle
from domain.games.terminus.state import State, evolve, over_limit
from domain.rng import Rng

Run = Callable[[Decision[State], int, Any], None]
Candidates = Callable[[State, int], Iterator[Command]]
Rule = tuple[Check, Run]  # how a command is judged, and the events it makes

ACT: dict[type[Command], Rule] = {
    commands.TakeDemand: (rules_city.check_demand, rules_city.run_demand),
    commands.PlaceDevelopment: (rules_city.check_development, rules_city.run_development),
    commands.MoveLobbyist: (rules_city.check_lobbyist, rules_city.run_lobbyist),
    commands.DrawAgendas: (rules_city.check_draw, rules_city.run_draw),
    commands.LobbyProject: (rules_city.check_lobby, rules_city.run_lobby),
    commands.TakeUpgrade: (rules_resources.check_upgrade, rules_resources.run_upgrade),
    commands.BuyResources: (rules_resources.check_buy, rules_resources.run_buy),
    commands.IncreaseCapacity: (rules_resources.check_capacity, rules_resources.run_capacity),
    commands.CollectConstruction: (rules_resources.check_collect, rules_resources.run_collect),
    commands.PurchaseRails: (rules_resources.check_rails, rules_resources.run_rails),
    commands.StartBuild: (rules_build.check_start, rules_build.run_start),
    commands.UseDevelopment: (rules_resources.check_use, rules_resources.run_use),
}
# The candidates of each Action Loop action, and of each kind of Development action.
BY_ACTION: dict[str, Candidates] = {
    "take_demand": rules_city.demand_candidates, "place_development": rules_city.development_candidates,
    "move_lobbyist": rules_city.lobbyist_candidates, "draw_agendas": rules_city.draw_candidates,
    "lobby_project": rules_city.lobby_candidates, "take_upgrade": rules_resources.upgrade_candidates,
    "buy_blueprint": rules_resources.buy_candidates, "buy_permit": rules_resources.buy_candidates,
    "buy_power": rules_resources.buy_candidates, "increase_capacity": rules_resources.capacity_candidates,
    "collect_construction": rules_resources.collect_candidates, "purchase_rails": rules_resources.rails_candidates,
    "build": rules_build.start_candidates,
}
BY_KIND: dict[str, Candidates] = {
    "take_demand": rules_city.demand_candidates, "develop": rules_city.development_candidates,
    "move_lobbyists": rules_city.lobbyist_candidates, "draw_agendas": rules_city.draw_candidates,
    "lobby": rules_city.lobby_candidates, "upgrade": rules_resources.upgrade_candidates,
    "capacity": rules_resources.capacity_candidates, "collect_construction": rules_resources.collect_candidates,
    "purchase_rails": rules_resources.rails_candidates, "build": rules_build.start_candidates,
    "gain": rules_resources.use_candidates, "any_resource": rules_resources.use_candidates,
}


def zone_candidates(state: State, seat: int) -> list[Candidates]:
    """Rules, Taking a Turn and Developments: the candidates of the Zone the seat's marker is in, its actions and
    its usable Developments'."""
    zone = state.players[seat].zone
    if zone is None:
        return []
    found = [BY_ACTION[action] for action in DATA.zone_actions[ZONES[zone]]]
    for tile, owners in enumerate(state.tile_lobbyists):
        if seat in owners and TILES[tile].zone == ZONES[zone] and isinstance(state.tile_at[tile], int):
            found.append(BY_KIND[TILES[tile].kind])
    return list(dict.fromkeys(found))


def zone_has_action(state: State, seat: int) -> bool:
    """Rules, Taking a Turn: some action can be carried out in the Zone the seat's marker stands in."""
    for candidates in zone_candidates(state, seat):
        for command in candidates(state, seat):
            if allowed(ACT[type(command)][0], state, seat, command):
                return True
    return False


def act_candidates(state: State, seat: int) -> Iterator[Command]:
    """Rules, Taking a Turn: every action of the Zone the seat's marker stands in."""
    for candidates in zone_candidates(state, seat):
        yield from candidates(state, seat)


def move_candidates(state: State, seat: int) -> Iterator[Command]:
    """Rules, Taking a Turn: pass or move, and the A1 exchange before moving."""
    yield from rules_turn.move_candidates(state, seat)
    yield from rules_resources.exchange_candidates(state, seat)


def build_candidates(state: State, seat: int) -> Iterator[Command]:
    """Rules, How to Build: each placement, and finishing the Build."""
    yield from rules_build.placement_candidates(state, seat)
    yield commands.FinishBuild()


def after_candidates(state: State, seat: int) -> Iterator[Command]:
    """Advanced Upgrade A3 and Development #08 (DEFAULT): the optional follow-ups on offer, and declining them."""
    if "rails" in state.turn.follow:
        yield from rules_resources.rails_candidates(state, seat)
    if "lobbyist" in state.turn.follow:
        yield from rules_city.lobbyist_candidates(state, seat)
    yield commands.EndTurn()


Situation = tuple[dict[type[Command], Rule], Candidates]

RETURNING: Situation = (
    {commands.ReturnResource: (rules_turn.check_return, rules_turn.run_return)}, rules_turn.return_candidates,
)
SITUATIONS: dict[str, Situation] = {
    "keep-agenda": ({commands.KeepAgenda: (rules_opening.check_secret, rules_opening.run_secret)},
                    rules_opening.keep_candidates),
    "place-hub": ({commands.PlaceHub: (rules_opening.check_place_hub, rules_opening.run_place_hub)},
                  rules_opening.place_hub_candidates),
    "bonus": ({commands.ChooseBonus: (rules_income.check_choose, rules_income.run_choose)},
              rules_income.choose_candidates),
    "income": ({commands.TakeReward: (rules_income.check_reward, rules_income.run_reward),
                commands.TakeBonus: (rules_income.check_take, rules_income.run_take)},
               rules_income.income_candidates),
    "move": ({commands.Pass: (rules_turn.check_pass, rules_turn.run_pass),
              commands.Move: (rules_turn.make_check_move(zone_has_action), rules_turn.run_move),
              commands.Exchange: (rules_resources.check_exchange, rules_resources.run_exchange)},
             move_candidates),
    "act": (ACT, act_candidates),
    "build": ({commands.BuildLink: (rules_build.check_link, rules_build.run_link),
               commands.BuildHub: (rules_build.check_hub, rules_build.run_hub),
               commands.FinishBuild: (rules_build.check_finish, rules_build.run_finish)},
              build_candidates),
    "keep-drawn": ({commands.KeepAgenda: (rules_city.check_keep_drawn, rules_city.run_keep_drawn)},
                   rules_opening.keep_candidates),
    "after": ({commands.PurchaseRails: (rules_resources.check_rails, rules_resources.run_rails),
               commands.MoveLobbyist: (rules_city.check_lobbyist, rules_city.run_lobbyist),
               commands.EndTurn: (rules_turn.check_end_turn, rules_turn.run_end_turn)},
              after_candidates),
}


def to_move(state: State) -> list[int]:
    """The seats that may act now: all who still choose at once (secret Agendas, Bonuses), a seat over its storage
    limit, or the one seat whose turn it is (Rules, Turn Order)."""
    if state.phase == "over":
        return []
    returning = over_limit(state)
    if returning is not None:
        return [returning]
    if state.phase == "keep-agenda":
        return [seat for seat, player in enumerate(state.players) if not player.secret]
    if state.phase == "bonus":
        return [seat for seat, player in enumerate(state.players) if player.bonus is None]
    if state.phase == "income":
        waiting = state.income[0][1] if state.income else None
        return [] if waiting is None else [waiting]
    if state.current is None:
        return []
    if state.phase == "place-hub" or state.step in SITUATIONS:
        return [state.current]
    return []


def situation(state: State) -> Situation | None:
    """Rules, Taking a Turn (and Collecting and spending resources: storage first): the commands on offer now."""
    if over_limit(state) is not None:
        return RETURNING
    return SITUATIONS.get(state.step if state.phase == "loop" and state.step is not None else state.phase)


def legal(state: State, seat: int) -> list[Command]:
    """Rules, Taking a Turn: every command the seat may send now, each passing its check."""
    found = situation(state) if seat in to_move(state) else None
    if found is None:
        return []
    rules, candidates = found
    return [command for command in candidates(state, seat) if allowed(rules[type(command)][0], state, seat, command)]


def decide(state: State, seat: int, command: Command, rng: Rng) -> Sequence[Event]:
    """Rules, Taking a Turn ("Actions must be executed in full"): the events of an accepted command and all that follows
    by itself, or a Refusal naming the first rule it breaks; a command is accepted exactly when `legal` lists it."""
    if state.phase == "over":
        raise Refusal("game-over", "the game is over")
    if seat not in to_move(state):
        raise Refusal("not-your-turn", "it is not your turn")
    found = situation(state)
    if found is None or type(command) not in found[0]:
        raise Refusal("wrong-step", "that command is not on offer at this point of the turn")
    rules, candidates = found
    check, run = rules[type(command)]
    check(state, seat, command)
    if command not in candidates(state, seat):
        raise Refusal("illegal-move", "that move is not available now")
    decision = Decision(state, evolve)
    run(decision, seat, command)
    settle(decision, rng)
    return decision.events
