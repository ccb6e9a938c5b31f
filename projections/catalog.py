"""The projections the workers keep up to date, in the order they run."""

from __future__ import annotations

from projections import game_stats, insights, match_summaries, player_stats, ratings
from projections.log import Projection

PROJECTIONS: tuple[Projection, ...] = (
    match_summaries.PROJECTION,
    player_stats.PROJECTION,
    game_stats.PROJECTION,
    ratings.PROJECTION,
    insights.PROJECTION,
)


def by_name(name: str) -> Projection | None:
    """The projection called `name`, or None."""
    return next((p for p in PROJECTIONS if p.name == name), None)
