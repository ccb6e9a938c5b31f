"""Apps own their matches: who may list and read a match of each visibility, and as whom.

The attacks: another app (or anyone) trying to read, list, or confirm the existence of a private match; an app key
trying to read a seat's hidden cards or play a seat's move; statistics leaking unlisted or private matches.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from litestar.testing import TestClient

from ledger.chain import canonical
from service.reads.runner import catch_up
from store.base import EventStore
from tests.api.conftest import bearer
from tests.api.http_play import play_to_end

GAME = "expect-delays"
READS = ("", "/events", "/state", "/export")


def open_match(client: TestClient, key: str, visibility: str, players: tuple[str, str] = ("ann", "bob")
               ) -> dict[str, Any]:
    """A match created by the app holding `key`, with this visibility."""
    body = {"game": GAME, "seats": [{"player": p} for p in players], "options": {"max_turns": 8},
            "visibility": visibility}
    created = client.post("/v1/matches", json=body, headers=bearer(key))
    assert created.status_code == 201, created.text
    assert created.json()["visibility"] == visibility
    return created.json()  # type: ignore[no-any-return]


def reads(client: TestClient, match_id: str, headers: dict[str, str]) -> list[int]:
    """The status of every read endpoint of a match for these credentials."""
    return [client.get(f"/v1/matches/{match_id}{path}", headers=headers).status_code for path in READS]


def test_a_private_match_exists_only_for_its_app_and_its_seats(client: TestClient, app_key: str,
                                                               other_key: str) -> None:
    """Anyone else gets 404 on every read, with or without a credential, exactly as for a match that does not exist:
    nothing says it is there."""
    created = open_match(client, app_key, "private")
    seat = created["seats"][0]["token"]
    assert reads(client, created["id"], bearer(app_key)) == [200] * 4
    assert reads(client, created["id"], bearer(seat)) == [200] * 4
    missing = client.get("/v1/matches/no-such-match", headers=bearer(other_key)).json()
    for headers in ({}, bearer(other_key), bearer("seat_not-a-real-token")):
        assert reads(client, created["id"], headers) == [404] * 4
        answer = client.get(f"/v1/matches/{created['id']}", headers=headers).json()
        assert answer["code"] == missing["code"] == "unknown-match"
        move = client.post(f"/v1/matches/{created['id']}/moves", headers=headers,
                           json={"move": {"type": "match.resign"}})
        assert move.status_code == 404


@pytest.mark.parametrize("visibility", ["public", "unlisted"])
def test_public_and_unlisted_matches_are_readable_by_id(client: TestClient, app_key: str, other_key: str,
                                                        visibility: str) -> None:
    """By id, anyone reads them as a spectator, another app's key too; a token that is nobody's is refused."""
    created = open_match(client, app_key, visibility)
    for headers in ({}, bearer(other_key), bearer(app_key)):
        assert reads(client, created["id"], headers) == [200] * 4
        assert client.get(f"/v1/matches/{created['id']}", headers=headers).json()["you"] is None
    wrong = client.get(f"/v1/matches/{created['id']}", headers=bearer("seat_not-a-real-token"))
    assert (wrong.status_code, wrong.json()["code"]) == (403, "wrong-token")


def test_the_owning_app_reads_as_a_spectator_never_as_a_seat(client: TestClient, app_key: str,
                                                             store: EventStore) -> None:
    """The app sees what a spectator sees: no hand, no legal moves; it cannot play a seat's move."""
    created = open_match(client, app_key, "private")
    spectator = client.get(f"/v1/matches/{created['id']}", headers=bearer(created["seats"][0]["token"])).json()
    as_app = client.get(f"/v1/matches/{created['id']}", headers=bearer(app_key)).json()
    assert as_app["you"] is None and as_app["view"] != spectator["view"]  # the seat sees its own hand
    anonymous = client.get(f"/v1/matches/{open_match(client, app_key, 'public')['id']}").json()
    assert set(as_app["view"]) == set(anonymous["view"])
    for path, method in (("/legal-moves", "GET"), ("/moves", "POST")):
        answer = client.request(method, f"/v1/matches/{created['id']}{path}", headers=bearer(app_key),
                                json={"move": {"type": "match.resign"}} if method == "POST" else None)
        assert (answer.status_code, answer.json()["code"]) == (403, "seat-token-required"), path
    log = client.get(f"/v1/matches/{created['id']}/events", headers=bearer(app_key)).json()["items"]
    assert [canonical(item["event"]) for item in log] == [e.public for e in store.read_match(created["id"])]


def test_listings_show_public_matches_and_an_apps_own(client: TestClient, app_key: str, other_key: str) -> None:
    """Without `mine`, everyone lists the same public matches; `mine=true` lists the calling app's own, of every
    visibility, and needs its key."""
    mine = {v: open_match(client, app_key, v)["id"] for v in ("public", "unlisted", "private")}
    theirs = {v: open_match(client, other_key, v, ("cy", "di"))["id"] for v in ("public", "unlisted", "private")}
    for headers in ({}, bearer(app_key), bearer(other_key)):
        listed = {m["id"] for m in client.get("/v1/matches", headers=headers).json()["items"]}
        assert listed == {mine["public"], theirs["public"]}
    own = client.get("/v1/matches", params={"mine": "true"}, headers=bearer(app_key)).json()["items"]
    assert {m["id"]: m["visibility"] for m in own} == {i: v for v, i in mine.items()}
    by_player = client.get("/v1/matches", params={"player": "cy"}).json()["items"]
    assert [m["id"] for m in by_player] == [theirs["public"]]
    anonymous = client.get("/v1/matches", params={"mine": "true"})
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "app-key-required")


def test_statistics_count_public_matches_only(client: TestClient, app_key: str, store: EventStore) -> None:
    """Unlisted and private matches are nobody else's business: no statistic, rating or leaderboard counts them."""
    for visibility, players in (("public", ("ann", "bob")), ("unlisted", ("cy", "di")), ("private", ("ed", "fa"))):
        created = open_match(client, app_key, visibility, players)
        play_to_end(client, created, random.Random(1))
    catch_up(store)
    assert client.get(f"/v1/games/{GAME}/stats").json()["finished"] == 1
    board = {e["player"] for e in client.get(f"/v1/leaderboards/{GAME}").json()["items"]}
    assert board == {"ann", "bob"}
    for player in ("cy", "ed"):
        assert client.get(f"/v1/players/{player}/stats").status_code == 404


def test_a_seat_token_of_one_match_reads_no_other(client: TestClient, app_key: str) -> None:
    """A seat token belongs to its match: shown at another private match it is nobody (404), at a public one it is
    refused (403), never taken for a seat there."""
    first = open_match(client, app_key, "public")
    token = bearer(first["seats"][0]["token"])
    private = open_match(client, app_key, "private")
    public = open_match(client, app_key, "public")
    assert client.get(f"/v1/matches/{private['id']}", headers=token).status_code == 404
    answer = client.get(f"/v1/matches/{public['id']}", headers=token)
    assert (answer.status_code, answer.json()["code"]) == (403, "wrong-token")
