"""Complete matches of every registered game, played through HTTP only, on both stores."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from domain import match
from domain.catalog import GAMES, by_slug
from domain.engine import Game, setups
from service.matches import decode_events
from store.base import EventStore
from store.chain import verify_chain
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves, play_to_end


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_a_complete_match_is_played_and_recorded(client: TestClient, app_key: str, store: EventStore,
                                                 game: Game[Any]) -> None:
    """Legal moves in, moves out, to the end; the record folds to the state the API shows."""
    seats, options = setups(game)[0]
    created = create(client, app_key, game.slug, seats, options, seed="http-play")
    moves = play_to_end(client, created, random.Random(7))
    assert moves > 0
    final = client.get(f"/v1/matches/{created['id']}").json()
    assert final["status"] == "finished"
    assert final["seed"] == "http-play"
    assert len(final["outcome"]["results"]) == seats
    stored = store.read_match(created["id"])
    assert [e.version for e in stored] == list(range(1, final["version"] + 1))
    assert verify_chain(stored) is None
    assert final["head_hash"] == stored[-1].hash
    state = match.fold(game, decode_events(game, [e.payload for e in stored]))
    assert state.finished and state.version == final["version"]


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_each_seat_sees_its_own_view_and_spectators_the_public_one(
    client: TestClient, app_key: str, store: EventStore, game: Game[Any]
) -> None:
    """A seat token reads that seat's view; no token reads the spectator's; both match the rules' `view`."""
    seats, options = setups(game)[0]
    created = create(client, app_key, game.slug, seats, options)
    state = match.fold(game, decode_events(game, [e.payload for e in store.read_match(created["id"])]))
    for seat in created["seats"]:
        body = client.get(f"/v1/matches/{created['id']}", headers=bearer(seat["token"])).json()
        assert body["you"] == seat["seat"]
        assert body["view"] == as_json(game.view(state.game_state, seat["seat"]))
    public = client.get(f"/v1/matches/{created['id']}").json()
    assert public["you"] is None
    assert public["view"] == as_json(game.view(state.game_state, None))
    assert public["seed"] is None


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_the_event_log_pages_by_version_and_is_redacted_per_seat(
    client: TestClient, app_key: str, game: Game[Any]
) -> None:
    """Paging the log with `after`/`limit` returns every version once, redacted as the caller may see it."""
    seats, options = setups(game)[0]
    created = create(client, app_key, game.slug, seats, options)
    play_moves(client, created, random.Random(3), 6)
    version = client.get(f"/v1/matches/{created['id']}").json()["version"]
    seen: list[int] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/v1/matches/{created['id']}/events", params={"after": after, "limit": 3}).json()
        seen += [item["version"] for item in page["items"]]
        after = page["next_after"]
    assert seen == list(range(1, version + 1))


def as_json(value: Any) -> Any:
    """A value as it looks after a JSON round trip."""
    return msgspec.json.decode(msgspec.json.encode(value))


def test_hashes_of_redacted_events_are_withheld_until_the_end(client: TestClient, app_key: str,
                                                              store: EventStore) -> None:
    """A hash covers the hidden cards, so a guesser could test guesses against it: it is null for the caller
    while redacted (with the next prev_hash), and every hash is published once the match has ended."""
    game = by_slug("expect-delays")
    assert game is not None
    created = create(client, app_key, game.slug, 2, {"max_turns": 8}, seed="hash-leak")
    play_moves(client, created, random.Random(3), 5)
    assert client.get(f"/v1/matches/{created['id']}").json()["status"] == "active"
    stored = {e.version: e for e in store.read_match(created["id"])}
    log = client.get(f"/v1/matches/{created['id']}/events", params={"limit": 500}).json()["items"]
    withheld = [item for item in log if item["hash"] is None]
    assert withheld, "a spectator sees at least the deal redacted"
    for item in log:
        full = stored[item["version"]]
        hidden = item["hash"] is None
        assert hidden == (as_json(item["event"]) != full.payload and not item["event"]["type"].startswith("match."))
        if not hidden:
            assert item["hash"] == full.hash
        after = next((x for x in log if x["version"] == item["version"] + 1), None)
        if after is not None:
            assert (after["prev_hash"] is None) == hidden
    page = client.get(f"/v1/matches/{created['id']}/events", params={"after": withheld[0]["version"], "limit": 1})
    assert page.json()["items"][0]["prev_hash"] is None, "paging does not reveal the withheld hash either"
    play_to_end(client, created, random.Random(1))
    final = client.get(f"/v1/matches/{created['id']}/events", params={"limit": 500}).json()["items"]
    assert [item["hash"] for item in final] == [stored_event.hash for stored_event in store.read_match(created["id"])]
    assert client.get(f"/v1/matches/{created['id']}").json()["head_hash"] == final[-1]["hash"]
