"""One conformance suite for every registered game: random play from the legal list.

Each game is played at each of its sample set-ups. A game passes this suite by registering itself
in `domain.catalog.GAMES`; nothing here names a game.
"""

from __future__ import annotations

import copy
import os
import re
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import match
from domain.catalog import GAMES
from domain.codec import command_from_builtins, encode, event_from_builtins, to_builtins
from domain.engine import Command, Event, Game, Refusal, setups
from domain.match import MatchState
from domain.playout import play, replay
from domain.rng import Rng

MATCHES = int(os.environ.get("TURNSTILE_CONFORMANCE_MATCHES", "200"))
CHECKED_MATCHES = int(os.environ.get("TURNSTILE_CONFORMANCE_CHECKED", "8"))
CODE = re.compile(r"[a-z]+(-[a-z]+)*")  # a stable, machine-readable refusal code

CASES = [
    pytest.param(game, seats, options, id=f"{game.slug}-{seats}p-{index}")
    for game in GAMES
    for index, (seats, options) in enumerate(setups(game))
]


def assert_valid_outcome(game: Game[Any], state: MatchState, seats: int) -> None:
    """A finished match records one result per seat with sane ranks."""
    assert state.ended is not None, f"{game.slug}: the match did not end"
    results = state.ended.results
    assert sorted(r.seat for r in results) == list(range(seats))
    assert all(1 <= r.rank <= seats for r in results)
    if state.ended.cooperative:
        assert state.ended.team_won is not None
        assert all(r.winner == state.ended.team_won for r in results)
    else:
        assert min(r.rank for r in results) == 1
        assert all(r.winner == (r.rank == 1) for r in results if state.ended.reason != "resigned")


def assert_fold_matches(game: Game[Any], events: list[Event], state: MatchState) -> None:
    """Folding the log, also after a JSON round trip, gives the incrementally built state."""
    assert match.fold(game, events) == state
    assert match.fold(game, [event_from_builtins(game, to_builtins(e)) for e in events]) == state


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
def test_random_matches_end_with_an_outcome(game: Game[Any], seats: int, options: dict[str, Any]) -> None:
    """Many seeded random matches all end, with a valid outcome, and fold back to the same state."""
    for n in range(MATCHES):
        played = play(game, seats, options, seed=f"conformance-{n}")
        assert played.state is not None
        assert_valid_outcome(game, played.state, seats)
        if n % 10 == 0:
            assert_fold_matches(game, played.events, played.state)


class StepChecker:
    """The per-move checks of the suite, applied before each move of a random match."""

    def __init__(self, game: Game[Any], seats: int, seed: str) -> None:
        self.game, self.seats, self.seed = game, seats, seed
        self.rng = Rng.derive(seed, -2)
        self.pool: dict[bytes, Command] = {}
        self.scrambles_differed = 0
        self.hidden_seen = 0

    def __call__(self, state: MatchState, seat: int, command: Command, events: list[Event]) -> None:
        lists = self.check_listed(state)
        self.check_listed_moves_accepted(state, seat, lists[seat])
        self.check_refusals(state, lists)
        self.check_views(state, events)

    def check_listed(self, state: MatchState) -> list[list[Command]]:
        """Each seat's legal list: a seat to move has moves, listed once each, each as a client sends it back."""
        game = self.game
        moving = match.to_move(game, state)
        lists = [match.legal(game, state, seat) for seat in range(self.seats)]
        for seat, listed in enumerate(lists):
            assert bool(listed) == (seat in moving), f"seat {seat}: to_move {moving} but {len(listed)} listed"
            assert len({encode(c) for c in listed}) == len(listed), f"seat {seat}: a command is listed twice"
            for command in listed:
                sent = command_from_builtins(game, to_builtins(command))
                assert sent == command, f"a listed command does not survive JSON: {command}"
        return lists

    def check_listed_moves_accepted(self, state: MatchState, seat: int, listed: list[Command]) -> None:
        """Listed commands are accepted, and every event they give folds (also after a JSON round trip)."""
        for other in [listed[self.rng.below(len(listed))] for _ in range(min(3, len(listed)))]:
            events = match.decide(self.game, state, seat, other, Rng.derive(self.seed, state.version))
            assert events, f"{other} was accepted with no event"
            after = match.fold(self.game, events, state)
            decoded = [event_from_builtins(self.game, to_builtins(e)) for e in events]
            assert match.fold(self.game, decoded, state) == after
        for command in listed[:50]:
            self.pool.setdefault(encode(command), command)

    def check_refusals(self, state: MatchState, lists: list[list[Command]]) -> None:
        """A command that is not listed for a seat is refused with a stable code, and refusing changes nothing:
        `decide` runs on a deep copy, which must still equal the state, and every seat's legal list is the same
        afterwards (so no hidden cache or module state was touched either)."""
        game = self.game
        pool = list(self.pool.values())
        tries = [(self.rng.below(self.seats), pool[self.rng.below(len(pool))]) for _ in range(min(3, len(pool)))]
        tries = [(seat, candidate) for seat, candidate in tries if candidate not in lists[seat]]
        if not tries:
            return
        probe = copy.deepcopy(state)
        for seat, candidate in tries:
            with pytest.raises(Refusal) as refused:
                match.decide(game, probe, seat, candidate, Rng.derive(self.seed, state.version))
            assert CODE.fullmatch(refused.value.code), f"unstable refusal code {refused.value.code!r}"
        assert probe == state, f"refusing {tries} changed the state"
        again = [match.legal(game, state, s) for s in range(self.seats)]
        assert again == lists, f"refusing {tries} changed what is legal"

    def check_views(self, state: MatchState, events: list[Event]) -> None:
        """No seat (nor a spectator) sees, in its view or its redacted events, what it must not.

        Each event is checked against the state right after it: a card shown face up by one event and
        shuffled away by the next was public when it was shown.
        """
        game = self.game
        for event in events:
            state = match.evolve(game, state, event)
            if state.finished:
                return
            for seat in [*range(self.seats), None]:
                hidden = game.hidden_from(state.game_state, seat)
                redacted = encode(game.redact(event, seat))
                leaked = [token for token in hidden if f'"{token}"'.encode() in redacted]
                assert not leaked, f"seat {seat} sees {leaked} in {redacted!r}"
        for seat in [*range(self.seats), None]:
            view = encode(game.view(state.game_state, seat))
            self.hidden_seen += bool(game.hidden_from(state.game_state, seat))
            scrambled = game.scramble(state.game_state, seat, self.rng)
            if scrambled != state.game_state:
                self.scrambles_differed += 1
            assert encode(game.view(scrambled, seat)) == view, f"seat {seat}'s view shows hidden information"


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
@settings(max_examples=CHECKED_MATCHES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=12))
def test_every_move_checked(game: Game[Any], seats: int, options: dict[str, Any], seed: str) -> None:
    """Listed moves are accepted, others refused without effect, views leak nothing, replay is exact."""
    checker = StepChecker(game, seats, seed)
    played = play(game, seats, options, seed, on_step=checker)
    assert played.state is not None
    assert_valid_outcome(game, played.state, seats)
    assert_fold_matches(game, played.events, played.state)
    again = replay(game, seats, options, seed, played.moves)
    assert [encode(e) for e in again] == [encode(e) for e in played.events]
    if checker.hidden_seen:
        assert checker.scrambles_differed, "scramble never changed a state with hidden information"


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
def test_legal_and_to_move_agree(game: Game[Any], seats: int, options: dict[str, Any]) -> None:
    """A seat lists moves exactly when it may act, each once, each surviving JSON, over a whole match."""
    checker = StepChecker(game, seats, "to-move")

    def check(state: MatchState, seat: int, command: Command, events: list[Event]) -> None:
        checker.check_listed(state)

    play(game, seats, options, seed="to-move", on_step=check)


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
def test_resigning_ends_the_match(game: Game[Any], seats: int, options: dict[str, Any]) -> None:
    """Any seat may resign an active match: it ends at once, that seat ranked last (or the team lost)."""
    from domain.lifecycle import Resign

    events = match.open_match(game, [f"p{i}" for i in range(seats)], options, "resign")
    state = match.fold(game, events)
    seat = seats - 1
    state = match.fold(game, match.decide(game, state, seat, Resign(), Rng.derive("resign", state.version)), state)
    assert state.ended is not None and state.ended.reason == "resigned"
    result = next(r for r in state.ended.results if r.seat == seat)
    assert not result.winner
    if not game.cooperative and seats > 1:
        assert result.rank == max(r.rank for r in state.ended.results)
    with pytest.raises(Refusal) as refused:
        match.decide(game, state, 0, Resign(), Rng.derive("resign", state.version))
    assert refused.value.code == "match-finished"


def test_the_catalog_names_each_game_once() -> None:
    """Slugs and command/event tags are unique across the catalog and namespaced by slug."""
    slugs = [game.slug for game in GAMES]
    assert len(slugs) == len(set(slugs))
    tags: list[str] = []
    for game in GAMES:
        for kind in (*game.command_types, *game.event_types):
            tag = kind.__struct_config__.tag
            assert isinstance(tag, str) and tag.startswith(game.slug + "."), tag
            tags.append(tag)
    assert len(tags) == len(set(tags))


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_commands_and_events_have_json_schemas(game: Game[Any]) -> None:
    """Every command and event type is expressible in JSON Schema (the API's OpenAPI comes from them)."""
    _, components = msgspec.json.schema_components([*game.command_types, *game.event_types, game.options_type])
    assert set(components) >= {kind.__name__ for kind in game.command_types}
