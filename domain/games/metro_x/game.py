"""The Metro X game record."""

from __future__ import annotations

from domain.engine import Game, Lookahead
from domain.games.metro_x import commands, editions, events, options, render, rules, scoring, setup, state, visibility
from domain.games.metro_x.state import State
from domain.layout import parts

GAME: Game[State] = Game(
    slug="metro-x",
    title="Metro X",
    min_seats=1,
    max_seats=6,
    default_data=("solo_rating: invented solo score bands (the printed table was lost)",),
    deviations=(
        "a Free Space card may be declined (metro-x.pass: cross off nothing), as any card may mark fewer stations "
        "(reading 4); the rulebook says only 'cross off any one empty station'",
        "a Transfer may be used without writing its number (metro-x.mark-transfer with write_number false: only the "
        "X in a window, reading 13); the rulebook describes a Transfer with its number written",
    ),
    rules_version=editions.EDITIONS[-1].rules_version,
    editions=editions.EDITIONS,
    search_scale=2,
    sample_setups=((2, {"map": "tube-town"}), (1, {"map": "metro-city"}), (6, {"map": "metro-city"})),
    idle=(commands.Pass,),  # a missed deadline crosses nothing on a Free Space card; on any other card, resigns
    bots=(("greedy", Lookahead()),),
    **parts(options=options, commands=commands, events=events, setup=setup, state=state, rules=rules,
            scoring=scoring, visibility=visibility, render=render),
)
