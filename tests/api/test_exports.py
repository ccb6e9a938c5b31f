"""GET /v1/exports/matches: filters, visibility, bad input, resuming, and every line verifying (both stores)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.ratelimit import Limit, Limits, RateLimiter
from domain.lifecycle import Resign
from ledger.verify import verify_text
from service.matches.matches import MatchService
from tests.api.conftest import bearer

EXPORT = "/v1/exports/matches"


def finish(service: MatchService, game: str, players: list[str], *, owner: str | None = None,
           visibility: str = "public", rules_version: str | None = None) -> str:
    """A match created and ended at once (seat 0 resigns); its id."""
    match_id = service.create(game, players, None, owner=owner, visibility=visibility,  # type: ignore[arg-type]
                              rules_version=rules_version).record.id
    service.play(match_id, 0, Resign(), expected_version=None, command_id=None)
    return match_id


def lines(client: TestClient, headers: dict[str, str] | None = None, **params: Any) -> list[dict[str, Any]]:
    """The lines of an export, decoded."""
    answer = client.get(EXPORT, params=params, headers=headers or {})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    return [msgspec.json.decode(line) for line in answer.content.splitlines()]


def ids(found: list[dict[str, Any]]) -> list[str]:
    """The match ids of export lines, in order."""
    return [msgspec.json.decode(line["record"].split("\n", 1)[0])["match_id"] for line in found]


def test_filters_select_the_matches_they_name(client: TestClient) -> None:
    """Each filter keeps exactly the finished matches it names; unfinished matches never appear."""
    service: MatchService = client.app.state.service
    plain = finish(service, "expect-delays", ["ada", "bob"])
    old = finish(service, "expect-delays", ["cy", "bob"], rules_version="1")
    botted = finish(service, "expect-delays", ["ada", "bot:random"])
    other = finish(service, "terminus", ["cy", "dee"])
    service.create("expect-delays", ["ada", "bob"], None)  # still being played
    assert ids(lines(client)) == [plain, old, botted, other]
    assert ids(lines(client, game="expect-delays")) == [plain, old, botted]
    assert ids(lines(client, game="expect-delays", edition="1")) == [old]
    assert ids(lines(client, player="ada")) == [plain, botted]
    assert ids(lines(client, bot="true")) == [botted]
    assert ids(lines(client, bot="false")) == [plain, old, other]
    assert ids(lines(client, limit=2)) == [plain, old]
    now = datetime.now(UTC)
    assert ids(lines(client, since=(now - timedelta(hours=1)).isoformat())) == [plain, old, botted, other]
    assert ids(lines(client, until=(now - timedelta(hours=1)).isoformat())) == []
    assert ids(lines(client, since=(now + timedelta(hours=1)).isoformat())) == []


def test_every_line_verifies_and_posts_as_it_is(client: TestClient) -> None:
    """Each line's record is the match's export, byte for byte, verifies, and the line is a verification body."""
    service: MatchService = client.app.state.service
    made = [finish(service, game, ["ada", "bob"]) for game in ("expect-delays", "terminus", "touched-on")]
    found = lines(client)
    assert ids(found) == made
    for line, match_id in zip(found, made, strict=True):
        assert line["record"].encode() == client.get(f"/v1/matches/{match_id}/export").content
        verdict = verify_text(line["record"])
        assert verdict.ok and verdict.code == "verified", verdict
        posted = client.post("/v1/verifications", json=line)
        assert posted.status_code == 200 and posted.json()["code"] == "verified"


def test_an_apps_private_matches_reach_that_app_alone(client: TestClient, app_key: str, other_key: str) -> None:
    """Without a key: public matches. With an app's key: also its own, never another app's private or unlisted."""
    service: MatchService = client.app.state.service
    public = finish(service, "expect-delays", ["ada", "bob"], owner="tests")
    mine = finish(service, "expect-delays", ["ada", "bob"], owner="tests", visibility="private")
    unlisted = finish(service, "expect-delays", ["ada", "bob"], owner="tests", visibility="unlisted")
    theirs = finish(service, "expect-delays", ["ada", "bob"], owner="other-app", visibility="private")
    assert ids(lines(client)) == [public]
    assert ids(lines(client, bearer(app_key))) == [public, mine, unlisted]
    assert ids(lines(client, bearer(other_key))) == [public, theirs]
    assert ids(lines(client, bearer(other_key), player="ada")) == [public, theirs]


@pytest.mark.parametrize(("params", "status", "code"), [
    ({"after": "x1"}, 400, "invalid-cursor"),
    ({"after": "-1"}, 400, "invalid-cursor"),
    ({"limit": "0"}, 400, "invalid-request"),
    ({"bot": "maybe"}, 400, "invalid-request"),
    ({"since": "yesterday"}, 400, "invalid-request"),
    ({"until": "0.5"}, 400, "invalid-request"),
    ({"until": "2026-01-01"}, 400, "invalid-request"),
    ({"game": "chess"}, 404, "unknown-game"),
    ({"game": "expect-delays", "edition": "99"}, 422, "unknown-edition"),
    ({"since": "2026-02-01T00:00:00Z", "until": "2026-01-01T00:00:00Z"}, 422, "bad-time-range"),
])
@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # refused by the API before a store is asked: one will do
def test_bad_input_is_a_typed_problem(client: TestClient, params: dict[str, str], status: int, code: str) -> None:
    """Malformed or impossible filters answer problem+json with a stable code."""
    answer = client.get(EXPORT, params=params)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == code


def test_a_seat_token_or_unknown_key_is_no_app(client: TestClient) -> None:
    """A bearer credential that is not an app key is refused, not taken for an app's (nor silently ignored)."""
    service: MatchService = client.app.state.service
    opened = service.create("expect-delays", ["ada", "bob"], None, owner="tests", visibility="private")
    token = opened.tokens[0]
    assert client.get(EXPORT, headers=bearer(token)).json()["code"] == "unknown-app-key"
    assert client.get(EXPORT, headers=bearer("app_made_up")).status_code == 403
    assert client.get(EXPORT, headers={"Authorization": "Basic eA=="}).status_code == 401


def test_exports_have_their_own_rate_limit(store: Any) -> None:
    """Past the export bucket, exports answer 429 while the caller's other reads go on."""
    limiter = RateLimiter(Limits(export=Limit(0.001, 2)))
    with TestClient(create_app(store, limiter=limiter)) as client:
        assert [client.get(EXPORT).status_code for _ in range(3)] == [200, 200, 429]
        limited = client.get(EXPORT)
        assert limited.json()["code"] == "rate-limited" and int(limited.headers["retry-after"]) >= 1
        assert client.get("/v1/matches").status_code == 200


def test_a_client_that_drops_mid_stream_resumes_with_every_match_once(client: TestClient) -> None:
    """A client reads part of an export while other matches finish, drops, and resumes from the last whole line it
    holds, again and again: it ends with every finished match exactly once, in the order they ended."""
    service: MatchService = client.app.state.service
    client.app.state.exports.page = 2  # several queries a response, so matches finish between them
    made = [finish(service, "expect-delays", ["ada", "bob"]) for _ in range(4)]
    held: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(20):
        params = {} if cursor is None else {"after": cursor}
        with client.stream("GET", EXPORT, params=params) as answer:
            assert answer.status_code == 200
            for number, raw in enumerate(answer.iter_lines()):
                held.append(msgspec.json.decode(raw))
                made.append(finish(service, "terminus", ["cy", "dee"]))  # finishes while the export streams
                if number == 2:
                    break  # the client drops here, holding three whole lines
        if not held or held[-1]["cursor"] == cursor:
            break
        cursor = held[-1]["cursor"]
        if len(made) > 14:
            break
    rest = lines(client, after=cursor) if cursor else []
    got = ids(held) + ids(rest)
    assert got == made and len(set(got)) == len(got)
    cursors = [int(line["cursor"]) for line in held + rest]
    assert cursors == sorted(cursors)


def test_a_match_ending_behind_a_running_transaction_waits_for_it(client: TestClient, store: Any) -> None:
    """PostgreSQL: while an older transaction is still running (it may be ending a match of its own), a match that
    finished after it began is not exported yet, so no cursor can pass over the older one when it commits."""
    if type(store).__name__ != "PostgresStore":
        pytest.skip("SQLite has one writer at a time: position order is commit order")
    import psycopg

    service: MatchService = client.app.state.service
    first = finish(service, "expect-delays", ["ada", "bob"])
    with psycopg.connect(store._conninfo) as older:
        older.execute("SELECT pg_current_xact_id()")  # holds a transaction id, as an append in flight does
        later = finish(service, "expect-delays", ["cy", "dee"])
        assert ids(lines(client)) == [first]
    assert ids(lines(client)) == [first, later]


def test_turnstile_verify_checks_every_line_of_an_export(client: TestClient, tmp_path: Any,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """An export saved as is verifies line by line with `turnstile verify`; a line altered in transit fails."""
    from cli import main

    service: MatchService = client.app.state.service
    for game in ("expect-delays", "terminus", "touched-on"):
        finish(service, game, ["ada", "bob"])
    saved = tmp_path / "export.ndjson"
    saved.write_bytes(client.get(EXPORT).content)
    assert main(["verify", str(saved)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and all(line.startswith("OK") for line in out)
    rows = saved.read_text().splitlines()
    year = datetime.now(UTC).year
    rows[1] = rows[1].replace(f'\\"recorded_at\\":\\"{year}', f'\\"recorded_at\\":\\"{year - 1}', 1)
    assert rows[1] != saved.read_text().splitlines()[1]
    saved.write_text("\n".join(rows) + "\n")
    assert main(["verify", str(saved)]) == 1
    assert [line.startswith("OK") for line in capsys.readouterr().out.splitlines()] == [True, False, True]
