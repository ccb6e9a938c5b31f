"""Terminus commands: what a seat chooses (never its seat). `via` names a Development tile whose action is used
instead of the Zone's (Rules, Developments); empty means the Action Loop's own action."""

from __future__ import annotations

from domain.engine import Command


class KeepAgenda(Command, frozen=True, tag="terminus.keep-agenda"):
    """Keep one Agenda in hand: the secret one at set-up, or one of those just drawn."""

    agenda: str


class PlaceHub(Command, frozen=True, tag="terminus.place-hub"):
    """Set-up, in reverse turn order: put the Prime Hub on an empty Plot."""

    plot: str


class ChooseBonus(Command, frozen=True, tag="terminus.choose-bonus"):
    """Annual Income: move the Bonus Marker under one Bonus Track option (index)."""

    option: int


class TakeBonus(Command, frozen=True, tag="terminus.take-bonus"):
    """Annual Income, when the chosen Bonus cannot be collected in full: `option` is the chosen Bonus (collected as
    far as the supply allows) or another Bonus Track area that can be collected in full (an alternate reward)."""

    option: int


class TakeReward(Command, frozen=True, tag="terminus.take-reward"):
    """Annual Income: the Turn Order Reward choice, a resource name or 'coins'."""

    choice: str


class ReturnResource(Command, frozen=True, tag="terminus.return-resource"):
    """Storage over its limit: return one resource to its market (no coins back)."""

    resource: str


class Move(Command, frozen=True, tag="terminus.move"):
    """Move the Player Marker clockwise to a Zone (then take one of its actions)."""

    zone: str


class Pass(Command, frozen=True, tag="terminus.pass"):
    """Leave the Action Loop for this Year."""


class Exchange(Command, frozen=True, tag="terminus.exchange"):
    """Advanced Upgrade A1 (DEFAULT), once per turn before moving: return one resource, take another."""

    give: str
    take: str


class TakeDemand(Command, frozen=True, tag="terminus.take-demand"):
    """Develop or Build Zone: pay 1 Power, take a Demand token from a Development in the City."""

    token: str
    via: str = ""


class PlaceDevelopment(Command, frozen=True, tag="terminus.place-development"):
    """Develop Zone: pay 1 Permit, place a face-up Development in a Block with one of your Lobbyists."""

    tile: str
    block: str
    via: str = ""


class MoveLobbyist(Command, frozen=True, tag="terminus.move-lobbyist"):
    """Develop or Lobby Zone: move one Lobbyist; places are 'supply', 'agenda:<slot>' or 'dev:<tile>'."""

    source: str
    target: str
    via: str = ""


class DrawAgendas(Command, frozen=True, tag="terminus.draw-agendas"):
    """Lobby Zone: pay 1 Permit, draw 3/2/1 Agendas (Year 1/2/3), then keep one."""

    via: str = ""


class LobbyProject(Command, frozen=True, tag="terminus.lobby-project"):
    """Lobby Zone: pay 1 Permit, place Lobbyists on one Project row."""

    project: str
    lobbyists: int
    via: str = ""


class TakeUpgrade(Command, frozen=True, tag="terminus.take-upgrade"):
    """Improve Zone: take an Advanced Upgrade."""

    upgrade: str
    via: str = ""


class BuyResources(Command, frozen=True, tag="terminus.buy-resources"):
    """Improve Zone (Blueprints) or Market Zone (Permits, Power): buy `count` from the market."""

    resource: str
    count: int


class IncreaseCapacity(Command, frozen=True, tag="terminus.increase-capacity"):
    """Supply Zone: pay Construction (and Power surcharges), move the Capacity Marker `steps` spaces.
    `unlock` names the Build Upgrade flipped at the first upgrade icon passed ('' when none is passed)."""

    steps: int
    unlock: str = ""
    via: str = ""


class CollectConstruction(Command, frozen=True, tag="terminus.collect-construction"):
    """Supply Zone: take all Construction from the leftmost non-empty depot."""

    via: str = ""


class PurchaseRails(Command, frozen=True, tag="terminus.purchase-rails"):
    """Supply or Build Zone: move `rails` Rails from reserve to storage at the cheapest bundle price."""

    rails: int
    via: str = ""


class StartBuild(Command, frozen=True, tag="terminus.start-build"):
    """Build Zone: pay 1 Permit and 2 Construction, then place Stops and Rails."""

    via: str = ""


class BuildLink(Command, frozen=True, tag="terminus.build-link"):
    """During a Build: Rails from Terminus `start` to the neighbouring plot `end` (a new Station or a Connection)."""

    start: str
    end: str


class BuildHub(Command, frozen=True, tag="terminus.build-hub"):
    """During a Build: stack a Station disc on one of your Stations (Hub upgrade)."""

    plot: str


class FinishBuild(Command, frozen=True, tag="terminus.finish-build"):
    """End the Build: Connection rewards are paid."""


class UseDevelopment(Command, frozen=True, tag="terminus.use-development"):
    """Use a Development's own resource action (`resource` for 'take any 1 resource' tiles)."""

    tile: str
    resource: str = ""


class EndTurn(Command, frozen=True, tag="terminus.end-turn"):
    """Decline the optional follow-up of an action (A3 Rails, #08 second Lobbyist)."""


COMMANDS: tuple[type[Command], ...] = (
    KeepAgenda, PlaceHub, ChooseBonus, TakeBonus, TakeReward, ReturnResource, Move, Pass, Exchange, TakeDemand,
    PlaceDevelopment, MoveLobbyist, DrawAgendas, LobbyProject, TakeUpgrade, BuyResources, IncreaseCapacity,
    CollectConstruction, PurchaseRails, StartBuild, BuildLink, BuildHub, FinishBuild, UseDevelopment, EndTurn,
)
