"""Every move told in words: the shared half of each game's narration (names, lifecycle events, redaction).

A game's `render.py` gives a `Narrator`: one small function per event type, each telling the event exactly as given.
`describe(game, event, viewer, names)` redacts the event for `viewer` first, so a sentence never names what the
viewer may not see ("Grace drew 3 cards"); `words(game, event, names)` tells an event already redacted (the API's
as-seen events, which after the end reveal everything).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from domain.engine import Event, Game, Narrator
from domain.lifecycle import (
    LIFECYCLE_EVENTS,
    DrawAccepted,
    DrawOffered,
    EntropyAdded,
    EntropyClosed,
    MatchEnded,
    MatchOpened,
    MatchStarted,
    SeatJoined,
    SeatResigned,
    TimedOut,
)

Names = Sequence[str]
Tell = Callable[[Any, Names], str]

__all__ = ["Narrator", "cards", "describe", "in_words", "listed", "ordinal", "plural", "who", "words"]


def who(names: Names, seat: int) -> str:
    """A seat's player name, or `seat N` while the seat has none (an open seat, an unknown handle)."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"seat {seat}"


def plural(count: int, noun: str) -> str:
    """`1 card`, `3 cards`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def listed(items: Iterable[str]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    parts = list(items)
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def cards(shown: Sequence[str], count: int, label: Callable[[str], str], noun: str = "card") -> str:
    """Cards named when the event shows them, else only how many (a hidden draw)."""
    if shown:
        return f"{plural(len(shown), noun)}: {listed(label(card) for card in shown)}"
    return plural(count, noun)


def in_words(code: str) -> str:
    """A code of the rules told as words: `turn-limit` is "turn limit", `buy_power` "buy power"."""
    return code.replace("-", " ").replace("_", " ")


def ordinal(number: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th`, `11th`, `22nd`."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _ended(event: MatchEnded, names: Names) -> str:
    reason = in_words(event.reason)
    if event.cooperative:
        verdict = "the team won" if event.team_won else "the team lost"
        return f"The match ended ({reason}): {verdict}."
    winners = [who(names, r.seat) for r in event.results if r.winner]
    ranks = "; ".join(f"{who(names, r.seat)} rank {r.rank} ({r.score:g})" for r in sorted(event.results,
                                                                                           key=lambda r: r.rank))
    head = f"{listed(winners)} won" if winners else "nobody won"
    return f"The match ended ({reason}): {head}. {ranks}."


LIFECYCLE: dict[type[Event], Tell] = {
    # The names given (a bot's as its level's title) where they name the seat, else the event's own players.
    MatchStarted: lambda e, n: "The match began: " + listed(
        who(n if s < len(n) and n[s] else e.players, s) for s in range(len(e.players))) + ".",
    MatchOpened: lambda e, n: f"The match opened with {plural(sum(p is None for p in e.seats), 'open seat')}.",
    SeatJoined: lambda e, n: f"{e.player} took seat {e.seat}.",
    SeatResigned: lambda e, n: f"{who(n, e.seat)} resigned.",
    TimedOut: lambda e, n: f"{who(n, e.seat)} ran out of time.",
    DrawOffered: lambda e, n: f"{who(n, e.seat)} offered a draw.",
    DrawAccepted: lambda e, n: f"{who(n, e.seat)} accepted the draw.",
    MatchEnded: _ended,
    EntropyAdded: lambda e, n: (f"{who(n, e.seat)} added entropy for the deal"
                                f"{' (drawn by the server for the bot)' if e.source == 'server' else ''}."),
    EntropyClosed: lambda e, n: ("Every seat's entropy is in: the cards are dealt." if not e.absent else
                                 f"The entropy closed without {listed(who(n, s) for s in e.absent)}: the cards are "
                                 "dealt."),
}
# Every lifecycle event has its sentence (tests/conformance/test_narration.py checks the list too).
assert set(LIFECYCLE) == set(LIFECYCLE_EVENTS), set(LIFECYCLE_EVENTS) - set(LIFECYCLE)


def words(game: Game[Any], event: Event, names: Names) -> str:
    """The event, exactly as given (already redacted for whoever reads it), in one sentence."""
    teller = LIFECYCLE.get(type(event))
    if teller is not None:
        return teller(event, names)
    return game.describe(event, names)


def describe(game: Game[Any], event: Event, viewer: int | None, names: Names) -> str:
    """The event as `viewer` (None: a spectator) may see it, in one sentence: hidden cards become counts."""
    if type(event) in LIFECYCLE:
        return words(game, event, names)
    return words(game, game.redact(event, viewer), names)
