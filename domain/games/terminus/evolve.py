"""Evolve: apply one event to the table. Dull on purpose: no validation, no randomness."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.engine import Event
from domain.games.terminus import events as ev
from domain.games.terminus import market
from domain.games.terminus.cards import DATA, PROJECT_INDEX, RESOURCES, TILE_INDEX, TILES, UPGRADE_INDEX, ZONE_INDEX
from domain.games.terminus.cards import board as board_of
from domain.games.terminus.state import Automa, Player, State, Turn, replace_player

RES_INDEX = {r: i for i, r in enumerate(RESOURCES)}


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _next_seat(state: State, after: int) -> int:
    """The next seat in turn order after `after` that has not passed, or -1."""
    order = state.order
    start = order.index(after) if after in order else -1
    for k in range(1, len(order) + 1):
        seat = order[(start + k) % len(order)]
        if not state.players[seat].passed:
            return seat
    return -1


def _trade(state: State, seat: int, coins: int, take: tuple[int, ...], give: tuple[int, ...], rails: int) -> State:
    """Move coins, cubes between markets and storage, and Rails from reserve to storage."""
    markets = list(state.markets)
    res = list(state.players[seat].res)
    for r in range(len(res)):
        if take[r]:
            markets[r] = market.take(markets[r], take[r])
            res[r] += take[r]
        if give[r]:
            markets[r] = market.give(markets[r], market.capacities(r, state.seats), give[r])
            res[r] -= give[r]
    p = state.players[seat]
    player = replace(
        p, coins=p.coins + coins, res=tuple(res), rails_reserve=p.rails_reserve - rails,
        rails_storage=p.rails_storage + rails,
    )
    return replace_player(replace(state, markets=tuple(markets)), seat, player)


def _one(resource: str) -> tuple[int, int, int, int]:
    out = [0, 0, 0, 0]
    out[RES_INDEX[resource]] = 1
    return (out[0], out[1], out[2], out[3])


NOTHING = (0, 0, 0, 0)


def set_up(_: State | None, e: ev.SetUp) -> State:
    b = board_of(e.board)
    tile_at = [-2] * len(TILES)
    tile_token = [-1] * len(TILES)
    for tile, token in zip(e.display, e.tokens, strict=True):
        tile_at[TILE_INDEX[tile]] = -1
        tile_token[TILE_INDEX[tile]] = b.token_index[token] if token else -1
    projects = tuple(PROJECT_INDEX[p] for p in e.projects)
    return State(
        board=e.board, seats=e.seats, first_game=e.first_game,
        players=tuple(Player(capacity=e.capacity_start) for _ in range(e.seats)),
        markets=market.initial(e.seats), stop_owner=(-1,) * len(b.plots), stop_level=(0,) * len(b.plots),
        rail_owners=((),) * len(b.board.rails), block_tile=(-1,) * len(b.board.blocks), tile_at=tuple(tile_at),
        tile_token=tuple(tile_token), tile_lobbyists=((),) * len(TILES), projects=projects,
        project_rows=((),) * len(projects), upgrade_supply=(e.upgrade_copies,) * len(DATA.upgrades),
    )


def agendas_dealt(s: State, e: ev.AgendasDealt) -> State:
    players = tuple(replace(p, hand=hand, seen=hand) for p, hand in zip(s.players, e.hands, strict=True))
    return replace(s, deck=e.deck, players=players)


def automa_set_up(s: State, e: ev.AutomaSetUp) -> State:
    plot = board_of(s.board).plot_index[e.plot]
    automa = Automa(card=e.card, side=e.side, zone=ZONE_INDEX[e.zone], arrow=e.arrow, prime=plot, terminus=plot)
    owners, levels = _set(s.stop_owner, plot, s.seats), _set(s.stop_level, plot, 3)
    return replace(s, automa=automa, stop_owner=owners, stop_level=levels)


def secret_kept(s: State, e: ev.SecretAgendaKept) -> State:
    p = s.players[e.seat]
    return replace_player(s, e.seat, replace(p, secret=e.agenda, hand=tuple(a for a in p.hand if a != e.agenda)))


def turn_order_revealed(s: State, e: ev.TurnOrderRevealed) -> State:
    players = tuple(replace(p, hand=()) for p in s.players)
    return replace(s, players=players, order=e.order, public_agendas=(*s.public_agendas, *e.cards),
                   phase="place-hub", current=e.order[-1])


def deck_shuffled(s: State, e: ev.AgendaDeckShuffled) -> State:
    return replace(s, deck=e.deck)


def prime_hub_placed(s: State, e: ev.PrimeHubPlaced) -> State:
    plot = board_of(s.board).plot_index[e.plot]
    s = replace(s, stop_owner=_set(s.stop_owner, plot, e.seat), stop_level=_set(s.stop_level, plot, 3))
    index = s.order.index(e.seat)
    s = replace(s, current=s.order[index - 1] if index > 0 else -1)
    return replace_player(s, e.seat, replace(s.players[e.seat], prime=plot))


def year_began(s: State, e: ev.YearBegan) -> State:
    players = tuple(replace(p, zone=-1, cycle=1, passed=False, bonus=-1) for p in s.players)
    return replace(s, year=e.year, phase="bonus", step="", current=-1, players=players, passed_order=(), turn=Turn())


def bonus_chosen(s: State, e: ev.BonusChosen) -> State:
    return replace_player(s, e.seat, replace(s.players[e.seat], bonus=e.option))


def income_began(s: State, e: ev.IncomeBegan) -> State:
    players = tuple(replace(p, bonus=b) for p, b in zip(s.players, e.bonuses, strict=True))
    return replace(s, players=players, income=e.steps, phase="income")


def bonus_collected(s: State, e: ev.BonusCollected) -> State:
    s = _trade(s, e.seat, e.coins, e.take, NOTHING, e.rails)
    return replace(s, income=s.income[1:])


def budget_paid(s: State, e: ev.BudgetPaid) -> State:
    players = tuple(replace(p, coins=p.coins + c) for p, c in zip(s.players, e.coins, strict=True))
    return replace(s, players=players, income=s.income[1:])


def reward_taken(s: State, e: ev.RewardTaken) -> State:
    s = _trade(s, e.seat, e.coins, _one(e.resource) if e.resource else NOTHING, NOTHING, 0)
    return replace(s, income=s.income[1:])


def resource_returned(s: State, e: ev.ResourceReturned) -> State:
    return _trade(s, e.seat, 0, NOTHING, _one(e.resource), 0)


def loop_opened(s: State, _: ev.LoopOpened) -> State:
    return replace(s, phase="loop", step="move", current=s.order[0], turn=Turn())


def marker_moved(s: State, e: ev.MarkerMoved) -> State:
    p = s.players[e.seat]
    s = replace(s, step="act")
    return replace_player(s, e.seat, replace(p, zone=ZONE_INDEX[e.zone], cycle=e.cycle, coins=p.coins - e.fee))


def automa_moved(s: State, e: ev.AutomaMoved) -> State:
    assert s.automa is not None
    return replace(s, automa=replace(s.automa, zone=ZONE_INDEX[e.zone]))


def passed(s: State, e: ev.Passed) -> State:
    p = s.players[e.seat]
    s = replace_player(s, e.seat, replace(p, passed=True, zone=-1))
    s = replace(s, passed_order=(*s.passed_order, e.seat), step="move", turn=Turn())
    return replace(s, current=_next_seat(s, e.seat))


def exchanged(s: State, e: ev.Exchanged) -> State:
    s = _trade(s, e.seat, 0, _one(e.take), _one(e.give), 0)
    return replace(s, turn=replace(s.turn, exchanged=True))


def traded(s: State, e: ev.Traded) -> State:
    return _trade(s, e.seat, e.coins, e.take, e.give, e.rails)


def demand_taken(s: State, e: ev.DemandTaken) -> State:
    token = board_of(s.board).token_index[e.token]
    tile = s.tile_token.index(token)
    s = replace(s, tile_token=_set(s.tile_token, tile, -1))
    p = s.players[e.seat]
    return replace_player(s, e.seat, replace(p, demands=(*p.demands, e.token)))


def development_placed(s: State, e: ev.DevelopmentPlaced) -> State:
    tile, block = TILE_INDEX[e.tile], board_of(s.board).block_index[e.block]
    s = replace(
        s, tile_at=_set(s.tile_at, tile, block), block_tile=_set(s.block_tile, block, tile),
        tile_lobbyists=_set(s.tile_lobbyists, tile, (e.seat,)),
    )
    p = s.players[e.seat]
    return replace_player(s, e.seat, replace(p, lobbyists=p.lobbyists - 1))


def _lobbyist(s: State, seat: int, place: str, delta: int) -> State:
    """Add (+1) or remove (-1) one of `seat`'s Lobbyists at a place: 'supply', 'agenda:<slot>', 'dev:<tile>'."""
    p = s.players[seat]
    if place == "supply":
        return replace_player(s, seat, replace(p, lobbyists=p.lobbyists + delta))
    kind, _, ref = place.partition(":")
    if kind == "agenda":
        slot = int(ref)
        slots = (*p.agenda_lobbyists, slot) if delta > 0 else tuple(x for x in p.agenda_lobbyists if x != slot)
        return replace_player(s, seat, replace(p, agenda_lobbyists=tuple(sorted(slots))))
    tile = TILE_INDEX[ref]
    here = s.tile_lobbyists[tile]
    here = (*here, seat) if delta > 0 else tuple(o for o in here if o != seat)
    return replace(s, tile_lobbyists=_set(s.tile_lobbyists, tile, here))


def lobbyist_moved(s: State, e: ev.LobbyistMoved) -> State:
    return _lobbyist(_lobbyist(s, e.seat, e.source, -1), e.seat, e.target, +1)


def agendas_drawn(s: State, e: ev.AgendasDrawn) -> State:
    p = s.players[e.seat]
    s = replace(s, deck=s.deck[len(e.cards) :], step="keep-drawn")
    return replace_player(s, e.seat, replace(p, hand=e.cards, seen=(*p.seen, *e.cards)))


def agenda_chosen(s: State, e: ev.AgendaChosen) -> State:
    p = s.players[e.seat]
    s = replace(s, deck=(*s.deck, *e.returned))
    return replace_player(s, e.seat, replace(p, hand=(), agendas=(*p.agendas, e.kept)))


def project_lobbied(s: State, e: ev.ProjectLobbied) -> State:
    at = s.projects.index(PROJECT_INDEX[e.project])
    rows = s.project_rows[at]
    mine = [i for i, (owner, _) in enumerate(rows) if owner == e.seat]
    grown = (e.seat, rows[mine[0]][1] + e.lobbyists) if mine else (e.seat, e.lobbyists)
    rows = _set(rows, mine[0], grown) if mine else (*rows, grown)
    s = replace(s, project_rows=_set(s.project_rows, at, rows))
    p = s.players[e.seat]
    return replace_player(s, e.seat, replace(p, lobbyists=p.lobbyists - e.lobbyists))


def upgrade_taken(s: State, e: ev.UpgradeTaken) -> State:
    i = UPGRADE_INDEX[e.upgrade]
    s = replace(s, upgrade_supply=_set(s.upgrade_supply, i, s.upgrade_supply[i] - 1))
    p = s.players[e.seat]
    return replace_player(s, e.seat, replace(p, upgrades=(*p.upgrades, e.upgrade)))


def capacity_increased(s: State, e: ev.CapacityIncreased) -> State:
    p = s.players[e.seat]
    s = replace(s, turn=replace(s.turn, automa_due=s.automa is not None))
    return replace_player(s, e.seat, replace(p, capacity=p.capacity + e.steps, builds=(*p.builds, *e.unlocked)))


def build_started(s: State, e: ev.BuildStarted) -> State:
    return replace(s, step="build", turn=replace(s.turn, via=e.via, placed=0, connections=(), free_used=False))


def link_built(s: State, e: ev.LinkBuilt) -> State:
    b = board_of(s.board)
    start, end, rail = b.plot_index[e.start], b.plot_index[e.end], b.rail_index[e.rail]
    s = replace(s, rail_owners=_set(s.rail_owners, rail, (*s.rail_owners[rail], e.seat)))
    p = s.players[e.seat]
    first_end = p.branch_a[-1] if p.branch_a else p.prime
    on_a = first_end == start  # the first Terminus (or the Prime Hub before any Station) grows branch a
    p = replace(p, branch_a=(*p.branch_a, end)) if on_a else replace(p, branch_b=(*p.branch_b, end))
    p = replace(p, rails_storage=p.rails_storage - e.rails, rails_placed=p.rails_placed + e.rails)
    t = s.turn
    if e.station:
        p = replace(p, discs_used=p.discs_used + 1)
        s = replace(s, stop_owner=_set(s.stop_owner, end, e.seat), stop_level=_set(s.stop_level, end, 1))
        t = replace(t, free_used=t.free_used or e.blueprint == 0)
    else:
        p = replace(p, connected=(*p.connected, end))
        t = replace(t, connections=(*t.connections, e.owner))
    s = replace_player(replace(s, turn=replace(t, placed=t.placed + 1)), e.seat, p)
    return _trade(s, e.seat, 0, NOTHING, (0, e.blueprint, 0, 0), 0) if e.blueprint else s


def hub_built(s: State, e: ev.HubBuilt) -> State:
    plot = board_of(s.board).plot_index[e.plot]
    p = s.players[e.seat]
    t = s.turn
    s = replace(s, stop_level=_set(s.stop_level, plot, 2),
                turn=replace(t, placed=t.placed + 1, free_used=t.free_used or e.blueprint == 0))
    s = replace_player(s, e.seat, replace(p, discs_used=p.discs_used + 1))
    return _trade(s, e.seat, 0, NOTHING, (0, e.blueprint, 0, 0), 0) if e.blueprint else s


def build_finished(s: State, e: ev.BuildFinished) -> State:
    s = _trade(s, e.seat, e.coins, (0, 0, e.power, 0), NOTHING, 0)
    for owner, coins in e.paid:
        if owner < s.seats:
            p = s.players[owner]
            s = replace_player(s, owner, replace(p, coins=p.coins + coins))
        elif s.automa is not None:
            s = replace(s, automa=replace(s.automa, coins=s.automa.coins + coins))
    return s


def follow_up_offered(s: State, e: ev.FollowUpOffered) -> State:
    return replace(s, step="after", turn=replace(s.turn, follow=e.options, via=e.via))


def action_done(s: State, _: ev.ActionDone) -> State:
    return replace(s, step="done", turn=replace(s.turn, follow=()))


def turn_ended(s: State, e: ev.TurnEnded) -> State:
    return replace(s, step="move", turn=Turn(), current=_next_seat(s, e.seat))


def automa_built(s: State, e: ev.AutomaBuilt) -> State:
    a = s.automa
    assert a is not None
    b = board_of(s.board)
    owner_id = s.seats
    stop_owner, stop_level, rails = list(s.stop_owner), list(s.stop_level), list(s.rail_owners)
    players = list(s.players)
    for step in e.steps:
        end, rail = b.plot_index[step.end], b.rail_index[step.rail]
        rails[rail] = (*rails[rail], owner_id)
        a = replace(a, rails=a.rails - b.board.rails[rail].rails, line=(*a.line, end), terminus=end)
        if step.station:
            stop_owner[end], stop_level[end] = owner_id, 1
            a = replace(a, stations=a.stations - 1)
        else:
            a = replace(a, connected=(*a.connected, end))
            p = players[step.owner]
            players[step.owner] = replace(p, coins=p.coins + DATA.costs.connection_coin)
    return replace(s, automa=a, stop_owner=tuple(stop_owner), stop_level=tuple(stop_level), rail_owners=tuple(rails),
                   players=tuple(players))


def automa_flipped(s: State, e: ev.AutomaFlipped) -> State:
    assert s.automa is not None
    return replace(s, automa=replace(s.automa, side=e.side))


def year_ended(s: State, e: ev.YearEnded) -> State:
    return replace(s, order=e.order, current=-1, step="")


def game_scored(s: State, e: ev.GameScored) -> State:
    return replace(s, final=e.lines, phase="over", current=-1, step="")


HANDLERS: dict[type[Event], Callable[[Any, Any], State]] = {
    ev.SetUp: set_up, ev.AgendasDealt: agendas_dealt, ev.AutomaSetUp: automa_set_up,
    ev.SecretAgendaKept: secret_kept, ev.TurnOrderRevealed: turn_order_revealed,
    ev.AgendaDeckShuffled: deck_shuffled, ev.PrimeHubPlaced: prime_hub_placed, ev.YearBegan: year_began,
    ev.BonusChosen: bonus_chosen, ev.IncomeBegan: income_began, ev.BonusCollected: bonus_collected,
    ev.BudgetPaid: budget_paid, ev.RewardTaken: reward_taken, ev.ResourceReturned: resource_returned,
    ev.LoopOpened: loop_opened, ev.MarkerMoved: marker_moved, ev.AutomaMoved: automa_moved, ev.Passed: passed,
    ev.Exchanged: exchanged, ev.Traded: traded, ev.DemandTaken: demand_taken,
    ev.DevelopmentPlaced: development_placed, ev.LobbyistMoved: lobbyist_moved, ev.AgendasDrawn: agendas_drawn,
    ev.AgendaChosen: agenda_chosen, ev.ProjectLobbied: project_lobbied, ev.UpgradeTaken: upgrade_taken,
    ev.CapacityIncreased: capacity_increased, ev.BuildStarted: build_started, ev.LinkBuilt: link_built,
    ev.HubBuilt: hub_built, ev.BuildFinished: build_finished, ev.FollowUpOffered: follow_up_offered,
    ev.ActionDone: action_done, ev.TurnEnded: turn_ended, ev.AutomaBuilt: automa_built,
    ev.AutomaFlipped: automa_flipped, ev.YearEnded: year_ended, ev.GameScored: game_scored,
}


def evolve(state: State | None, event: Event) -> State:
    """The table after `event`."""
    return HANDLERS[type(event)](state, event)
