"""Standings and their named tie-breaks per format (domain/tournaments/README.md, "Standings").

- Swiss: points, then Buchholz (the sum of the points of every opponent met, each table counted), then
  Sonneborn-Berger (the sum over opponents met of one's score against them times their points).
- Round robin: points, then head-to-head (the score against the entrants level on points), then Sonneborn-Berger.
- Knockout: the round reached, then the place at the last table played (a bye counts as first; level entrants
  placed in seat order, as they go on: scoring.finishing_order), then points.
Last tie-break everywhere: entry order. An entrant who withdrew is listed after every entrant still in.
A bye scores 1 in Swiss and knockout, nothing in round robin. Only finished tables count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from domain.tournaments.events import Standing
from domain.tournaments.scoring import finishing_order, pairwise, table_points
from domain.tournaments.state import Round, TournamentState

TIEBREAKS = {
    "swiss": ("buchholz", "sonneborn-berger"),
    "round-robin": ("head-to-head", "sonneborn-berger"),
    "knockout": ("round-reached", "last-table-place"),
}


@dataclass
class Tally:
    """What the finished tables say of one entrant."""

    points: Fraction = Fraction(0)
    # One (opponent, score against them) per opponent per table played.
    met: list[tuple[int, Fraction]] = field(default_factory=list)
    reached: int = 0
    last_place: int = 1
    byes: int = 0


def tallies(entrants: int, rounds: Sequence[Round], format: str, cooperative: bool) -> list[Tally]:
    """Each entrant's points, opponents, byes and the last round it played (finished tables only)."""
    out = [Tally() for _ in range(entrants)]
    bye_points = Fraction(0) if format == "round-robin" else Fraction(1)
    for paired in rounds:
        for entrant in paired.byes:
            out[entrant].points += bye_points
            out[entrant].byes += 1
            out[entrant].reached, out[entrant].last_place = paired.number, 1
        for table in range(len(paired.tables)):
            if not paired.table_done(table):
                continue
            results = paired.results[table]
            order = finishing_order(paired.tables[table], results, cooperative)
            for entrant, points in table_points(results, cooperative).items():
                out[entrant].points += points
                out[entrant].reached, out[entrant].last_place = paired.number, order.index(entrant) + 1
            for (a, b), score in pairwise(results, cooperative).items():
                out[a].met.append((b, score))
    return out


def _head_to_head(tally: list[Tally]) -> list[Fraction]:
    """Each entrant's score against the entrants level with it on points."""
    return [sum((s for o, s in t.met if tally[o].points == t.points), Fraction(0)) for t in tally]


def tiebreak_values(tally: list[Tally], format: str) -> list[tuple[Fraction, Fraction]]:
    """Each entrant's two named tie-breaks (TIEBREAKS[format]), higher better (a place is negated)."""
    if format == "knockout":
        return [(Fraction(t.reached), Fraction(-t.last_place)) for t in tally]
    sonneborn = [sum((s * tally[o].points for o, s in t.met), Fraction(0)) for t in tally]
    if format == "swiss":
        buchholz = [sum((tally[o].points for o, _ in t.met), Fraction(0)) for t in tally]
        return list(zip(buchholz, sonneborn, strict=True))
    return list(zip(_head_to_head(tally), sonneborn, strict=True))


def standings(state: TournamentState) -> tuple[Standing, ...]:
    """The standings now: every entrant, in a total order (the last tie-break is entry order)."""
    created = state.created
    tally = tallies(len(state.entrants), state.rounds, created.format, created.cooperative)
    breaks = tiebreak_values(tally, created.format)

    def key(entrant: int) -> tuple[object, ...]:
        out = entrant in state.withdrawn
        first, second = breaks[entrant]
        if created.format == "knockout":
            return (out, -first, -second, -tally[entrant].points, entrant)
        return (out, -tally[entrant].points, -first, -second, entrant)

    names = TIEBREAKS[created.format]
    shown = {"knockout": (1, -1)}.get(created.format, (1, 1))  # a place is shown as a place, not negated
    return tuple(
        Standing(place=place, entrant=entrant, points=float(tally[entrant].points),
                 tiebreaks={names[i]: float(breaks[entrant][i] * shown[i]) for i in range(2)},
                 withdrawn=entrant in state.withdrawn)
        for place, entrant in enumerate(sorted(range(len(state.entrants)), key=key), start=1)
    )


def opponents(tally: Sequence[Tally]) -> list[set[int]]:
    """Whom each entrant has met at a table."""
    met: dict[int, set[int]] = defaultdict(set)
    for entrant, t in enumerate(tally):
        met[entrant] = {o for o, _ in t.met}
    return [met[i] for i in range(len(tally))]
