"""The Terminus `Game` record: the facts the catalog shows, and the functions of its modules (laid out as every
game's)."""

from __future__ import annotations

from domain.engine import Game, Lookahead
from domain.games.terminus import commands, editions, events, options, render, rules, scoring, setup, state, visibility
from domain.games.terminus.state import State
from domain.layout import parts

GAME: Game[State] = Game(
    slug="terminus",
    title="Terminus",
    min_seats=2,
    max_seats=5,
    default_data=(
        "boards/default.toml: the city map (plots, districts 4-7, blocks and zoning, rail spaces), Agendas, "
        "Automa cards",
        "data.toml: Development tile actions (except #10), Advanced Upgrades A1-A6, Projects (except #5's 7/8 "
        "tiers), market layouts, Construction depots, Station and Demand track values (except 12, 15 and 4 "
        "Demands = 17), Turn Order reward columns",
        "Capacity track: the Marker starts at 2 (INFERRED: 'at the start of the game' a Station can be built, and "
        "the Build example has 2 Stations left of the Marker); the Power surcharges and Build Upgrade icons on it",
        "Bonus Track: every area but '1 Permit, 1 Rail, 1 Power', and a 4-coin alternate reward (the track's "
        "alternate rewards are pictured)",
    ),
    deviations=(
        "2 seats without the Automa: option automa=false (the rulebook's 2-player game always includes it, "
        "reading 33)",
        "The Automa scores nothing and ranks last (the rulebook gives it no player board), so a human always wins",
        "Purchase Rails buys a number of Rails at the cheapest bundle combination giving exactly that number",
        "Build places one link per command and ends with an explicit finish-build",
        "A1 exchange happens before moving (so a move never strands a player without an action)",
    ),
    rules_version=editions.EDITIONS[-1].rules_version,
    editions=editions.EDITIONS,
    sample_setups=(
        (2, {}), (2, {"automa": False}), (3, {}), (4, {"first_game": True}),
        (5, {}),
    ),
    bots=(("greedy", Lookahead()),),
    **parts(options=options, commands=commands, events=events, setup=setup, state=state, rules=rules,
            scoring=scoring, visibility=visibility, render=render),
)
