"""The Terminus table as frozen Structs (tuples, indices into the data) so states compare and round-trip, and
`evolve`: a few dull lines per event, no validation, no randomness.

Plots, blocks, rail spaces, tiles and projects are stored by their index in the board/data records; commands and
events name them by id. Owners are seat numbers; the 2-player Automa is owner `seats`. This module folds set-up, the
Years and turns; the action events fold in `state_actions.py`. `State` itself is defined in `state_table.py`
(with the helpers every state module shares) and is this module's too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.engine import Event
from domain.games.terminus.components import DATA, PROJECT_INDEX, TILE_INDEX, TILES, ZONE_INDEX, board
from domain.games.terminus.events import (
    ActionDone,
    AgendaDeckShuffled,
    AgendasDealt,
    AutomaMoved,
    AutomaSetUp,
    BonusChosen,
    BonusCollected,
    BudgetPaid,
    FollowUpOffered,
    GameScored,
    IncomeBegan,
    LoopOpened,
    MarkerMoved,
    Passed,
    PrimeHubPlaced,
    ResourceReturned,
    RewardTaken,
    SecretAgendaKept,
    SetUp,
    TurnEnded,
    TurnOrderRevealed,
    YearBegan,
    YearEnded,
)
from domain.games.terminus.state_actions import ACTION_HANDLERS
from domain.games.terminus.state_markets import NOTHING, initial, one_of
from domain.games.terminus.state_players import (
    EMPTY,
    PRIME_HUB,
    STORAGE_LIMIT,
    Automa,
    Player,
    storage_limit,
)
from domain.games.terminus.state_table import (
    FollowUp,
    IncomeStep,
    Phase,
    State,
    Step,
    TilePlace,
    Turn,
    replace_player,
    trade,
)

__all__ = ["FollowUp", "IncomeStep", "Phase", "State", "Step", "TilePlace", "Turn", "evolve", "next_seat",
           "over_limit"]


def over_limit(state: State) -> int | None:
    """Rules, Collecting and spending resources: the seat holding more resources than its storage allows (it must
    return some first), if any."""
    for seat, player in enumerate(state.players):
        if sum(player.res) > STORAGE_LIMIT and sum(player.res) > storage_limit(player):
            return seat
    return None


def next_seat(state: State, after: int) -> int | None:
    """Rules, Turn Order: the next seat in turn order after `after` that has not passed, if any."""
    order = state.order
    start = order.index(after) if after in order else -1
    for k in range(1, len(order) + 1):
        seat = order[(start + k) % len(order)]
        if not state.players[seat].passed:
            return seat
    return None


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _set_up(_: State | None, event: SetUp) -> State:
    city = board(event.board)
    tile_at: list[TilePlace] = [None] * len(TILES)
    tile_token: list[int | None] = [None] * len(TILES)
    for tile, token in zip(event.display, event.tokens, strict=True):
        tile_at[TILE_INDEX[tile]] = "display"
        tile_token[TILE_INDEX[tile]] = city.token_index[token] if token else None
    projects = tuple(PROJECT_INDEX[project] for project in event.projects)
    return State(
        board=event.board, seats=event.seats, first_game=event.first_game,
        players=tuple(Player(capacity=event.capacity_start) for _ in range(event.seats)),
        markets=initial(event.seats), stop_owner=(None,) * len(city.plots), stop_level=(EMPTY,) * len(city.plots),
        rail_owners=((),) * len(city.board.rails), block_tile=(None,) * len(city.board.blocks), tile_at=tuple(tile_at),
        tile_token=tuple(tile_token), tile_lobbyists=((),) * len(TILES), projects=projects,
        project_rows=((),) * len(projects), upgrade_supply=(event.upgrade_copies,) * len(DATA.upgrades),
    )


def _agendas_dealt(state: State, event: AgendasDealt) -> State:
    dealt = zip(state.players, event.hands, strict=True)
    players = tuple(replace(player, hand=hand, seen=hand) for player, hand in dealt)
    return replace(state, deck=event.deck, players=players)


def _automa_set_up(state: State, event: AutomaSetUp) -> State:
    plot = board(state.board).plot_index[event.plot]
    automa = Automa(card=event.card, side=event.side, zone=ZONE_INDEX[event.zone], arrow=event.arrow, prime=plot,
                    terminus=plot)
    owners, levels = _put(state.stop_owner, plot, state.seats), _put(state.stop_level, plot, PRIME_HUB)
    return replace(state, automa=automa, stop_owner=owners, stop_level=levels)


def _secret_kept(state: State, event: SecretAgendaKept) -> State:
    player = state.players[event.seat]
    hand = tuple(agenda for agenda in player.hand if agenda != event.agenda)
    return replace_player(state, event.seat, replace(player, secret=event.agenda, hand=hand))


def _turn_order_revealed(state: State, event: TurnOrderRevealed) -> State:
    players = tuple(replace(player, hand=()) for player in state.players)
    return replace(state, players=players, order=event.order, public_agendas=(*state.public_agendas, *event.cards),
                   phase="place-hub", current=event.order[-1])


def _deck_shuffled(state: State, event: AgendaDeckShuffled) -> State:
    return replace(state, deck=event.deck)


def _prime_hub_placed(state: State, event: PrimeHubPlaced) -> State:
    plot = board(state.board).plot_index[event.plot]
    state = replace(state, stop_owner=_put(state.stop_owner, plot, event.seat),
                    stop_level=_put(state.stop_level, plot, PRIME_HUB))
    index = state.order.index(event.seat)  # Prime Hubs are placed in reverse turn order
    state = replace(state, current=state.order[index - 1] if index > 0 else None)
    return replace_player(state, event.seat, replace(state.players[event.seat], prime=plot))


def _year_began(state: State, event: YearBegan) -> State:
    players = tuple(replace(player, zone=None, cycle=1, passed=False, bonus=None) for player in state.players)
    return replace(state, year=event.year, phase="bonus", step=None, current=None, players=players, passed_order=(),
                   turn=Turn())


def _bonus_chosen(state: State, event: BonusChosen) -> State:
    return replace_player(state, event.seat, replace(state.players[event.seat], bonus=event.option))


def _income_began(state: State, event: IncomeBegan) -> State:
    players = tuple(replace(player, bonus=bonus) for player, bonus in zip(state.players, event.bonuses, strict=True))
    steps = tuple((kind, None if kind == "budget" else seat) for kind, seat in event.steps)  # the Budget is everyone's
    return replace(state, players=players, income=steps, phase="income")  # type: ignore[arg-type]


def _bonus_collected(state: State, event: BonusCollected) -> State:
    state = trade(state, event.seat, event.coins, event.take, NOTHING, event.rails)
    return replace(state, income=state.income[1:])


def _budget_paid(state: State, event: BudgetPaid) -> State:
    players = tuple(replace(player, coins=player.coins + coins)
                    for player, coins in zip(state.players, event.coins, strict=True))
    return replace(state, players=players, income=state.income[1:])


def _reward_taken(state: State, event: RewardTaken) -> State:
    state = trade(state, event.seat, event.coins, one_of(event.resource) if event.resource else NOTHING, NOTHING, 0)
    return replace(state, income=state.income[1:])


def _resource_returned(state: State, event: ResourceReturned) -> State:
    return trade(state, event.seat, 0, NOTHING, one_of(event.resource), 0)


def _loop_opened(state: State, _: LoopOpened) -> State:
    return replace(state, phase="loop", step="move", current=state.order[0], turn=Turn())


def _marker_moved(state: State, event: MarkerMoved) -> State:
    player = state.players[event.seat]
    state = replace(state, step="act")
    moved = replace(player, zone=ZONE_INDEX[event.zone], cycle=event.cycle, coins=player.coins - event.fee)
    return replace_player(state, event.seat, moved)


def _automa_moved(state: State, event: AutomaMoved) -> State:
    assert state.automa is not None
    return replace(state, automa=replace(state.automa, zone=ZONE_INDEX[event.zone]))


def _passed(state: State, event: Passed) -> State:
    player = state.players[event.seat]
    state = replace_player(state, event.seat, replace(player, passed=True, zone=None))
    state = replace(state, passed_order=(*state.passed_order, event.seat), step="move", turn=Turn())
    return replace(state, current=next_seat(state, event.seat))


def _follow_up_offered(state: State, event: FollowUpOffered) -> State:
    return replace(state, step="after", turn=replace(state.turn, follow=event.options, via=event.via))


def _action_done(state: State, _: ActionDone) -> State:
    return replace(state, step="done", turn=replace(state.turn, follow=()))


def _turn_ended(state: State, event: TurnEnded) -> State:
    return replace(state, step="move", turn=Turn(), current=next_seat(state, event.seat))


def _year_ended(state: State, event: YearEnded) -> State:
    return replace(state, order=event.order, current=None, step=None)


def _game_scored(state: State, event: GameScored) -> State:
    return replace(state, final=event.lines, phase="over", current=None, step=None)


HANDLERS: dict[type[Event], Callable[[Any, Any], State]] = {
    SetUp: _set_up, AgendasDealt: _agendas_dealt, AutomaSetUp: _automa_set_up, SecretAgendaKept: _secret_kept,
    TurnOrderRevealed: _turn_order_revealed, AgendaDeckShuffled: _deck_shuffled, PrimeHubPlaced: _prime_hub_placed,
    YearBegan: _year_began, BonusChosen: _bonus_chosen, IncomeBegan: _income_began, BonusCollected: _bonus_collected,
    BudgetPaid: _budget_paid, RewardTaken: _reward_taken, ResourceReturned: _resource_returned,
    LoopOpened: _loop_opened, MarkerMoved: _marker_moved, AutomaMoved: _automa_moved, Passed: _passed,
    FollowUpOffered: _follow_up_offered, ActionDone: _action_done, TurnEnded: _turn_ended, YearEnded: _year_ended,
    GameScored: _game_scored,
    **ACTION_HANDLERS,
}


def evolve(state: State | None, event: Event) -> State:
    """The table after `event`: the fold of what the rules decided (no judgement, no randomness)."""
    return HANDLERS[type(event)](state, event)
