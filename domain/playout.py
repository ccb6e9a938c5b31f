"""Random play from the legal-move list: used by the conformance suite, golden files, bench and simulate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import match
from domain.engine import Command, Event, Game
from domain.match import MatchState
from domain.rng import Rng


@dataclass
class Playout:
    """One played match: the seed, each (seat, command) in order, the events and the final state."""

    game: Game[Any]
    seed: str
    moves: list[tuple[int, Command]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    setup_count: int = 0
    event_counts: list[int] = field(default_factory=list)  # how many events each move produced
    state: MatchState | None = None


Chooser = Callable[[MatchState, list[int]], tuple[int, Command]]


def random_chooser(game: Game[Any], rng: Rng) -> Chooser:
    """A policy: a random seat among those to move, then a random legal command of that seat."""

    def choose(state: MatchState, seats: list[int]) -> tuple[int, Command]:
        lists = {seat: match.legal(game, state, seat) for seat in seats}
        candidates = [seat for seat in seats if lists[seat]]
        if not candidates:
            raise AssertionError(f"{game.slug}: seats {seats} are to move but none has a legal move")
        seat = rng.choice(candidates)
        return seat, rng.choice(lists[seat])

    return choose


def play(
    game: Game[Any],
    players: int,
    options: dict[str, Any] | None,
    seed: str,
    chooser: Chooser | None = None,
    max_moves: int = 20_000,
    on_step: Callable[[MatchState, int, Command, list[Event]], None] | None = None,
    seed_source: str = "caller",
    names: Sequence[str] | None = None,
) -> Playout:
    """Play a match to its end (or `max_moves`), folding incrementally. The seed is the caller's (recorded so).
    `names`: the seats' players (default `p0`, `p1`, ...; `bot:<name>` for a bot's handle)."""
    result = Playout(game=game, seed=seed)
    seated = list(names) if names is not None else [f"p{i}" for i in range(players)]
    result.events = match.open_match(game, seated, options, seed, seed_source=seed_source)
    result.setup_count = len(result.events)
    state = match.fold(game, result.events)
    chooser = chooser or random_chooser(game, Rng.derive(seed, -1))
    for _ in range(max_moves):
        seats = match.to_move(game, state)
        if not seats:
            break
        seat, command = chooser(state, seats)
        events = match.decide(game, state, seat, command, Rng.derive(seed, state.version))
        if on_step is not None:
            on_step(state, seat, command, events)
        result.moves.append((seat, command))
        result.events.extend(events)
        result.event_counts.append(len(events))
        state = match.fold(game, events, state)
    result.state = state
    return result


def replay(game: Game[Any], players: int, options: dict[str, Any] | None, seed: str,
           moves: list[tuple[int, Command]]) -> list[Event]:
    """Re-decide a recorded list of moves from the same seed: the events it gives."""
    events = match.open_match(game, [f"p{i}" for i in range(players)], options, seed, seed_source="caller")
    state = match.fold(game, events)
    for seat, command in moves:
        new = match.decide(game, state, seat, command, Rng.derive(seed, state.version))
        events.extend(new)
        state = match.fold(game, new, state)
    return events
