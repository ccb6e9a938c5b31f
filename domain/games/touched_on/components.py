"""Touched On card data (from `data.toml`) and card identities.

Every card has a unique string id that cannot collide with any other string in an event:
`EV-L2-7` (Evader of line L2), `AU-L2` (Authorised Inspector of L2), `UC-3` (Undercover Inspector),
`PW-05` (Power card, its kind from the data), `XP-11` (Exp card, its value from the data).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

import msgspec

from domain.data import load_data

PowerKind = Literal["appeal", "priority-seat", "feet-on-seat", "peak-hour", "tram-tracker"]


class LineCard(msgspec.Struct, frozen=True, kw_only=True):
    """A Line card: its id, colour and label (DEFAULT names)."""

    id: str
    colour: str
    label: str


class PlayerCount(msgspec.Struct, frozen=True, kw_only=True):
    """The rulebook's set-up table, one column (SEED)."""

    players: int
    lines: int
    evaders: int
    authorised: int
    undercover: int
    power: int
    exp: int


class Data(msgspec.Struct, frozen=True, kw_only=True):
    """Everything in `data.toml`."""

    status: str
    evaders_per_line: int
    unlock_at: int
    power_each: int
    evader_inspector_each: int
    winner_exp: int
    second_exp: int
    lines: tuple[LineCard, ...]
    player_counts: tuple[PlayerCount, ...]
    power_cards: tuple[PowerKind, ...]
    exp_values: tuple[int, ...]


DATA = load_data("domain.games.touched_on", "data.toml", Data)

POWER_IDS: tuple[str, ...] = tuple(f"PW-{i + 1:02d}" for i in range(len(DATA.power_cards)))
EXP_IDS: tuple[str, ...] = tuple(f"XP-{i + 1:02d}" for i in range(len(DATA.exp_values)))
POWER_KIND: dict[str, PowerKind] = dict(zip(POWER_IDS, DATA.power_cards, strict=True))
EXP_VALUE: dict[str, int] = dict(zip(EXP_IDS, DATA.exp_values, strict=True))


def counts(players: int) -> PlayerCount:
    """The set-up column for `players` players."""
    return next(c for c in DATA.player_counts if c.players == players)


def lines_for(players: int) -> tuple[str, ...]:
    """The Line cards in play, in table order (reading 2: whole lines are removed)."""
    return tuple(line.id for line in DATA.lines[: counts(players).lines])


def evader_ids(line: str) -> tuple[str, ...]:
    """The nine Evaders of `line`."""
    return tuple(f"EV-{line}-{i + 1}" for i in range(DATA.evaders_per_line))


def authorised_id(line: str) -> str:
    """The Authorised Inspector of `line`."""
    return f"AU-{line}"


def undercover_id(index: int) -> str:
    """The Undercover Inspector number `index` + 1."""
    return f"UC-{index + 1}"


def evader_inspector_pile(players: int, free_tram_zone: str = "") -> tuple[str, ...]:
    """The Evader/Inspector cards used at this player count, unshuffled.

    A Free Tram Zone line (option, reading 23) loses its Authorised Inspector: no Inspector card may be played
    there, so that card could never be played at all.
    """
    c = counts(players)
    lines = lines_for(players)
    evaders = tuple(card for line in lines for card in evader_ids(line))
    authorised = tuple(authorised_id(line) for line in lines[: c.authorised] if line != free_tram_zone)
    undercover = tuple(undercover_id(i) for i in range(c.undercover))
    return evaders + authorised + undercover


def power_pile(players: int) -> tuple[str, ...]:
    """The Power cards used at this player count, unshuffled."""
    return POWER_IDS[: counts(players).power]


def exp_cards(players: int) -> tuple[str, ...]:
    """The Exp cards used at this player count, unshuffled."""
    return EXP_IDS[: counts(players).exp]


def is_evader(card: str) -> bool:
    """An Evader card (not a Priority Seat)."""
    return card.startswith("EV-")


def evader_line(card: str) -> str:
    """The line printed on an Evader (`EV-L2-7` -> `L2`)."""
    return card.split("-")[1]


def is_authorised(card: str) -> bool:
    """An Authorised Inspector."""
    return card.startswith("AU-")


def is_undercover(card: str) -> bool:
    """An Undercover Inspector."""
    return card.startswith("UC-")


def power_kind(card: str) -> PowerKind | None:
    """The kind of a Power card, or None for any other card."""
    return POWER_KIND.get(card)


def exp_value(card: str) -> int:
    """The value of an Exp card."""
    return EXP_VALUE[card]


def _group(card: str) -> str:
    if is_evader(card):
        return evader_line(card)
    if is_authorised(card):
        return card
    if is_undercover(card):
        return "undercover"
    return POWER_KIND[card]


ALL_CARDS = (
    tuple(card for line in DATA.lines for card in evader_ids(line.id))
    + tuple(authorised_id(line.id) for line in DATA.lines)
    + tuple(undercover_id(i) for i in range(max(c.undercover for c in DATA.player_counts)))
    + POWER_IDS
)
GROUP: dict[str, str] = {card: _group(card) for card in ALL_CARDS}


@lru_cache(maxsize=8192)
def grouped(hand: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """A hand's cards by group: a line id for its Evaders, `AU-Lx` for an Authorised Inspector, `undercover`,
    or a Power kind. Read-only (cached)."""
    out: dict[str, list[str]] = {}
    for card in hand:
        out.setdefault(GROUP[card], []).append(card)
    return {group: tuple(cards) for group, cards in out.items()}
