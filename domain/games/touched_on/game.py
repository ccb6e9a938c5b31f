"""The Touched On game record."""

from __future__ import annotations

from domain.engine import Game, Lookahead
from domain.games.touched_on import (
    commands,
    editions,
    events,
    options,
    render,
    rules,
    scoring,
    setup,
    state,
    visibility,
)
from domain.games.touched_on.state import State
from domain.layout import parts

GAME: Game[State] = Game(
    slug="touched-on",
    title="Touched On",
    min_seats=2,
    max_seats=4,
    default_data=(
        "Line names and colours (L1 red tram .. L4 blue bus)",
        "Exp card values 1,1,1,1,2,2,2,2,3,3,3,3",
        "Power card mix per player count",
        "Power effects: Appeal always succeeds; Feet On Seat inspects like an Undercover Inspector; Peak Hour stops "
        "the others starting a new carriage until its owner's next turn; Tram Tracker takes a random card from the "
        "fan, then the player gives one back",
    ),
    deviations=(
        "Reading 17: the player who last added Evaders to the inspected carriage takes them (not 'the previous "
        "player'); only another player's carriage may be inspected",
        "Reading 23: the rulebook names no line as the Free Tram Zone, so by default there is none; the option "
        "free_tram_zone (a line in play) makes one: no Inspector card may be played there, Feet On Seat may, and "
        "that line's Authorised Inspector is removed from the deck",
        "Reading 10: in a 2-player journey the other player takes 2nd place as soon as the winner's DING stands "
        "(the glossary's 'when 2 players have no cards left')",
        "Reading 18, extended: a journey also ends when it cannot go on (a full round with no card played and both "
        "piles empty, or no Evader or inspection can ever be played again); remaining places go to fewest cards",
        "Engine limit: a journey ends after max_turns_per_journey turns (default 200), as a stuck journey",
        "Engine limit: the game ends after max_journeys journeys (default 40), ranked by Exp, even if Exp remain",
    ),
    rules_version=editions.EDITIONS[-1].rules_version,
    editions=editions.EDITIONS,
    search_scale=4,
    sample_setups=((2, {}), (3, {}), (4, {}), (2, {"free_tram_zone": "L1"})),
    bots=(("greedy", Lookahead()),),
    **parts(options=options, commands=commands, events=events, setup=setup, state=state, rules=rules,
            scoring=scoring, visibility=visibility, render=render),
)
