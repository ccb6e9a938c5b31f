"""decide, legal and to_move. One table says, for each situation, which commands exist, how each is judged
(check: None or a refusal) and what events it makes. `legal` lists the candidates that pass their check;
`decide` accepts exactly the listed commands, so the two never disagree."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from domain.engine import Command, Decision, Event, Refusal
from domain.games.terminus import act_build as bld
from domain.games.terminus import act_city as city
from domain.games.terminus import act_phase as ph
from domain.games.terminus import act_resources as res
from domain.games.terminus import bonus
from domain.games.terminus import commands as cmd
from domain.games.terminus.cards import DATA, TILES, ZONES
from domain.games.terminus.common import Error
from domain.games.terminus.evolve import evolve
from domain.games.terminus.flow import settle
from domain.games.terminus.state import State, over_limit
from domain.rng import Rng

Check = Callable[[State, int, Any], Error]
Run = Callable[[Decision[State], int, Any], None]
Candidates = Callable[[State, int], Iterator[Command]]

ACT: dict[type[Command], tuple[Check, Run]] = {
    cmd.TakeDemand: (city.check_demand, city.run_demand),
    cmd.PlaceDevelopment: (city.check_development, city.run_development),
    cmd.MoveLobbyist: (city.check_lobbyist, city.run_lobbyist),
    cmd.DrawAgendas: (city.check_draw, city.run_draw),
    cmd.LobbyProject: (city.check_lobby, city.run_lobby),
    cmd.TakeUpgrade: (res.check_upgrade, res.run_upgrade),
    cmd.BuyResources: (res.check_buy, res.run_buy),
    cmd.IncreaseCapacity: (res.check_capacity, res.run_capacity),
    cmd.CollectConstruction: (res.check_collect, res.run_collect),
    cmd.PurchaseRails: (res.check_rails, res.run_rails),
    cmd.StartBuild: (bld.check_start, bld.run_start),
    cmd.UseDevelopment: (res.check_use, res.run_use),
}
# The candidates of each Action Loop action, and of each kind of Development action.
BY_ACTION: dict[str, Candidates] = {
    "take_demand": city.demand_candidates, "place_development": city.development_candidates,
    "move_lobbyist": city.lobbyist_candidates, "draw_agendas": city.draw_candidates,
    "lobby_project": city.lobby_candidates, "take_upgrade": res.upgrade_candidates,
    "buy_blueprint": res.buy_candidates, "buy_permit": res.buy_candidates, "buy_power": res.buy_candidates,
    "increase_capacity": res.capacity_candidates, "collect_construction": res.collect_candidates,
    "purchase_rails": res.rails_candidates, "build": bld.start_candidates,
}
BY_KIND: dict[str, Candidates] = {
    "take_demand": city.demand_candidates, "develop": city.development_candidates,
    "move_lobbyists": city.lobbyist_candidates, "draw_agendas": city.draw_candidates, "lobby": city.lobby_candidates,
    "upgrade": res.upgrade_candidates, "capacity": res.capacity_candidates,
    "collect_construction": res.collect_candidates, "purchase_rails": res.rails_candidates,
    "build": bld.start_candidates,
    "gain": res.use_candidates, "any_resource": res.use_candidates,
}


def zone_generators(state: State, seat: int) -> list[Candidates]:
    """The candidate generators for the Zone the seat's marker is in: its actions and its usable Developments."""
    zone = state.players[seat].zone
    if zone < 0:
        return []
    found = [BY_ACTION[action] for action in DATA.zone_actions[ZONES[zone]]]
    for tile, owners in enumerate(state.tile_lobbyists):
        if seat in owners and TILES[tile].zone == ZONES[zone] and state.tile_at[tile] >= 0:
            found.append(BY_KIND[TILES[tile].kind])
    return list(dict.fromkeys(found))


def zone_has_action(state: State, seat: int) -> bool:
    """Some action can be carried out in the Zone the seat's marker stands in (Rules, Taking a Turn)."""
    for candidates in zone_generators(state, seat):
        for command in candidates(state, seat):
            if ACT[type(command)][0](state, seat, command) is None:
                return True
    return False


def act_candidates(state: State, seat: int) -> Iterator[Command]:
    for candidates in zone_generators(state, seat):
        yield from candidates(state, seat)


MOVE: dict[type[Command], tuple[Check, Run]] = {
    cmd.Pass: (ph.check_pass, ph.run_pass),
    cmd.Move: (ph.make_check_move(zone_has_action), ph.run_move),
    cmd.Exchange: (res.check_exchange, res.run_exchange),
}
BUILD: dict[type[Command], tuple[Check, Run]] = {
    cmd.BuildLink: (bld.check_link, bld.run_link),
    cmd.BuildHub: (bld.check_hub, bld.run_hub),
    cmd.FinishBuild: (bld.check_finish, bld.run_finish),
}
AFTER: dict[type[Command], tuple[Check, Run]] = {
    cmd.PurchaseRails: (res.check_rails, res.run_rails),
    cmd.MoveLobbyist: (city.check_lobbyist, city.run_lobbyist),
    cmd.EndTurn: (ph.check_end_turn, ph.run_end_turn),
}


def _move_candidates(state: State, seat: int) -> Iterator[Command]:
    yield from ph.move_candidates(state, seat)
    yield from res.exchange_candidates(state, seat)


def _build_candidates(state: State, seat: int) -> Iterator[Command]:
    yield from bld.placement_candidates(state, seat)
    yield cmd.FinishBuild()


def _after_candidates(state: State, seat: int) -> Iterator[Command]:
    if "rails" in state.turn.follow:
        yield from res.rails_candidates(state, seat)
    if "lobbyist" in state.turn.follow:
        yield from city.lobbyist_candidates(state, seat)
    yield cmd.EndTurn()


def _income_candidates(state: State, seat: int) -> Iterator[Command]:
    """Annual Income waits on a seat for a Bonus that falls short (Bonuses) or a Turn Order Reward choice."""
    if state.income and state.income[0][0] == "bonus":
        yield from bonus.take_candidates(state, seat)
    else:
        yield from ph.reward_candidates(state, seat)


def _single(command: Command) -> Candidates:
    return lambda state, seat: iter((command,))


Situation = tuple[dict[type[Command], tuple[Check, Run]], Candidates]

RETURNING: Situation = ({cmd.ReturnResource: (ph.check_return, ph.run_return)}, ph.return_candidates)
SITUATIONS: dict[str, Situation] = {
    "keep-agenda": ({cmd.KeepAgenda: (ph.check_secret, ph.run_secret)},
                    lambda s, seat: (cmd.KeepAgenda(agenda=a) for a in s.players[seat].hand)),
    "place-hub": ({cmd.PlaceHub: (ph.check_place_hub, ph.run_place_hub)}, ph.place_hub_candidates),
    "bonus": ({cmd.ChooseBonus: (bonus.check_choose, bonus.run_choose)}, bonus.choose_candidates),
    "income": ({cmd.TakeReward: (ph.check_reward, ph.run_reward), cmd.TakeBonus: (bonus.check_take, bonus.run_take)},
               _income_candidates),
    "move": (MOVE, _move_candidates),
    "act": (ACT, act_candidates),
    "build": (BUILD, _build_candidates),
    "keep-drawn": ({cmd.KeepAgenda: (city.check_keep_drawn, city.run_keep_drawn)},
                   lambda s, seat: (cmd.KeepAgenda(agenda=a) for a in s.players[seat].hand)),
    "after": (AFTER, _after_candidates),
}


def to_move(state: State) -> list[int]:
    """The seats that may act now (several while choosing Agendas at set-up or Bonuses)."""
    if state.phase == "over":
        return []
    returning = over_limit(state)
    if returning >= 0:
        return [returning]
    if state.phase == "keep-agenda":
        return [seat for seat, p in enumerate(state.players) if not p.secret]
    if state.phase == "bonus":
        return [seat for seat, p in enumerate(state.players) if p.bonus < 0]
    if state.phase == "income":
        return [state.income[0][1]] if state.income else []
    if state.phase == "place-hub":
        return [state.current] if state.current >= 0 else []
    return [state.current] if state.current >= 0 and state.step in SITUATIONS else []


def situation(state: State) -> Situation | None:
    """The commands on offer now, or None."""
    if over_limit(state) >= 0:
        return RETURNING
    key = state.step if state.phase == "loop" else state.phase
    return SITUATIONS.get(key)


# The last state asked about and its legal lists by seat: states are immutable, so the lists stay right. One entry
# is swapped in whole, so concurrent callers each keep the entry of their own state.
_memo: list[tuple[State | None, dict[int, list[Command]]]] = [(None, {})]


def legal(state: State, seat: int) -> list[Command]:
    """Every command the seat may send now."""
    entry = _memo[0]
    if entry[0] is not state:
        entry = (state, {})
        _memo[0] = entry
    cached = entry[1].get(seat)
    if cached is None:
        cached = entry[1][seat] = _legal(state, seat)
    return list(cached)


def _legal(state: State, seat: int) -> list[Command]:
    if seat not in to_move(state):
        return []
    found = situation(state)
    if found is None:
        return []
    table, candidates = found
    return [c for c in candidates(state, seat) if table[type(c)][0](state, seat, c) is None]


def diagnose(state: State, seat: int, command: Command) -> Refusal:
    """Why a command that is not listed is refused."""
    if state.phase == "over":
        return Refusal("game-over", "the game is over")
    if seat not in to_move(state):
        return Refusal("not-your-turn", "it is not your turn")
    found = situation(state)
    if found is None or type(command) not in found[0]:
        return Refusal("wrong-step", "that command is not on offer at this point of the turn")
    error = found[0][type(command)][0](state, seat, command)
    if error is not None:
        return Refusal(*error)
    return Refusal("illegal-move", "that move is not available now")


def decide(state: State, seat: int, command: Command, rng: Rng) -> Sequence[Event]:
    """The events of an accepted command (and all that follows by itself), or a Refusal."""
    if command not in legal(state, seat):
        raise diagnose(state, seat, command)
    found = situation(state)
    assert found is not None
    b = Decision(state, evolve)
    found[0][type(command)][1](b, seat, command)
    settle(b, rng)
    return b.events
