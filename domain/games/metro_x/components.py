"""Metro X data from `data.toml`: the Transit deck, both maps, the penalty table and the DEFAULT solo ratings.

The maps are decoded once into `Board`s that index stations, so a sheet is a tuple aligned with
`Board.stations` and every rule works on small integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import msgspec

from domain.data import load_data

CardKind = Literal["number", "skip", "transfer", "free"]


class CardData(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One Transit card. `value` is the number printed on Number/Skip cards (0 for Transfer and Free Space)."""

    id: str
    kind: CardKind
    value: int
    reshuffle: bool = False


class RouteData(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One subway route: its Train Car Windows, bonus pair and stations from Start Point to End Point."""

    id: str
    color: str
    windows: int
    gold: int
    white: int
    stations: tuple[str, ...]


class MapData(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One side of the subway board."""

    title: str
    routes: tuple[RouteData, ...]


class PenaltyRow(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Up to `max_empty` empty stations (inclusive) cost `penalty` points."""

    max_empty: float
    penalty: int


class SoloBand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """DEFAULT solo rating: a final score in [low, high] earns `title`."""

    low: float
    high: float
    title: str


class MetroXData(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The whole data file."""

    maps_status: str
    deck_status: str
    empty_penalty_status: str
    solo_rating_status: str
    deck: tuple[CardData, ...]
    empty_penalty: tuple[PenaltyRow, ...]
    solo_rating: tuple[SoloBand, ...]
    maps: dict[str, MapData]


@dataclass(frozen=True)
class Board:
    """A map indexed for play: station ids in first-appearance order, each route as station indices."""

    slug: str
    title: str
    routes: tuple[RouteData, ...]
    route_index: dict[str, int]
    stations: tuple[str, ...]
    station_index: dict[str, int]
    route_stops: tuple[tuple[int, ...], ...]
    lines_at: tuple[int, ...]
    windows: int

    @classmethod
    def build(cls, slug: str, data: MapData) -> Board:
        """Index a map."""
        stations: list[str] = []
        index: dict[str, int] = {}
        for route in data.routes:
            for station in route.stations:
                if station not in index:
                    index[station] = len(stations)
                    stations.append(station)
        stops = tuple(tuple(index[s] for s in route.stations) for route in data.routes)
        lines = [0] * len(stations)
        for route_stops in stops:
            for i in set(route_stops):
                lines[i] += 1
        return cls(
            slug=slug,
            title=data.title,
            routes=data.routes,
            route_index={route.id: i for i, route in enumerate(data.routes)},
            stations=tuple(stations),
            station_index=index,
            route_stops=stops,
            lines_at=tuple(lines),
            windows=sum(route.windows for route in data.routes),
        )

    def transfer_value(self, station: int) -> int:
        """Rules, Transfer: twice the number of train lines that make a stop there (reading 8)."""
        return 2 * self.lines_at[station]


DATA: MetroXData = load_data(__package__, "data.toml", MetroXData)
BOARDS: dict[str, Board] = {slug: Board.build(slug, data) for slug, data in DATA.maps.items()}
CARDS: dict[str, CardData] = {card.id: card for card in DATA.deck}
DECK: tuple[str, ...] = tuple(card.id for card in DATA.deck)


def empty_penalty(empty: int) -> int:
    """Points lost for `empty` empty stations (FOUND fan table)."""
    return next(row.penalty for row in DATA.empty_penalty if empty <= row.max_empty)


def solo_rating(score: int) -> str:
    """The DEFAULT solo rating title for a final score."""
    return next(band.title for band in DATA.solo_rating if band.low <= score <= band.high)
