"""The Expect Delays record: the facts the catalog shows, and the functions of the modules laid out as every game's."""

from __future__ import annotations

from domain.engine import Game, Lookahead
from domain.games.expect_delays import (
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
from domain.games.expect_delays.state import State
from domain.layout import parts

GAME: Game[State] = Game(
    slug="expect-delays",
    title="Expect Delays",
    min_seats=2,
    max_seats=2,
    default_data=(
        "track: stop points 0,1,1,2,3,4,5 and the ◇ stops 0, 3, 5 (no public source)",
        "train cards: the symbols and Fare Swipe values of all 16 cards (no public source)",
        "service advisories: the names and effects of all 18 cards, 6 of each kind (no public source)",
        "lines: which colour pair belongs to Uptown and which to Downtown (no public source)",
    ),
    deviations=(
        "max_turns (default 300) is an engine limit, not a rule: actions are optional, so play could cycle "
        "forever; after that many turns the match ends and is scored like a deck-exhaustion end (reading 20)",
        "A Tourist moved while riders fill every stop ahead of it to the last one (a Commuter waiting there) "
        "returns to the Platform without reaching the last stop; the rulebook, with one rider per stop, leaves it "
        "stuck for as long as that Commuter waits",
        "Ties on points, riders and Fare Swipes are shared wins (the rulebook stops at Fare Swipes, reading 14)",
    ),
    rules_version=editions.EDITIONS[-1].rules_version,
    editions=editions.EDITIONS,
    # The short limited match comes first: it is the golden playthrough and exercises the limit path.
    search_scale=2,
    sample_setups=((2, {"max_turns": 40}), (2, {})),
    bots=(("greedy", Lookahead(worth=rules_greedy.worth)),),
    **parts(options=options, commands=commands, events=events, setup=setup, state=state, rules=rules,
            scoring=scoring, visibility=visibility, render=render),
)
