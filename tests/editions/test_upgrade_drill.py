"""The upgrade drill: matches started by a past release (c78fb15, rules edition 1 of every game) on its own SQLite file
and on a PostgreSQL database made by its own migrations, continued and finished by today's code, then verified.

The stores are in tests/corpus/editions/drill/ (written by that release's own server: README there). Today's code
migrates them forward, keeps each match at the edition it started under (the Terminus match of issue 26 goes on with
no Automa in 2 seats and Capacity Markers from 0), plays every match to its end over HTTP with the seat tokens the
old release issued, and every record then verifies, re-decided under edition 1.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.reads.audit import Audit
from store.factory import open_store
from store.read_models import Store
from tests.api.http_play import play_moves, play_to_end

DRILL = Path(__file__).resolve().parents[1] / "corpus" / "editions" / "drill"


def drill_sqlite(tmp_path: Path) -> Iterator[tuple[Store, dict[str, Any]]]:
    copy = tmp_path / "c78fb15.sqlite"
    shutil.copy(DRILL / "c78fb15.sqlite", copy)
    store = open_store(f"sqlite:///{copy}")
    try:
        yield store, json.loads((DRILL / "c78fb15.json").read_text())
    finally:
        store.close()


def drill_postgres(pg_url: str) -> Iterator[tuple[Store, dict[str, Any]]]:
    import psycopg

    from tests.conftest import _with_url

    server = os.environ["TURNSTILE_DATABASE_URL"]
    name = f"turnstile_drill_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_url(server, path=f"/{name}")
    try:
        with psycopg.connect(url, autocommit=True) as conn:  # the old release's schema and rows, as it left them
            conn.execute((DRILL / "c78fb15.pg.sql").read_text())  # type: ignore[arg-type]
        store = open_store(url)
        try:
            yield store, json.loads((DRILL / "c78fb15.pg.json").read_text())
        finally:
            store.close()
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def all_events(client: TestClient, match_id: str) -> list[dict[str, Any]]:
    """Every event of a match, page by page, as a spectator sees it."""
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/v1/matches/{match_id}/events?after={after}&limit=200").json()
        events += [item["event"] for item in page["items"]]
        after = page["next_after"]
    return events


@pytest.fixture(params=["sqlite", "postgres"])
def drill(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, dict[str, Any]]]:
    """An old release's store, opened (and migrated) by today's code, with what that release handed out."""
    if request.param == "sqlite":
        yield from drill_sqlite(tmp_path)
    else:
        yield from drill_postgres(request.getfixturevalue("pg_url"))


# Expect Delays' match is 340-odd random moves from its end, and every request re-reads its whole log: on PostgreSQL
# (timestamptz and jsonb rows turned back into events, a commit flushed per move) finishing it took 45 of the drill's
# 60 s. Its rules are the same over either store, so SQLite plays it to the end; PostgreSQL, where the point is that
# its migrated rows take the old release's tokens and moves, goes on for this many moves and verifies so far.
LONG_ON_POSTGRES = {"expect-delays": 30}


def test_matches_an_old_release_started_finish_under_their_own_edition_and_verify(
        drill: tuple[Store, dict[str, Any]], request: pytest.FixtureRequest) -> None:
    store, handed_out = drill
    cut = LONG_ON_POSTGRES if request.node.callspec.params["drill"] == "postgres" else {}
    audit = Audit(store)
    assert [audit.verify(m["id"]).code for m in handed_out["matches"]] == ["verified-so-far"] * 5
    with TestClient(create_app(store)) as client:
        for started in handed_out["matches"]:
            shown = client.get(f"/v1/matches/{started['id']}").json()
            assert (shown["version"], shown["status"], shown["rules_version"]) == (started["version"], "active", "1")
            if started["game"] in cut:
                assert play_moves(client, started, random.Random(started["id"]), cut[started["game"]]) == cut[
                    started["game"]]
                continue
            play_to_end(client, started, random.Random(started["id"]))
            record = client.get(f"/v1/matches/{started['id']}/export").text
            verdict = client.post("/v1/verifications", json={"record": record}).json()
            assert (verdict["ok"], verdict["code"]) == (True, "verified"), (started["game"], verdict["message"])
            assert json.loads(record.splitlines()[0])["rules_version"] == "1"
    expected = ["verified-so-far" if m["game"] in cut else "verified" for m in handed_out["matches"]]
    assert [audit.verify(m["id"]).code for m in handed_out["matches"]] == expected


@pytest.mark.parametrize("drill", ["sqlite"], indirect=True)  # edition 1's rules, the same over either store
def test_the_terminus_match_of_the_issue_goes_on_under_rules_1(drill: tuple[Store, dict[str, Any]]) -> None:
    """Started by c78fb15 (2 seats, no Automa, Capacity from 0), six moves played: after the upgrade its next move
    is decided by edition 1, and the match stays without the Automa to its end."""
    store, handed_out = drill
    started = next(m for m in handed_out["matches"] if m["game"] == "terminus")
    with TestClient(create_app(store)) as client:
        play_to_end(client, started, random.Random(26))
        events = all_events(client, started["id"])
    setup = next(e for e in events if e["type"] == "terminus.set-up")
    assert setup.get("capacity_start", 0) == 0
    assert not any(e["type"].startswith("terminus.automa") for e in events)
    assert not any(e["type"] == "terminus.bonus-collected" and e.get("partial") for e in events)
    assert events[0]["rules_version"] == "1" and events[-1]["type"] == "match.ended"
