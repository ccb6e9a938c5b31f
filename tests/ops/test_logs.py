"""One JSON line per request: method, route template, status, duration, app, match id, request id; no secrets."""

from __future__ import annotations

import io
import json
import logging
import random
from typing import Any

from litestar.testing import TestClient

from service.ops.logs import HumanFormatter, JsonFormatter, formatter_for, request_id
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves
from tests.ops.conftest import new_key


def lines(out: io.StringIO, logger: str = "turnstile.http") -> list[dict[str, Any]]:
    """The JSON lines of one logger."""
    parsed = [json.loads(line) for line in out.getvalue().splitlines()]
    return [line for line in parsed if line["logger"] == logger]


def test_a_move_is_one_line_with_its_route_template_app_match_and_request_id(
        client: TestClient, sqlite_store: Any, log_lines: io.StringIO) -> None:
    key = new_key(sqlite_store, "tram-app")
    created = create(client, key, "expect-delays", 2)
    play_moves(client, created, random.Random(1), 1)
    (move,) = [line for line in lines(log_lines) if line["method"] == "POST" and "moves" in line["route"]]
    assert move["route"] == "/v1/matches/{match_id}/moves"
    assert move["status"] == 201 and move["app"] == "tram-app" and move["match_id"] == created["id"]
    assert move["duration_ms"] > 0 and len(move["request_id"]) == 16
    (made,) = [line for line in lines(log_lines) if line["method"] == "POST" and line["route"] == "/v1/matches"]
    assert made["app"] == "tram-app" and made["status"] == 201


def test_no_token_or_key_ever_reaches_the_log(client: TestClient, sqlite_store: Any, log_lines: io.StringIO) -> None:
    """Requests with an app key, seat tokens, a bad token and a refused move: grep every line for the secrets."""
    key = new_key(sqlite_store, "bus-app")
    created = create(client, key, "expect-delays", 2)
    tokens = [seat["token"] for seat in created["seats"]]
    play_moves(client, created, random.Random(2), 3)
    client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(tokens[1]), json={"move": {"type": "x"}})
    client.get(f"/v1/matches/{created['id']}", headers=bearer("seat_not-a-real-token-xyz"))
    client.get("/v1/matches?mine=true", headers=bearer(key))
    text = log_lines.getvalue()
    assert text.count('"logger":"turnstile.http"') >= 10
    for secret in (key, *tokens, "seat_not-a-real-token-xyz"):
        assert secret not in text
        assert secret.split("_", 1)[1][:12] not in text


def test_a_callers_request_id_is_kept_when_safe_and_replaced_when_not(client: TestClient,
                                                                       log_lines: io.StringIO) -> None:
    kept = client.get("/v1/games", headers={"X-Request-ID": "lb-7f3a.01:x"})
    assert kept.headers["x-request-id"] == "lb-7f3a.01:x"
    for bad in ("has space", "x" * 65, "semi;colon", "<script>"):
        answer = client.get("/v1/games", headers={"X-Request-ID": bad})
        assert answer.headers["x-request-id"] != bad and len(answer.headers["x-request-id"]) == 16
    unknown = client.get("/no/such/route")
    assert unknown.status_code == 404 and unknown.headers["x-request-id"]
    logged = lines(log_lines)
    assert logged[0]["request_id"] == "lb-7f3a.01:x"
    assert logged[-1]["route"] == "unmatched" and logged[-1]["status"] == 404
    assert all("<script>" not in json.dumps(line) for line in logged)


def test_request_ids_are_validated() -> None:
    assert request_id("abc-123") == "abc-123"
    assert request_id(None) != request_id(None)
    assert request_id("a\nb") != "a\nb"


def test_lines_are_json_for_machines_and_readable_on_a_terminal() -> None:
    record = logging.LogRecord("turnstile.http", logging.INFO, __file__, 1, "GET %s %d", ("/x", 200), None)
    record.fields = {"route": "/x", "status": 200, "app": None}
    assert json.loads(JsonFormatter().format(record))["route"] == "/x"
    human = HumanFormatter().format(record)
    assert "GET /x 200" in human and "route=/x" in human and "app=" not in human

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert isinstance(formatter_for(Terminal()), HumanFormatter)
    assert isinstance(formatter_for(io.StringIO()), JsonFormatter)
