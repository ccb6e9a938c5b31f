"""The Mass Transit `Game` record: cooperative, 1-6 seats, hidden hands."""

from __future__ import annotations

from domain.engine import Game
from domain.games.mass_transit import (
    commands,
    editions,
    events,
    options,
    render,
    rules,
    rules_greedy,
    scoring,
    setup,
    state,
    visibility,
)
from domain.games.mass_transit.state import State
from domain.layout import parts

GAME: Game[State] = Game(
    slug="mass-transit",
    title="Mass Transit",
    min_seats=1,
    max_seats=6,
    cooperative=True,
    default_data=(
        "data.toml cards: the 52-card list is fan-transcribed (conor-mcavoy/mass-transit@4e8fba9) and "
        "unverified against a physical copy",
    ),
    deviations=(
        "each Commuter is bound to the route of its Big City edge (readings 3, 13)",
        "a turn is several place/discard commands closed by an explicit end-turn command that draws back to four",
        "the first player is the first_seat option, default seat 0 (reading 16)",
        "the communication rule is social and not enforced (reading 11)",
        "a player whose own plays leave them unable to reach two cards this turn loses at once (seed, Losing)",
    ),
    rules_version=editions.EDITIONS[-1].rules_version,
    editions=editions.EDITIONS,
    search_scale=2,
    sample_setups=tuple((seats, {}) for seats in (2, 1, 4, 6)),
    bots=(("greedy", rules_greedy.greedy),),
    evaluate=rules_greedy.nearness,
    **parts(options=options, commands=commands, events=events, setup=setup, state=state, rules=rules,
            scoring=scoring, visibility=visibility, render=render),
)
