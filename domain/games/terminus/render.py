"""A compact plain-text picture of the table (golden files, replay CLI); and every event told in words (`describe`,
which tells an event exactly as given: redact it first, domain/narration.py)."""

from __future__ import annotations

from domain.engine import Narrator
from domain.games.terminus import events
from domain.games.terminus.components import PROJECTS, RESOURCES, TILES, ZONES
from domain.games.terminus.rules_table import board_of
from domain.games.terminus.state import State
from domain.games.terminus.state_players import HUB, PRIME_HUB, STATION
from domain.narration import Names, cards, in_words, listed, ordinal, plural, who

LEVEL = {STATION: " {} ", HUB: "[{}]", PRIME_HUB: "<{}>"}


def _owner(state: State, owner: int) -> str:
    return "a" if owner == state.seats else str(owner)


def _rail(state: State, rail: int | None, line: str) -> str:
    """A rail space, 3 wide: blank when empty, '-3-' or '|3 ' with one owner, '3=4' or '3|4' with two."""
    if rail is None or not state.rail_owners[rail]:
        return "   "
    owners = [_owner(state, owner) for owner in state.rail_owners[rail]]
    if len(owners) == 2:
        return owners[0] + ("=" if line == "-" else "|") + owners[1]
    return f"-{owners[0]}-" if line == "-" else f"|{owners[0]} "


def _grid(state: State) -> list[str]:
    """Plots (' . ' empty, ' 3 ' Station, '[3]' Hub, '<3>' Prime Hub; 'a' the Automa), Rails, block contents
    ('#10' a Development, '\\3 ' Rails on a diagonal)."""
    city = board_of(state)
    at = {(plot.x, plot.y): index for index, plot in enumerate(city.plots)}
    width, height = 1 + max(plot.x for plot in city.plots), 1 + max(plot.y for plot in city.plots)
    lines = []
    for y in range(height):
        row, below = "", ""
        for x in range(width):
            plot = at[(x, y)]
            owner = state.stop_owner[plot]
            row += LEVEL[state.stop_level[plot]].format(_owner(state, owner)) if owner is not None else " . "
            row += _rail(state, city.rail_between.get((plot, at.get((x + 1, y), -1))), "-")
            below += _rail(state, city.rail_between.get((plot, at.get((x, y + 1), -1))), "|")
            blocks = [block for block in city.plot_blocks[plot] if city.block_corners[block][0] == plot]
            tile = state.block_tile[blocks[0]] if blocks else None
            diagonal = [rail for rail in city.block_rails[blocks[0]] if state.rail_owners[rail]] if blocks else []
            if tile is not None:
                below += f"#{TILES[tile].number:02d}"
            elif diagonal:
                below += "\\" + _owner(state, state.rail_owners[diagonal[0]][0]) + " "
            else:
                below += "   "
        lines.append(row.rstrip())
        if y < height - 1:
            lines.append(below.rstrip())
    return lines


def render(state: State) -> str:
    """Year, phase, markets, Projects, the City and each player's board."""
    head = f"Terminus  year {state.year}  phase {state.phase}"
    if state.phase == "loop":
        head += f"  step {state.step}  to move: seat {state.current}"
    out = [head, f"order {list(state.order)}  passed {list(state.passed_order)}"]
    markets = zip(("P", "B", "W", "C"), state.markets, strict=True)
    out.append("markets " + "  ".join(f"{name}{list(m)}" for name, m in markets))
    display = [TILES[tile].id for tile, place in enumerate(state.tile_at) if place == "display"]
    out.append(f"display {' '.join(display) or '-'}  deck {len(state.deck)}")
    projects = []
    for index, rows in zip(state.projects, state.project_rows, strict=True):
        projects.append(PROJECTS[index].id + "[" + ",".join(f"{o}:{n}" for o, n in rows) + "]")
    out.append("projects " + " ".join(projects))
    if state.automa is not None:
        automa = state.automa
        out.append(f"automa {automa.card}{automa.side} zone {ZONES[automa.zone]} arrow {automa.arrow} "
                   f"stations {automa.stations} rails {automa.rails}")
    out += _grid(state)
    for seat, player in enumerate(state.players):
        zone = ZONES[player.zone] if player.zone is not None else "-"
        permits, blueprints, power, construction = player.res
        out.append(
            f"seat {seat}: {player.coins}c P{permits} B{blueprints} W{power} C{construction} rails "
            f"{player.rails_storage}/{player.rails_reserve} cap {player.capacity} discs {player.discs_used} "
            f"lob {player.lobbyists} agendas {int(bool(player.secret)) + len(player.agendas)} demands "
            f"{len(player.demands)} up {','.join(player.upgrades) or '-'} "
            f"builds {','.join(build[0] for build in player.builds) or '-'} zone {zone} cycle {player.cycle}"
            f"{' passed' if player.passed else ''}"
        )
    for line in state.final:
        out.append(
            f"score seat {line.player}: {line.total} (adj {line.adjacency} proj {line.projects} agenda {line.agendas} "
            f"demand {line.demands} coins {line.coins}) stations left {line.stations_left}"
        )
    return "\n".join(out) + "\n"


def _p(names: Names, seat: int) -> str:
    """A player, or the Automa (owner number `seats`)."""
    return "the Automa" if seat == len(names) and seat > 0 else who(names, seat)


def _bundle(counts: tuple[int, ...]) -> str:
    """Resource cubes, in the markets' order."""
    return listed(plural(n, r) for n, r in zip(counts, RESOURCES, strict=False) if n) or "nothing"


# What each action of a `traded` event was for, as the end of a sentence ("Ada paid 3 coins to purchase Rails").
ACTIONS = {"build": "build", "take_demand": "take a Demand", "place_development": "place a Development",
           "draw_agendas": "draw Agendas", "lobby_project": "lobby for a Project", "buy_blueprint": "buy Blueprints",
           "buy_permit": "buy Permits", "buy_power": "buy Power", "take_upgrade": "take an Upgrade",
           "increase_capacity": "increase capacity", "collect_construction": "collect Construction",
           "purchase_rails": "purchase Rails", "use_development": "use a Development"}


def _traded(e: events.Traded, n: Names) -> str:
    parts = [f"took {_bundle(e.take)}" if any(e.take) else "", f"gave {_bundle(e.give)}" if any(e.give) else "",
             (f"received {plural(e.coins, 'coin')}" if e.coins > 0 else f"paid {plural(-e.coins, 'coin')}")
             if e.coins else "", f"moved {plural(e.rails, 'Rail')} to storage" if e.rails else ""]
    done = listed(part for part in parts if part) or "traded nothing"
    why = ACTIONS.get(e.action, in_words(e.action))
    if e.via:  # the action of a Development tile (Rules, Developments), or the tile used itself
        why = f"use Development {e.via}" if e.action == "use_development" else f"{why} with Development {e.via}"
    return f"{who(n, e.seat)} {done} to {why}."


def _collected(e: events.BonusCollected, n: Names) -> str:
    got = [_bundle(e.take) if any(e.take) else "", plural(e.rails, "Rail") if e.rails else "",
           plural(e.coins, "coin") if e.coins else ""]
    how = " in part" if e.partial else (" (the alternate)" if e.alternate else "")
    return f"{who(n, e.seat)} collected Bonus {e.option}{how}: {listed(g for g in got if g) or 'nothing'}."


def _link(e: events.LinkBuilt, n: Names) -> str:
    what = "a Station" if e.station else f"a Connection to {_p(n, e.owner)}'s Stop"
    return f"{who(n, e.seat)} laid {plural(e.rails, 'Rail')} ({e.rail}) from {e.start} to {e.end}: {what}."


def _scored(e: events.GameScored, n: Names) -> str:
    return "Final Prestige: " + "; ".join(
        f"{_p(n, s.player)} {s.total} (adjacency {s.adjacency}, projects {s.projects}, agendas {s.agendas}, "
        f"demands {s.demands}, coins {s.coins}" + (f", secret {s.secret}" if s.secret else "") + ")"
        for s in e.lines) + "."


def _kept(e: events.AgendaChosen, n: Names) -> str:
    back = cards(e.returned, e.count or len(e.returned), str, "Agenda")
    return f"{who(n, e.seat)} kept Agenda {e.kept} face up and put {back} under the deck."


describe = Narrator({
    events.SetUp: lambda e, n: f"The {e.board} board was set up for {plural(e.seats, 'seat')}"
                               + (f"; Developments on display: {listed(e.display)}" if e.display else "") + ".",
    events.AgendasDealt: lambda e, n: "Agendas were dealt: " + "; ".join(
        f"{who(n, s)} {cards(hand, 2, str, 'Agenda')}" for s, hand in enumerate(e.hands or ((),) * len(n))) + ".",
    events.AutomaSetUp: lambda e, n: f"The Automa took card {e.card} (side {e.side}), starting in {e.zone} with its "
                                     f"Prime Hub on {e.plot}, heading {e.arrow}.",
    events.SecretAgendaKept: lambda e, n: f"{who(n, e.seat)} kept " + (f"Agenda {e.agenda} secret."
                                                                     if e.agenda else "a secret Agenda."),
    events.TurnOrderRevealed: lambda e, n: f"Turn order from the revealed Agendas {listed(e.cards)}: "
                                           f"{listed(_p(n, s) for s in e.order)}.",
    events.AgendaDeckShuffled: lambda e, n: f"The Agenda deck was shuffled "
                                            f"({plural(e.deck_size or len(e.deck), 'card')}).",
    events.PrimeHubPlaced: lambda e, n: f"{_p(n, e.seat)} placed a Prime Hub on {e.plot}.",
    events.YearBegan: lambda e, n: f"Year {e.year} began.",
    events.BonusChosen: lambda e, n: f"{who(n, e.seat)} chose " + (f"Bonus {e.option}." if e.option >= 0
                                                                   else "a Bonus (hidden until all have chosen)."),
    events.IncomeBegan: lambda e, n: "Annual Income: Bonuses " + ", ".join(
        f"{who(n, s)} {b}" for s, b in enumerate(e.bonuses)) + ".",
    events.BonusCollected: _collected,
    events.BudgetPaid: lambda e, n: "Station income paid: " + ", ".join(
        f"{who(n, s)} {plural(c, 'coin')}" for s, c in enumerate(e.coins)) + ".",
    events.RewardTaken: lambda e, n: f"{who(n, e.seat)} took a Turn Order Reward: "
                                     + (listed(x for x in (e.resource, plural(e.coins, 'coin') if e.coins else "") if x)
                                        or "nothing") + ".",
    events.ResourceReturned: lambda e, n: f"{who(n, e.seat)} returned a {e.resource} to its market (storage full).",
    events.LoopOpened: lambda e, n: "The Action Loop began.",
    events.MarkerMoved: lambda e, n: f"{who(n, e.seat)} moved to the {e.zone} zone"
                                     + (f", paying the Automa {plural(e.fee, 'coin')}." if e.fee else "."),
    events.AutomaMoved: lambda e, n: f"The Automa moved to the {e.zone} zone.",
    events.Passed: lambda e, n: f"{who(n, e.seat)} passed (the {ordinal(e.position + 1)} to pass).",
    events.Exchanged: lambda e, n: f"{who(n, e.seat)} exchanged a {e.give} for a {e.take}.",
    events.Traded: _traded,
    events.DemandTaken: lambda e, n: f"{who(n, e.seat)} took Demand token {e.token}.",
    events.DevelopmentPlaced: lambda e, n: f"{who(n, e.seat)} developed {e.tile} in block {e.block}.",
    events.LobbyistMoved: lambda e, n: f"{who(n, e.seat)} moved a Lobbyist from {e.source} to {e.target}.",
    events.AgendasDrawn: lambda e, n: f"{who(n, e.seat)} drew "
                                      f"{cards(e.cards, e.count or len(e.cards), str, 'Agenda')}.",
    events.AgendaChosen: _kept,
    events.ProjectLobbied: lambda e, n: f"{who(n, e.seat)} lobbied Project {e.project} with "
                                        f"{plural(e.lobbyists, 'Lobbyist')}.",
    events.UpgradeTaken: lambda e, n: f"{who(n, e.seat)} took Advanced Upgrade {e.upgrade}.",
    events.CapacityIncreased: lambda e, n: f"{who(n, e.seat)} raised Capacity by {plural(e.steps, 'step')}"
                                           + (f", unlocking {listed(in_words(u) for u in e.unlocked)}."
                                              if e.unlocked else "."),
    events.BuildStarted: lambda e, n: f"{who(n, e.seat)} began to build" + (f" (via {e.via})." if e.via else "."),
    events.LinkBuilt: _link,
    events.HubBuilt: lambda e, n: f"{who(n, e.seat)} built a Hub on {e.plot}.",
    events.BuildFinished: lambda e, n: f"{who(n, e.seat)} finished building"
                                       + (f": {plural(e.power, 'Power')}" if e.power else "")
                                       + (f", {plural(e.coins, 'coin')} paid to connected Stops" if e.coins else "")
                                       + ".",
    events.FollowUpOffered: lambda e, n: f"{who(n, e.seat)} may follow up: {listed(e.options)}.",
    events.ActionDone: lambda e, n: f"{who(n, e.seat)}'s action is done.",
    events.TurnEnded: lambda e, n: f"{who(n, e.seat)}'s turn ended.",
    events.AutomaBuilt: lambda e, n: "The Automa built: " + ("; ".join(
        f"{s.start} to {s.end} ({'a Station' if s.station else 'a Connection to ' + _p(n, s.owner)})"
        for s in e.steps) or "nothing") + ".",
    events.AutomaFlipped: lambda e, n: f"The Automa card flipped to side {e.side}.",
    events.YearEnded: lambda e, n: f"Year {e.year} ended; next turn order: {listed(_p(n, s) for s in e.order)}.",
    events.GameScored: _scored,
})
