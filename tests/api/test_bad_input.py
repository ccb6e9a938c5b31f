"""Bad input gets a clear 4xx problem with a stable code, never a 500, and changes nothing (over both stores)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from api import cursors
from api.openapi_schema import OPENAPI_PATH
from ledger.events import MatchRecord
from store.base import EventStore, iso
from tests.api.conftest import bearer
from tests.api.http_play import create
from tests.api.test_errors import problem, to_move

GAME = "expect-delays"
PAIR = [{"player": "ann"}, {"player": "bob"}]
DEEP = 2_000


def create_raw(client: TestClient, app_key: str, body: bytes, content_type: str | None = "application/json") -> Any:
    """POST /v1/matches with a raw body."""
    headers = bearer(app_key) | ({"Content-Type": content_type} if content_type is not None else {})
    return client.post("/v1/matches", content=body, headers=headers)


def nested(depth: int) -> str:
    """A JSON array nested `depth` levels deep."""
    return "[" * depth + "]" * depth


# ---- NUL (U+0000): PostgreSQL refuses it in text, so the API refuses it everywhere ---------------------------


@pytest.mark.parametrize(("url", "where"), [
    ("/v1/matches/a%00b", "path"),
    ("/v1/matches/a%00b/events", "path"),
    ("/v1/players/a%00", "path"),
    ("/v1/players/a%00/stats", "path"),
    ("/v1/matches?player=a%00", "query"),
    ("/v1/matches?game=a%00", "query"),
    ("/v1/matches?cursor=a%00", "query"),
    ("/v1/matches?a%00=1", "query"),
])
def test_nul_in_the_path_or_query_is_400_naming_where(client: TestClient, url: str, where: str) -> None:
    """A NUL in the path or the query string: 400 `invalid-request` saying where, before any handler runs."""
    body = problem(client.get(url), 400, "invalid-request")
    assert where in body["detail"] and "NUL" in body["detail"]


def test_nul_in_a_header_is_400_naming_it(client: TestClient, app_key: str, store: EventStore) -> None:
    """A NUL in a header value: 400 naming the header, and nothing is written."""
    created = create(client, app_key, GAME, 2)
    mover, _, move = to_move(client, created)
    before = store.get_match(created["id"]).version  # type: ignore[union-attr]
    headers = {**bearer(mover["token"]), "Idempotency-Key": "a\x00b"}
    body = problem(client.post(f"/v1/matches/{created['id']}/moves", headers=headers, json={"move": move}),
                   400, "invalid-request")
    assert "idempotency-key" in body["detail"].lower()
    assert store.get_match(created["id"]).version == before  # type: ignore[union-attr]


@pytest.mark.parametrize("body", [
    {"game": GAME, "seats": PAIR, "seed": "a\x00"},
    {"game": GAME, "seats": PAIR, "options": {"max_turns\x00": 1}},
    {"game": GAME, "seats": PAIR, "options": {"note": ["ok", {"deep": "x\x00"}]}},
    {"game": "terminus\x00", "seats": PAIR},
], ids=["seed", "options-key", "options-value", "game"])
def test_nul_in_a_json_body_is_400_and_creates_nothing(client: TestClient, app_key: str, store: EventStore,
                                                         body: dict[str, Any]) -> None:
    """A string holding U+0000 anywhere in a body: 400 `invalid-request`, and no match is created."""
    problem(client.post("/v1/matches", json=body, headers=bearer(app_key)), 400, "invalid-request")
    assert store.list_matches() == []


def test_nul_in_a_move_is_400_and_changes_nothing(client: TestClient, app_key: str, store: EventStore) -> None:
    """A move whose strings hold U+0000: 400, and the match keeps its version."""
    created = create(client, app_key, GAME, 2, seed="nul-move")
    mover, _, move = to_move(client, created)
    before = store.get_match(created["id"]).version  # type: ignore[union-attr]
    field = next(k for k, v in move.items() if k != "type" and isinstance(v, str))  # e.g. "line": "U1"
    poisoned = {**move, field: move[field] + "\x00"}
    problem(client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(mover["token"]),
                        json={"move": poisoned}), 400, "invalid-request")
    assert store.get_match(created["id"]).version == before  # type: ignore[union-attr]


def test_an_escaped_backslash_before_u0000_is_plain_text(client: TestClient, app_key: str) -> None:
    """`\\\\u0000` in JSON is a backslash and the text `u0000`, not a NUL: accepted."""
    response = create_raw(client, app_key, json.dumps({"game": GAME, "seats": PAIR, "seed": "\\u0000"}).encode())
    assert response.status_code == 201, response.text


# ---- depth, encoding, media type -------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [65, DEEP])
def test_a_deeply_nested_create_body_is_400(client: TestClient, app_key: str, store: EventStore, depth: int) -> None:
    """JSON nested deeper than the limit (64): 400 `invalid-request` without recursing, and nothing created."""
    body = f'{{"game":"{GAME}","seats":[{{"player":"ann"}},{{"player":"bob"}}],"options":{{"x":{nested(depth)}}}}}'
    detail = problem(create_raw(client, app_key, body.encode()), 400, "invalid-request")["detail"]
    assert "deep" in detail
    assert store.list_matches() == []


def test_nesting_within_the_limit_reaches_the_rules(client: TestClient, app_key: str) -> None:
    """Depth 60 is fine for the body: the game then refuses the unknown option (422), not the parser."""
    body = f'{{"game":"{GAME}","seats":[{{"player":"ann"}},{{"player":"bob"}}],"options":{{"x":{nested(60)}}}}}'
    problem(create_raw(client, app_key, body.encode()), 422, "bad-options")


def test_a_deeply_nested_move_is_400_and_changes_nothing(client: TestClient, app_key: str,
                                                          store: EventStore) -> None:
    """A move body nested 2,000 levels deep: 400, and the match keeps its version."""
    created = create(client, app_key, GAME, 2)
    mover, _, _ = to_move(client, created)
    before = store.get_match(created["id"]).version  # type: ignore[union-attr]
    response = client.post(f"/v1/matches/{created['id']}/moves", content=f'{{"move":{nested(DEEP)}}}'.encode(),
                           headers={**bearer(mover["token"]), "Content-Type": "application/json"})
    problem(response, 400, "invalid-request")
    assert store.get_match(created["id"]).version == before  # type: ignore[union-attr]


@pytest.mark.parametrize("depth", [900, DEEP])
def test_a_deeply_nested_verification_record_is_malformed(client: TestClient, app_key: str, depth: int) -> None:
    """A record whose event line nests 900 or 2,000 levels deep: a `malformed-record` verdict naming the line,
    never a RecursionError."""
    created = create(client, app_key, GAME, 2)
    header, first, *rest = client.get(f"/v1/matches/{created['id']}/export").text.splitlines()
    line = json.loads(first)
    line["command"] = {"x": "@"}
    deep_line = json.dumps(line).replace('"@"', nested(depth))
    record = "\n".join([header, deep_line, *rest]) + "\n"
    answer = client.post("/v1/verifications", json={"record": record})
    assert answer.status_code == 200
    verdict = answer.json()
    assert (verdict["ok"], verdict["code"], verdict["failed_version"]) == (False, "malformed-record", 1)
    assert "line 2" in verdict["message"] and "deep" in verdict["message"]


def test_a_verification_of_a_real_record_still_gives_a_verdict(client: TestClient, app_key: str) -> None:
    """The depth check lets real records through to the verifier."""
    created = create(client, app_key, GAME, 2)
    record = client.get(f"/v1/matches/{created['id']}/export").text
    response = client.post("/v1/verifications", json={"record": record})
    assert response.status_code == 200 and response.json()["code"] == "verified-so-far", response.text


@pytest.mark.parametrize("raw", [b'{"game":"\xff\xfe","seats":[{"player":"a"}]}', b'\xed\xa0\x80',
                                 b'{"game":"' + "é".encode("latin-1") + b'","seats":[]}'],
                         ids=["ff-fe", "surrogate", "latin-1"])
def test_invalid_utf8_is_400_and_creates_nothing(client: TestClient, app_key: str, store: EventStore,
                                                 raw: bytes) -> None:
    """A body that is not UTF-8: 400 `invalid-request`, nothing created."""
    body = problem(create_raw(client, app_key, raw), 400, "invalid-request")
    assert "UTF-8" in body["detail"]
    assert store.list_matches() == []


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml",
                                          "multipart/form-data; boundary=x", "application/json; charset=latin-1"])
def test_a_non_json_content_type_is_415_and_creates_nothing(client: TestClient, app_key: str, store: EventStore,
                                                            content_type: str) -> None:
    """A JSON body sent as another media type: 415 `unsupported-media-type`, nothing created."""
    body = json.dumps({"game": GAME, "seats": PAIR}).encode()
    problem(create_raw(client, app_key, body, content_type), 415, "unsupported-media-type")
    assert store.list_matches() == []


def test_moves_and_verifications_refuse_non_json_media_types(client: TestClient, app_key: str,
                                                             store: EventStore) -> None:
    """415 on every JSON body: a move (nothing written) and a verification."""
    created = create(client, app_key, GAME, 2)
    mover, _, move = to_move(client, created)
    before = store.get_match(created["id"]).version  # type: ignore[union-attr]
    response = client.post(f"/v1/matches/{created['id']}/moves", content=json.dumps({"move": move}).encode(),
                           headers={**bearer(mover["token"]), "Content-Type": "text/plain"})
    problem(response, 415, "unsupported-media-type")
    assert store.get_match(created["id"]).version == before  # type: ignore[union-attr]
    problem(client.post("/v1/verifications", content=b'{"record":"x"}', headers={"Content-Type": "text/csv"}),
            415, "unsupported-media-type")


@pytest.mark.parametrize("content_type", [None, "application/json", "application/json; charset=utf-8",
                                          "Application/JSON; charset=UTF-8", "application/vnd.turnstile+json"])
def test_json_media_types_and_no_content_type_are_accepted(client: TestClient, app_key: str,
                                                           content_type: str | None) -> None:
    """`application/json` (with a UTF-8 charset), `application/*+json`, or no Content-Type at all."""
    response = create_raw(client, app_key, json.dumps({"game": GAME, "seats": PAIR}).encode(), content_type)
    assert response.status_code == 201, response.text


def test_an_oversized_create_or_move_body_is_413(client: TestClient, app_key: str, store: EventStore) -> None:
    """Create and move bodies are small: past 64 KiB, 413 `request-too-large`, and nothing is written."""
    padding = "x" * (64 * 1024)
    problem(client.post("/v1/matches", json={"game": GAME, "seats": PAIR, "options": {"pad": padding}},
                        headers=bearer(app_key)), 413, "request-too-large")
    assert store.list_matches() == []
    created = create(client, app_key, GAME, 2)
    mover, _, move = to_move(client, created)
    before = store.get_match(created["id"]).version  # type: ignore[union-attr]
    problem(client.post(f"/v1/matches/{created['id']}/moves", json={"move": {**move, "pad": padding}},
                        headers=bearer(mover["token"])), 413, "request-too-large")
    assert store.get_match(created["id"]).version == before  # type: ignore[union-attr]


def test_415_is_documented_on_every_json_body() -> None:
    """Every operation with a request body documents 415 as problem+json."""
    document = json.loads(OPENAPI_PATH.read_text())
    with_body = [(path, method, op) for path, item in document["paths"].items() for method, op in item.items()
                 if isinstance(op, dict) and "requestBody" in op]
    assert len(with_body) == 11  # create a match, play a move, verify a record, join a seat, add a seat's entropy,
    # create a webhook; create a tournament, join it, start it (the organiser's entropy), withdraw from it, verify
    # its record
    for path, method, op in with_body:
        assert "application/problem+json" in op["responses"].get("415", {}).get("content", {}), (method, path)


# ---- strict types ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ['"5"', "5.0", "true", '"null"'])
def test_expected_version_must_be_an_integer(client: TestClient, app_key: str, store: EventStore,
                                             version: str) -> None:
    """`"expected_version": "5"` is a string, not an integer: 400 naming the field, and nothing is written."""
    created = create(client, app_key, GAME, 2)
    mover, _, move = to_move(client, created)
    before = store.get_match(created["id"]).version  # type: ignore[union-attr]
    text = f'{{"move":{json.dumps(move)},"expected_version":{version.replace("5", str(before))}}}'
    response = client.post(f"/v1/matches/{created['id']}/moves", content=text.encode(),
                           headers={**bearer(mover["token"]), "Content-Type": "application/json"})
    body = problem(response, 400, "invalid-request")
    assert any(e.get("key") == "expected_version" and e.get("source") == "body" for e in body["errors"]), body
    assert store.get_match(created["id"]).version == before  # type: ignore[union-attr]


@pytest.mark.parametrize(("game", "options"), [(GAME, {"max_turns": "12"}), ("terminus", {"automa": "true"}),
                                               ("terminus", {"first_game": 1}), ("mass-transit", {"first_seat": "1"})])
def test_options_of_the_wrong_type_are_bad_options(client: TestClient, app_key: str, store: EventStore,
                                                   game: str, options: dict[str, Any]) -> None:
    """Options are decoded strictly too: a string for an integer or a boolean is `bad-options`."""
    body = {"game": game, "seats": PAIR, "options": options}
    problem(client.post("/v1/matches", json=body, headers=bearer(app_key)), 422, "bad-options")
    assert store.list_matches() == []


def test_strict_bodies_still_name_the_field(client: TestClient, app_key: str) -> None:
    """A wrong type deep in a body is still a 400 naming its path."""
    body = problem(client.post("/v1/matches", json={"game": GAME, "seats": [{"player": 5}]}, headers=bearer(app_key)),
                   400, "invalid-request")
    assert body["errors"][0]["key"] == "seats[0].player", body


# ---- Terminus boards --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("board", ["x" * 300, "../data", "nowhere", ""])
def test_an_unknown_terminus_board_is_422_listing_the_boards(client: TestClient, app_key: str, store: EventStore,
                                                            board: str) -> None:
    """A board that does not exist, however long or odd its name: 422 `bad-options` naming the boards there are."""
    body = {"game": "terminus", "seats": PAIR, "options": {"board": board}}
    detail = problem(client.post("/v1/matches", json=body, headers=bearer(app_key)), 422, "bad-options")["detail"]
    assert "default" in detail
    assert store.list_matches() == []


# ---- cursors: one rule, the schema's pattern -------------------------------------------------------------------


def cursor_pattern(path: str) -> str:
    """The documented `pattern` of the `cursor` query parameter of GET `path`."""
    document = json.loads(OPENAPI_PATH.read_text())
    parameter = next(p for p in document["paths"][path]["get"]["parameters"] if p["name"] == "cursor")
    return str(parameter["schema"]["pattern"])


CURSORS = {"/v1/matches": "/v1/matches", "/v1/leaderboards/{game}": f"/v1/leaderboards/{GAME}"}


@pytest.mark.parametrize("cursor", ["zzz", "no-such-match", "1|", "|x", "abc|00000000-0000-0000-0000-000000000000",
                                    "nan|ann", "inf|ann", "1.5|", " 1|a", "1e5|" + "a" * 65, "0x10|a", "1_000|a"])
@pytest.mark.parametrize("path", list(CURSORS))
@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # refused by the API before a store is asked: one will do
def test_a_malformed_cursor_is_400_invalid_cursor(client: TestClient, path: str, cursor: str) -> None:
    """Every cursor follows one rule: a value the schema's pattern refuses is 400 `invalid-cursor`."""
    assert not re.fullmatch(cursor_pattern(path), cursor)
    problem(client.get(CURSORS[path], params={"cursor": cursor}), 400, "invalid-cursor")


@pytest.mark.parametrize("path", list(CURSORS))
def test_every_schema_valid_cursor_is_accepted(store: EventStore, path: str, client: TestClient) -> None:
    """Whatever matches the documented pattern is a cursor: 200 with a page, never a refusal."""
    pattern = cursor_pattern(path)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.from_regex(pattern, fullmatch=True))
    def check(cursor: str) -> None:
        response = client.get(CURSORS[path], params={"cursor": cursor})
        assert response.status_code == 200, (cursor, response.text)

    check()


def test_matches_pages_by_a_keyset_cursor_needing_no_lookup(client: TestClient, app_key: str) -> None:
    """The matches cursor names a place in the order (created_at, id), not a match: it works for a match id
    that does not exist, and pages resume after it."""
    ids = [create(client, app_key, GAME, 2)["id"] for _ in range(3)]
    first = client.get("/v1/matches", params={"limit": 1}).json()
    assert first["items"][0]["id"] == ids[-1] and first["next_cursor"]
    micros, _, _ = first["next_cursor"].partition("|")
    ghost = f"{micros}|ffffffff-ffff-ffff-ffff-ffffffffffff"  # same instant, an id sorting after every real one
    after_ghost = client.get("/v1/matches", params={"cursor": ghost}).json()
    assert [m["id"] for m in after_ghost["items"]] == list(reversed(ids))
    rest = client.get("/v1/matches", params={"cursor": first["next_cursor"]}).json()
    assert [m["id"] for m in rest["items"]] == list(reversed(ids[:-1]))


@given(st.floats(allow_nan=False, allow_infinity=False), st.from_regex(r"[^\x00]{1,64}", fullmatch=True))
@settings(max_examples=200)
def test_every_next_cursor_is_schema_valid_and_reads_back(rank: float, player: str) -> None:
    """Whatever a leaderboard or listing gives as `next_cursor` matches its documented pattern and means its place."""
    cursor = cursors.leaderboard_cursor(rank, player)
    assert re.fullmatch(cursor_pattern("/v1/leaderboards/{game}"), cursor), cursor
    assert cursors.leaderboard_after(cursor) == (rank, player)
    created = datetime(2026, 11, 23, 9, 0, 0, 123456, tzinfo=UTC)
    record = MatchRecord(id=player, game=GAME, rules_version="1", seats=(), options={}, seed="", seed_commitment="",
                         status="active", version=1, created_at=iso(created), updated_at="", head_hash="")
    cursor = cursors.match_cursor(record)
    assert re.fullmatch(cursor_pattern("/v1/matches"), cursor), cursor
    assert cursors.match_after(cursor) == (created, player)
