"""Complete matches of every registered game, played through HTTP only, on both stores."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from domain import match
from domain.catalog import GAMES, by_slug, decode_events
from domain.engine import Game, setups
from domain.rng import seed_commitment
from ledger.chain import GENESIS, canonical, committed_event_hash, verify_chain
from ledger.events import NewMatch, SeatRecord
from ledger.sealing import sealed
from store.base import EventStore
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


def test_every_hash_is_public_and_a_spectator_verifies_the_live_chain(client: TestClient, app_key: str,
                                                                      store: EventStore) -> None:
    """Every event's hash, prev_hash and commitment are published at every moment, to everyone; a spectator can
    check the chain of a live match from its log alone, up to the head hash the match shows."""
    game = by_slug("expect-delays")
    assert game is not None
    created = create(client, app_key, game.slug, 2, {"max_turns": 8})
    play_moves(client, created, random.Random(3), 5)
    detail = client.get(f"/v1/matches/{created['id']}").json()
    assert detail["status"] == "active"
    stored = {e.version: e for e in store.read_match(created["id"])}
    for headers in ({}, bearer(created["seats"][0]["token"])):
        log = client.get(f"/v1/matches/{created['id']}/events", params={"limit": 500}, headers=headers).json()
        assert [item["hash"] for item in log["items"]] == [stored[v].hash for v in sorted(stored)]
        assert all(item["commitment"] == stored[item["version"]].commitment for item in log["items"])
    spectator = client.get(f"/v1/matches/{created['id']}/events", params={"limit": 500}).json()["items"]
    redacted = [item for item in spectator if as_json(item["event"]) != stored[item["version"]].payload]
    assert redacted, "a spectator sees at least the deal redacted"
    prev = GENESIS
    for item in spectator:  # the spectator's own check: each hash from what the log shows, nothing else
        digest = committed_event_hash(prev, created["id"], item["version"], item["event"]["type"],
                                      canonical(item["event"]), item["seat"], item["commitment"], item["recorded_at"])
        assert (item["prev_hash"], item["hash"]) == (prev, digest)
        prev = digest
    assert prev == detail["head_hash"]
    play_to_end(client, created, random.Random(1))
    final = client.get(f"/v1/matches/{created['id']}/events", params={"limit": 500}).json()["items"]
    assert [item["hash"] for item in final] == [stored_event.hash for stored_event in store.read_match(created["id"])]
    assert client.get(f"/v1/matches/{created['id']}").json()["head_hash"] == final[-1]["hash"]


def test_a_match_recorded_before_commitments_withholds_every_hash_from_its_first_hidden_event(
        client: TestClient, store: EventStore) -> None:
    """A scheme 1 match (its hashes cover the full events) cannot publish the hash of a redacted event, nor any later
    hash (each depends on it through the chain): from the first event redacted for the caller on, hashes are null,
    and so is the head hash, until the end."""
    game = by_slug("expect-delays")
    assert game is not None
    legacy_match(store, game, "legacy")
    stored = {e.version: e for e in store.read_match("legacy")}
    log = client.get("/v1/matches/legacy/events", params={"limit": 500}).json()["items"]
    first = next(i["version"] for i in log if as_json(i["event"]) != stored[i["version"]].payload)
    for item in log:
        assert item["commitment"] is None
        assert item["hash"] == (stored[item["version"]].hash if item["version"] < first else None)
        assert item["prev_hash"] == (stored[item["version"]].prev_hash if item["version"] <= first else None)
    page = client.get("/v1/matches/legacy/events", params={"after": first, "limit": 1}).json()["items"]
    assert page[0]["hash"] is None and page[0]["prev_hash"] is None, "paging reveals no withheld hash either"
    assert client.get("/v1/matches/legacy").json()["head_hash"] is None


def legacy_match(store: EventStore, game: Game[Any], match_id: str) -> None:
    """A match recorded under scheme 1 (before commitments existed), set up and not yet played."""
    events = match.open_match(game, ["ann", "bob"], {"max_turns": 8}, match_id)
    store.create_match(NewMatch(id=match_id, game=game.slug, rules_version=game.rules_version,
                                seats=(SeatRecord(0, "ann", "h0"), SeatRecord(1, "bob", "h1")),
                                options={"max_turns": 8}, seed=match_id, seed_commitment=seed_commitment(match_id),
                                scheme=1), sealed(game, match_id, 1, 1, events, None))
