"""Fuzzing the HTTP surface with raw bytes: whatever arrives, the answer is never a 5xx, and every error is a
problem+json with a `code` (over both stores: PostgreSQL refuses more than SQLite, e.g. NUL in text)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote_from_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from domain.catalog import GAMES
from tests.api.conftest import bearer
from tests.api.http_play import create

EXAMPLES = 80  # per test and store: the four tests take well under 10 s on both stores together
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@dataclass(frozen=True)
class Target:
    """An app over one store, with an app key and a live match whose seat tokens the fuzzer may use."""

    client: TestClient
    app_key: str
    match_id: str
    tokens: tuple[str, ...]


@pytest.fixture
def target(client: TestClient, app_key: str) -> Iterator[Target]:
    """The app of the `client` fixture (one per store) with one live match."""
    created = create(client, app_key, "expect-delays", 2)
    yield Target(client, app_key, created["id"], tuple(s["token"] for s in created["seats"]))


# ---- what the fuzzer sends ------------------------------------------------------------------------------------

NASTY_TEXT = st.text(alphabet=st.sampled_from(["\x00", "\ud7ff", "é", "\u2028", "\\", '"', "|", "/", "%", "?", "#",
                                               "a", "0", "-", ".", " ", "\uffff", "\U0001f600"]), max_size=12)
HUGE_NUMBERS = st.sampled_from(["1e400", "-1e400", "1" * 40, "-" + "9" * 40, "1e-400", "0.1e999999", "-0", "1.0"])
# Known troublemakers are drawn as often as random bytes, so a modest number of examples meets each of them.
SEGMENT_BYTES = (st.sampled_from([b"a\x00b", b"\x00", b"\xff\xfe", b"\xed\xa0\x80", b"%00", b"..", b"x" * 300])
                 | st.binary(max_size=16) | NASTY_TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")))


def json_text(value: Any) -> str:
    """JSON text of `value`, NUL and all (json.dumps escapes it as \\u0000)."""
    return json.dumps(value, ensure_ascii=False)


SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63)
           | st.floats(allow_nan=False, allow_infinity=False) | NASTY_TEXT)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NASTY_TEXT, inner, max_size=3), max_leaves=12
)
VERSIONS = HUGE_NUMBERS | st.sampled_from(["5", '"5"', "true", "null", "-1", "2147483648"])


@st.composite
def deep(draw: st.DrawFn) -> str:
    """JSON nested from a few to a few thousand levels, arrays and objects mixed, maybe unclosed."""
    depth = draw(st.sampled_from([3, 63, 64, 65, 900, 2_000, 5_000]))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}"), ('[{"b":', "}]")]))
    closed = draw(st.booleans())
    return opener * depth + "1" + (closer * depth if closed else "")


@st.composite
def body_text(draw: st.DrawFn) -> str:
    """Almost-right bodies for each JSON operation, with fields swapped for nasty values."""
    value = draw(VALUES | deep() | HUGE_NUMBERS)
    shape = draw(st.sampled_from(["create", "move", "verify", "bare"]))
    text = value if isinstance(value, str) and value[:1] in "[{-0123456789" else json_text(value)
    if shape == "create":
        game = draw(st.sampled_from([g.slug for g in GAMES]) | NASTY_TEXT)
        field = draw(st.sampled_from(["options", "seed", "seats", "game"]))
        base = {"game": json_text(game), "seats": '[{"player":"ann"},{"player":"bob"}]'} | {field: text}
        return "{" + ",".join(f'"{k}":{v}' for k, v in base.items()) + "}"
    if shape == "move":
        return f'{{"move":{text},"expected_version":{draw(VERSIONS)}}}'
    if shape == "verify":
        record = draw(st.sampled_from(['{"record":"turnstile.match-record/1"}\n', ""])) + text
        return json_text({"record": record})
    return text


@st.composite
def raw_body(draw: st.DrawFn) -> bytes:
    """A body: JSON-ish text, maybe with invalid UTF-8 spliced in, or arbitrary bytes."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.binary(max_size=64))
    data = draw(body_text()).encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\\u0000"])) + data[at:]
    return data


CONTENT_TYPES = st.sampled_from([None, "application/json", "application/json; charset=utf-8", "text/plain",
                                 "application/problem+json", "application/json; charset=latin-1", "multipart/form-data",
                                 "application/x-www-form-urlencoded", "*/*", "", ";;", "application/json;charset"])
QUERY_NAMES = st.sampled_from(["game", "player", "status", "cursor", "limit", "after", "version", "min_matches",
                               "min_position", "x"])
HEADER_BYTES = (st.sampled_from([b"a\x00b", b"\x00"])
                | st.sampled_from([b"\xff", b"\xc3\xa9", b"W/\"1\"", b"\"99999999999\"", b"Bearer ", b"x" * 300])
                | st.binary(max_size=24).filter(lambda b: b"\r" not in b and b"\n" not in b))


def segment(data: bytes) -> str:
    """A path segment carrying these bytes, percent-encoded."""
    return quote_from_bytes(data, safe="")


@st.composite
def path(draw: st.DrawFn, target: Target) -> str:
    """A path of the API with one segment the fuzzer's, or the live match's id."""
    fuzzed = segment(draw(SEGMENT_BYTES))
    live = draw(st.booleans())
    match_id = target.match_id if live else fuzzed
    return draw(st.sampled_from([
        f"/v1/matches/{match_id}", f"/v1/matches/{match_id}/legal-moves", f"/v1/matches/{match_id}/events",
        f"/v1/matches/{match_id}/state", f"/v1/matches/{match_id}/export", f"/v1/games/{fuzzed}",
        f"/v1/games/{fuzzed}/stats", f"/v1/leaderboards/{fuzzed}", f"/v1/players/{fuzzed}",
        f"/v1/players/{fuzzed}/stats", "/v1/matches", "/v1/games", "/v1/projections", f"/{fuzzed}",
    ]))


@st.composite
def query(draw: st.DrawFn) -> str:
    """A raw query string: known and unknown names with any bytes, or huge and negative numbers."""
    pairs = draw(st.lists(st.tuples(QUERY_NAMES, SEGMENT_BYTES | HUGE_NUMBERS.map(str.encode)), max_size=4))
    return "&".join(f"{name}={segment(value)}" for name, value in pairs)


def auth(draw: st.DrawFn, target: Target) -> dict[str, Any]:
    """No credentials, the app key, a seat token, or garbage."""
    choice = draw(st.sampled_from(["none", "app", "seat", "garbage"]))
    if choice == "none":
        return {}
    if choice == "garbage":
        return {"Authorization": b"Bearer " + draw(HEADER_BYTES)}
    return bearer(target.app_key if choice == "app" else draw(st.sampled_from(target.tokens)))


# ---- what must hold ------------------------------------------------------------------------------------------


def assert_clear(response: Any) -> None:
    """Never a 5xx; an error is problem+json with a string `code`."""
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json"), response.text
        body = response.json()
        assert isinstance(body.get("code"), str) and body["status"] == response.status_code, body


@given(data=st.data())
@FUZZ
def test_any_body_on_any_json_operation(target: Target, data: st.DataObject) -> None:
    """Raw bodies (deep, huge, NUL, bad UTF-8, wrong media type) to create, move and verify."""
    url = data.draw(st.sampled_from(["/v1/matches", f"/v1/matches/{target.match_id}/moves", "/v1/verifications"]))
    headers: dict[str, Any] = auth(data.draw, target)
    content_type = data.draw(CONTENT_TYPES)
    if content_type is not None:
        headers["Content-Type"] = content_type
    assert_clear(target.client.post(url, content=data.draw(raw_body()), headers=headers))


@given(data=st.data())
@FUZZ
def test_any_path_and_query(target: Target, data: st.DataObject) -> None:
    """Any bytes in a path segment or the query string of every GET."""
    url = data.draw(path(target))
    raw_query = data.draw(query())
    assert_clear(target.client.get(f"{url}?{raw_query}" if raw_query else url, headers=auth(data.draw, target)))


@given(data=st.data())
@FUZZ
def test_any_header_values(target: Target, data: st.DataObject) -> None:
    """Any bytes in one header the API reads (Idempotency-Key, If-Match, Content-Type, credentials) or another."""
    method, url = data.draw(st.sampled_from([("GET", f"/v1/matches/{target.match_id}"), ("GET", "/v1/matches"),
                                             ("POST", f"/v1/matches/{target.match_id}/moves")] * 2))
    body = b'{"move":{"type":"match.resign"}}' if method == "POST" else None  # a move a seat may always send
    headers = bearer(data.draw(st.sampled_from(target.tokens))) if method == "POST" else auth(data.draw, target)
    name = data.draw(st.sampled_from(["Idempotency-Key", "Idempotency-Key", "If-Match", "Content-Type",
                                      "Authorization", "X-Anything"]))
    headers[name] = data.draw(HEADER_BYTES)
    assert_clear(target.client.request(method, url, headers=headers, content=body))


@given(data=st.data())
@FUZZ
def test_any_method_on_any_path(target: Target, data: st.DataObject) -> None:
    """Unknown methods and routes are problems too (405, 404)."""
    method = data.draw(st.sampled_from(["PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "POST", "GET"]))
    url = data.draw(path(target))
    response = target.client.request(method, url, headers=auth(data.draw, target), content=data.draw(raw_body()))
    if method == "HEAD":  # no body to check
        assert response.status_code < 500
    else:
        assert_clear(response)
