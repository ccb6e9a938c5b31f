"""Terminus events: facts, named by ids (plots 'P31', tiles 'DT10', Agendas 'AG07', tokens 'DM-TH-1').
Owners are seat numbers; the Automa is owner `seats`. New fields get defaults."""

from __future__ import annotations

import msgspec

from domain.engine import Event
from domain.games.terminus.state import ScoreLine


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
    seat: int
    plot: str


class YearBegan(Event, frozen=True, tag="terminus.year-began"):
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
    seat: int
    resource: str


class LoopOpened(Event, frozen=True, tag="terminus.loop-opened"):
    """Annual Income done: turns around the Action Loop begin."""


class MarkerMoved(Event, frozen=True, tag="terminus.marker-moved"):
    seat: int
    zone: str
    cycle: int
    fee: int = 0


class AutomaMoved(Event, frozen=True, tag="terminus.automa-moved"):
    zone: str


class Passed(Event, frozen=True, tag="terminus.passed"):
    seat: int
    position: int


class Exchanged(Event, frozen=True, tag="terminus.exchanged"):
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
    seat: int
    token: str


class DevelopmentPlaced(Event, frozen=True, tag="terminus.development-placed"):
    seat: int
    tile: str
    block: str


class LobbyistMoved(Event, frozen=True, tag="terminus.lobbyist-moved"):
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
    seat: int
    project: str
    lobbyists: int


class UpgradeTaken(Event, frozen=True, tag="terminus.upgrade-taken"):
    seat: int
    upgrade: str


class CapacityIncreased(Event, frozen=True, tag="terminus.capacity-increased"):
    seat: int
    steps: int
    unlocked: tuple[str, ...] = ()


class BuildStarted(Event, frozen=True, tag="terminus.build-started"):
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
    seat: int


class TurnEnded(Event, frozen=True, tag="terminus.turn-ended"):
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
    side: str


class YearEnded(Event, frozen=True, tag="terminus.year-ended"):
    year: int
    order: tuple[int, ...]


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
