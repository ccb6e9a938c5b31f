"""Terminus events: facts, named by ids (plots 'P31', tiles 'DT10', Agendas 'AG07', tokens 'DM-TH-1').
Owners are seat numbers; the Automa is owner `seats`. New fields get defaults."""

from __future__ import annotations

import msgspec

from domain.engine import Event


class SetUp(Event, frozen=True, tag="terminus.set-up"):
    """Main board set-up: the face-up Developments (with their Demand tokens), Projects, Upgrade copies, and where
    every Capacity Marker starts (0 before rules version 2)."""

    seats: int
    board: str
    first_game: bool = False
    display: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()  # the Demand token on each displayed tile
    projects: tuple[str, ...] = ()
    upgrade_copies: int = 0
    capacity_start: int = 0


class AgendasDealt(Event, frozen=True, tag="terminus.agendas-dealt"):
    """The shuffled Agenda deck and each seat's 2 cards (hidden: redacted per seat)."""

    deck: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    deck_size: int = 0


class AutomaSetUp(Event, frozen=True, tag="terminus.automa-set-up"):
    """2-player Automa: its card and side, Player Marker Zone, Prime Hub plot and Direction Marker."""

    card: str
    side: str
    zone: str
    plot: str
    arrow: str


class SecretAgendaKept(Event, frozen=True, tag="terminus.secret-agenda-kept"):
    """A seat keeps one dealt Agenda face down (others see only that it chose)."""

    seat: int
    agenda: str = ""


class TurnOrderRevealed(Event, frozen=True, tag="terminus.turn-order-revealed"):
    """The other dealt cards are revealed: lowest number goes first in Year 1."""

    cards: tuple[str, ...]
    order: tuple[int, ...]


class AgendaDeckShuffled(Event, frozen=True, tag="terminus.agenda-deck-shuffled"):
    """The revealed cards are shuffled back into the deck (order hidden)."""

    deck: tuple[str, ...] = ()
    deck_size: int = 0


class PrimeHubPlaced(Event, frozen=True, tag="terminus.prime-hub-placed"):
    """Rules, Turn Order & Prime Hub Placement 7: a seat's Prime Hub on an empty plot."""

    seat: int
    plot: str


class YearBegan(Event, frozen=True, tag="terminus.year-began"):
    """Rules, Gameplay: a Year begins with Annual Income (Bonuses are chosen first)."""

    year: int


class BonusChosen(Event, frozen=True, tag="terminus.bonus-chosen"):
    """A Bonus Marker placed; the choice stays hidden (-1) until every seat has chosen."""

    seat: int
    option: int = -1


class IncomeBegan(Event, frozen=True, tag="terminus.income-began"):
    """Annual Income: the Bonus choices revealed; steps to run in turn order."""

    bonuses: tuple[int, ...]
    steps: tuple[tuple[str, int], ...]


class BonusCollected(Event, frozen=True, tag="terminus.bonus-collected"):
    """A seat collects its Bonus `option`, or, when that cannot be collected in full, either collects it in part
    (`partial`) or selects an alternate reward: the Bonus Track area `reward` (`alternate`). `take`, `rails` and
    `coins` are what it receives. (Before rules version 2 the alternate was always 4 coins, with `reward` -1.)"""

    seat: int
    option: int
    take: tuple[int, int, int, int] = (0, 0, 0, 0)
    rails: int = 0
    coins: int = 0
    alternate: bool = False
    reward: int = -1
    partial: bool = False


class BudgetPaid(Event, frozen=True, tag="terminus.budget-paid"):
    """Station Track income (and income upgrades) to every seat."""

    coins: tuple[int, ...]


class RewardTaken(Event, frozen=True, tag="terminus.reward-taken"):
    """A Turn Order Reward."""

    seat: int
    resource: str = ""
    coins: int = 0


class ResourceReturned(Event, frozen=True, tag="terminus.resource-returned"):
    """Rules, Collecting and spending resources: one resource back to its market (storage over 8)."""

    seat: int
    resource: str


class LoopOpened(Event, frozen=True, tag="terminus.loop-opened"):
    """Annual Income done: turns around the Action Loop begin."""


class MarkerMoved(Event, frozen=True, tag="terminus.marker-moved"):
    """Rules, Taking a Turn and Cycle Track: the Player Marker moves clockwise (the Automa's fee paid)."""

    seat: int
    zone: str
    cycle: int
    fee: int = 0


class AutomaMoved(Event, frozen=True, tag="terminus.automa-moved"):
    """Rules, 2-Player Game, Trigger 1: the Automa's Player Marker moves on."""

    zone: str


class Passed(Event, frozen=True, tag="terminus.passed"):
    """Rules, Passing: the seat leaves the Action Loop; `position` in the passing order."""

    seat: int
    position: int


class Exchanged(Event, frozen=True, tag="terminus.exchanged"):
    """Advanced Upgrade A1 (DEFAULT): one resource returned, another taken."""

    seat: int
    give: str
    take: str


class Traded(Event, frozen=True, tag="terminus.traded"):
    """Resources and coins of one action: coins added (negative: paid), cubes taken from / given to markets,
    Rails moved from reserve to storage."""

    seat: int
    action: str
    via: str = ""
    coins: int = 0
    take: tuple[int, int, int, int] = (0, 0, 0, 0)
    give: tuple[int, int, int, int] = (0, 0, 0, 0)
    rails: int = 0


class DemandTaken(Event, frozen=True, tag="terminus.demand-taken"):
    """Rules, Demands: a Demand token onto the seat's Demand track."""

    seat: int
    token: str


class DevelopmentPlaced(Event, frozen=True, tag="terminus.development-placed"):
    """Rules, Develop Zone: a Development in a Block, with one of the seat's Lobbyists on it."""

    seat: int
    tile: str
    block: str


class LobbyistMoved(Event, frozen=True, tag="terminus.lobbyist-moved"):
    """Rules, Lobbyists: a Lobbyist moves between 'supply', 'agenda:<slot>' and 'dev:<tile>'."""

    seat: int
    source: str
    target: str


class AgendasDrawn(Event, frozen=True, tag="terminus.agendas-drawn"):
    """Cards from the top of the deck (seen only by the drawer)."""

    seat: int
    cards: tuple[str, ...] = ()
    count: int = 0


class AgendaChosen(Event, frozen=True, tag="terminus.agenda-chosen"):
    """One drawn Agenda kept face up; the others to the bottom of the deck (seen only by the drawer)."""

    seat: int
    kept: str
    returned: tuple[str, ...] = ()
    count: int = 0


class ProjectLobbied(Event, frozen=True, tag="terminus.project-lobbied"):
    """Rules, Projects: Lobbyists placed on the seat's row of a Project."""

    seat: int
    project: str
    lobbyists: int


class UpgradeTaken(Event, frozen=True, tag="terminus.upgrade-taken"):
    """Rules, Improve Zone: an Advanced Upgrade tile taken."""

    seat: int
    upgrade: str


class CapacityIncreased(Event, frozen=True, tag="terminus.capacity-increased"):
    """Rules, Capacity: the Capacity Marker moves; Build Upgrades passed flip face up."""

    seat: int
    steps: int
    unlocked: tuple[str, ...] = ()


class BuildStarted(Event, frozen=True, tag="terminus.build-started"):
    """Rules, Build Zone: a Build begins (paid for by the `traded` event before it)."""

    seat: int
    via: str = ""


class LinkBuilt(Event, frozen=True, tag="terminus.link-built"):
    """Rails laid from a Terminus to a neighbouring plot: a new Station, or a Connection to `owner`'s Stop."""

    seat: int
    start: str
    end: str
    rail: str
    rails: int
    station: bool
    owner: int = -1
    blueprint: int = 0


class HubBuilt(Event, frozen=True, tag="terminus.hub-built"):
    """Rules, Building a Hub: a disc stacked on one of the seat's Stations."""

    seat: int
    plot: str
    blueprint: int = 0


class BuildFinished(Event, frozen=True, tag="terminus.build-finished"):
    """Connection rewards: Power to the builder (once per Build), coins to each connected Stop's owner."""

    seat: int
    power: int = 0
    coins: int = 0
    paid: tuple[tuple[int, int], ...] = ()


class FollowUpOffered(Event, frozen=True, tag="terminus.follow-up-offered"):
    """Optional follow-ups of the action just taken (A3 'rails', tile #08 'lobbyist' through `via`)."""

    seat: int
    options: tuple[str, ...]
    via: str = ""


class ActionDone(Event, frozen=True, tag="terminus.action-done"):
    """Rules, Taking a Turn: the action is executed in full."""

    seat: int


class TurnEnded(Event, frozen=True, tag="terminus.turn-ended"):
    """Rules, Taking a Turn: the seat's turn ends."""

    seat: int


class AutomaStep(msgspec.Struct, frozen=True, kw_only=True):
    """One Automa placement: Rails from `start` to `end`, a Station or a Connection to `owner`."""

    start: str
    end: str
    rail: str
    station: bool
    owner: int = -1


class AutomaBuilt(Event, frozen=True, tag="terminus.automa-built"):
    """Trigger 2: the Automa Builds in its Main, then Alternate direction."""

    steps: tuple[AutomaStep, ...] = ()


class AutomaFlipped(Event, frozen=True, tag="terminus.automa-flipped"):
    """Rules, 2-Player Game, Trigger 2: the Automa card flips after its Build."""

    side: str


class YearEnded(Event, frozen=True, tag="terminus.year-ended"):
    """Rules, End of Year: all passed; `order` is next Year's turn order."""

    year: int
    order: tuple[int, ...]


class ScoreLine(msgspec.Struct, frozen=True, kw_only=True):
    """End-game Prestige of one player, by category (Rules, End-Game Scoring), and the tie-break counts."""

    player: int
    adjacency: int
    projects: int
    agendas: int
    demands: int
    coins: int
    total: int
    stations_left: int
    coins_left: int
    secret: str = ""


class GameScored(Event, frozen=True, tag="terminus.game-scored"):
    """End-game scoring (secret Agendas revealed)."""

    lines: tuple[ScoreLine, ...]


EVENTS: tuple[type[Event], ...] = (
    SetUp, AgendasDealt, AutomaSetUp, SecretAgendaKept, TurnOrderRevealed, AgendaDeckShuffled, PrimeHubPlaced,
    YearBegan, BonusChosen, IncomeBegan, BonusCollected, BudgetPaid, RewardTaken, ResourceReturned, LoopOpened,
    MarkerMoved, AutomaMoved, Passed, Exchanged, Traded, DemandTaken, DevelopmentPlaced, LobbyistMoved,
    AgendasDrawn, AgendaChosen, ProjectLobbied, UpgradeTaken, CapacityIncreased, BuildStarted, LinkBuilt, HubBuilt,
    BuildFinished, FollowUpOffered, ActionDone, TurnEnded, AutomaBuilt, AutomaFlipped, YearEnded, GameScored,
)
