"""The brute-force attack on published hashes, performed: guessing hidden cards from the hash chain must fail.

An attacker (a spectator, or a seat after the other seats' cards) reads a live match's log over the API. For every
event redacted for them, they enumerate candidate full events (the hidden cards swapped for every other card they
cannot see), recompute the hashes they can (the event's own hash as the full-payload formula would give it, the
chain formula over the candidate as the public form, the next event's hash through the candidate, and an unsalted
commitment) and compare with what the API published. The attack succeeds if a candidate matches.

It must never succeed on what the API serves (record scheme 2, and scheme 1 matches' withheld hashes), and it does
succeed against scheme 1 hashes published as the API did before (the event's hash withheld, the next one's not),
which shows the attack is real.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from domain import match
from domain.catalog import GAMES, decode_events
from domain.engine import Game, setups
from domain.match import MatchState
from ledger.chain import canonical, committed_event_hash, event_hash
from ledger.events import StoredEvent
from store.base import EventStore
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves
from tests.api.test_play_over_http import legacy_match

Item = dict[str, Any]


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every string inside a JSON value, with its path."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))


def replaced(value: Any, path: tuple[Any, ...], new: str) -> Any:
    """A copy of a JSON value with the string at `path` replaced."""
    copy = msgspec.json.decode(msgspec.json.encode(value))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copy


def candidates(full: dict[str, Any], hidden: frozenset[str]) -> Iterator[dict[str, Any]]:
    """The true event, and every event differing from it by one hidden card swapped for another hidden card: what
    an attacker who knows the card list but not the deal must tell apart."""
    yield full
    for path, value in leaves(full):
        if value in hidden:
            for other in sorted(hidden - {value}):
                yield replaced(full, path, other)


def oracles(match_id: str, item: Item, following: Item | None, guess: dict[str, Any],
            commands: tuple[dict[str, Any] | None, dict[str, Any] | None]) -> set[str]:
    """Every published value an attacker can recompute from a guess of the full event: the event's own hash (under
    either formula), the next event's hash through it, an unsalted commitment. The commands behind this event and
    the next are taken as known (a strong attacker: a move is one of a few legal ones)."""
    version, seat, at, kind = item["version"], item["seat"], item["recorded_at"], item["event"]["type"]
    command, next_command = commands
    found: set[str] = set()
    mine = event_hash(item["prev_hash"] or "", match_id, version, kind, guess, seat, command, at)
    if item["hash"] in {mine, committed_event_hash(item["prev_hash"] or "", match_id, version, kind,
                                                   canonical(guess), seat, item["commitment"] or "", at)}:
        found.add("hash")
    if following is not None and following["hash"] is not None:
        after = event_hash(mine, match_id, following["version"], following["event"]["type"],
                           canonical(following["event"]), following["seat"], next_command, following["recorded_at"])
        if after == following["hash"]:
            found.add("next hash")
    body = msgspec.json.encode({"event": guess, "command": command}, order="sorted")
    if item["commitment"] in {hashlib.sha256(body).hexdigest(), hashlib.sha256(b"\n" + body).hexdigest()}:
        found.add("commitment")
    return found


def attack(match_id: str, game: Game[Any], log: list[Item], stored: dict[int, StoredEvent],
           states: dict[int, MatchState], seat: int | None) -> tuple[int, list[tuple[int, set[str]]]]:
    """Run the attack over every event redacted for `seat`: (events attacked, [(version, what matched)])."""
    attacked, broken = 0, []
    for index, item in enumerate(log):
        full = stored[item["version"]].payload
        if canonical(item["event"]) == canonical(full):
            continue
        hidden = game.hidden_from(states[item["version"]].game_state, seat)
        following = log[index + 1] if index + 1 < len(log) else None
        attacked += 1
        commands = (stored[item["version"]].command,
                    None if following is None else stored[following["version"]].command)
        for guess in candidates(full, hidden):
            found = oracles(match_id, item, following, guess, commands)
            if found:
                broken.append((item["version"], found))
                break
    return attacked, broken


def states_of(store: EventStore, game: Game[Any], match_id: str) -> dict[int, MatchState]:
    """The state right after each version."""
    out, state = {}, None
    for event in store.read_match(match_id):
        state = match.fold(game, decode_events(game, [event.payload]), state)
        out[event.version] = state
    return out


HIDDEN_INFORMATION = [g for g in GAMES if g.slug != "metro-x"]  # Metro X deals nothing face down that others lack


@pytest.mark.parametrize("game", HIDDEN_INFORMATION, ids=[g.slug for g in HIDDEN_INFORMATION])
def test_no_caller_can_brute_force_hidden_cards_from_the_published_hashes(
        client: TestClient, app_key: str, store: EventStore, game: Game[Any]) -> None:
    """A spectator and every seat attack every event redacted for them, with every candidate card: nothing matches."""
    seats, options = setups(game)[0]
    # A chosen seed: with a random one a short cooperative match can be over (and revealed) within the 12 moves.
    created = create(client, app_key, game.slug, seats, options, seed=f"hash-attack-{game.slug}")
    play_moves(client, created, random.Random(5), 12)
    assert client.get(f"/v1/matches/{created['id']}").json()["status"] == "active"
    stored = {e.version: e for e in store.read_match(created["id"])}
    states = states_of(store, game, created["id"])
    total = 0
    for seat, headers in [(None, {}), *((s["seat"], bearer(s["token"])) for s in created["seats"])]:
        log = client.get(f"/v1/matches/{created['id']}/events", params={"limit": 500}, headers=headers).json()
        assert all(item["hash"] and item["commitment"] for item in log["items"]), "every hash is published"
        attacked, broken = attack(created["id"], game, log["items"], stored, states, seat)
        assert not broken, f"seat {seat} recovered hidden cards at {broken}"
        total += attacked
    assert total > 0, "the attack had hidden events to try"


def test_the_attack_recovers_cards_from_scheme_1_hashes_as_they_were_published(store: EventStore,
                                                                               client: TestClient) -> None:
    """The same attack against a scheme 1 match, with hashes published as the API did before this fix (a redacted
    event's hash withheld, the next one's not): it recovers the hidden cards. Today's API withholds every later hash
    of such a match too, and the attack finds nothing."""
    game = next(g for g in GAMES if g.slug == "expect-delays")
    legacy_match(store, game, "legacy-attack")
    service = client.app.state.service
    rng = random.Random(2)
    for _ in range(12):  # draws during play are redacted events followed by public ones
        state = service.load("legacy-attack").state
        seat = rng.choice(match.to_move(game, state))
        service.play("legacy-attack", seat, rng.choice(match.legal(game, state, seat)), expected_version=None,
                     command_id=None)
    stored = {e.version: e for e in store.read_match("legacy-attack")}
    states = states_of(store, game, "legacy-attack")
    served = client.get("/v1/matches/legacy-attack/events", params={"limit": 500}).json()["items"]
    old_style = []
    for item in served:  # what the old API published: only the redacted events' own hashes withheld
        event = stored[item["version"]]
        redacted = canonical(item["event"]) != canonical(event.payload)
        old_style.append({**item, "hash": None if redacted else event.hash, "prev_hash": event.prev_hash})
    attacked, broken = attack("legacy-attack", game, old_style, stored, states, None)
    assert attacked and broken and all("next hash" in found for _, found in broken)
    assert attack("legacy-attack", game, served, stored, states, None) == (attacked, [])


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_what_the_hashes_cover_holds_nothing_hidden_from_anyone(store: EventStore, client: TestClient,
                                                                app_key: str, game: Game[Any]) -> None:
    """Every stored public form (what the chain hashes beside the commitment) is free of every card hidden from any
    seat or a spectator at that moment: the hash inputs a caller can see contain no hidden value."""
    seats, options = setups(game)[0]
    created = create(client, app_key, game.slug, seats, options)
    play_moves(client, created, random.Random(9), 20)
    states = states_of(store, game, created["id"])
    for event in store.read_match(created["id"]):
        state = states[event.version]
        if state.game_state is None:
            continue
        text = msgspec.json.encode(event.public)
        for seat in [None, *range(seats)]:
            hidden = game.hidden_from(state.game_state, seat)
            assert not [t for t in hidden if f'"{t}"'.encode() in text], (event.version, seat)
