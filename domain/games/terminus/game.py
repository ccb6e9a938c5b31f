"""The Terminus `Game` record: metadata, outcome and scores around the rules modules."""

from __future__ import annotations

from collections.abc import Sequence

from domain.engine import Game, Outcome, ranked_results
from domain.games.terminus.commands import COMMANDS, Options
from domain.games.terminus.events import EVENTS
from domain.games.terminus.evolve import evolve
from domain.games.terminus.render import render
from domain.games.terminus.rules import decide, legal, to_move
from domain.games.terminus.scoring import score_line, tie_key
from domain.games.terminus.setup import start
from domain.games.terminus.state import State
from domain.games.terminus.visibility import hidden_from, redact, scramble, view


def outcome(state: State) -> Outcome | None:
    """After Year 3: ranked by Prestige, then fewest Stations left on the board, then most coins (else shared).

    With the 2-player Automa, the Automa is ranked with the players as one scoring nothing and losing every
    tie-break (the rulebook gives it no player board, Lobbyists, Agendas, Demands or coins): the human seats'
    ranks among all players are therefore their ranks among themselves, and one human always wins.
    """
    if state.phase != "over":
        return None
    lines = sorted(state.final, key=lambda line: line.player)
    return Outcome(
        reason="scored",
        results=ranked_results([tie_key(line) for line in lines], [line.total for line in lines]),
    )


def scores(state: State) -> Sequence[float]:
    """Prestige each seat would score if the game ended now."""
    if state.phase == "over":
        return [float(line.total) for line in sorted(state.final, key=lambda line: line.player)]
    if not state.players or state.players[0].prime < 0:
        return [0.0] * state.seats
    return [float(score_line(state, seat).total) for seat in range(state.seats)]


GAME: Game[State] = Game(
    slug="terminus",
    title="Terminus",
    min_seats=2,
    max_seats=5,
    options_type=Options,
    command_types=COMMANDS,
    event_types=EVENTS,
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
    rules_version="2",
    sample_setups=(
        (2, {}), (2, {"automa": False}), (3, {}), (4, {"first_game": True}),
        (5, {}),
    ),
    start=start,
    evolve=evolve,
    decide=decide,
    legal=legal,
    to_move=to_move,
    view=view,
    redact=redact,
    outcome=outcome,
    scores=scores,
    hidden_from=hidden_from,
    scramble=scramble,
    render=render,
)
