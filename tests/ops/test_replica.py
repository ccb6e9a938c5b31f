"""TURNSTILE_READ_DATABASE_URL: read-only endpoints read the replica, everything else the primary; a replica that is
behind, down or hung is read around. The replica is a second schema copied from the primary on demand
(tests/ops/replica_copy.py), reached through a proxy that can fail."""

from __future__ import annotations

import random
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import psycopg
import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.asgi import open_replica
from service.ops import metrics
from service.reads.runner import catch_up
from settings import Settings
from store.base import StoreUnavailable
from store.postgres import PostgresStore
from store.replica import ReplicaReads
from tests.api.conftest import bearer
from tests.api.http_play import create, play_moves, play_to_end
from tests.ops.conftest import new_key
from tests.ops.replica_copy import Proxy, sync
from tests.ops.test_metrics import samples, value

GAME = "expect-delays"
SHORT = {"max_turns": 12}


def in_schema(url: str, schema: str, port: int | None = None) -> str:
    """`url` with search_path `schema` (and another port)."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query)) | {"options": f"-c search_path={schema}"}
    netloc = parts.netloc if port is None else f"{parts.netloc.rsplit('@', 1)[0]}@127.0.0.1:{port}"
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, quote_via=quote)))


@dataclass
class Rig:
    admin_url: str
    primary_schema: str
    replica_schema: str
    primary: PostgresStore
    proxy: Proxy
    reads: ReplicaReads
    client: TestClient
    key: str

    def sync(self) -> None:
        """The replica catches up with the primary as it is now."""
        sync(self.admin_url, self.primary_schema, self.replica_schema)

    def finished_match(self, rng: random.Random) -> dict[str, Any]:
        """A short match played to its end and folded on the primary (the replica is not synced)."""
        created = create(self.client, self.key, GAME, 2, SHORT)
        play_to_end(self.client, created, rng)
        catch_up(self.primary)
        return created


@pytest.fixture(scope="module")
def rig(pg_url: str) -> Iterator[Rig]:
    """A primary schema, a replica schema behind a proxy, and an app reading the replica (short timeouts)."""
    tag = secrets.token_hex(4)
    primary_schema, replica_schema = f"rp_{tag}", f"rr_{tag}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for schema in (primary_schema, replica_schema):
            conn.execute(f'CREATE SCHEMA "{schema}"')
    primary = PostgresStore(in_schema(pg_url, primary_schema))
    PostgresStore(in_schema(pg_url, replica_schema)).close()  # the same schema, as replication would bring it
    proxy = Proxy()
    replica = PostgresStore.read_replica(in_schema(pg_url, replica_schema, proxy.port), timeout_s=0.5)
    reads = ReplicaReads(primary, replica, timeout_s=0.5, cool_down_s=0.2,
                         on_fallback=lambda reason: metrics.REPLICA_FALLBACKS.labels(reason).inc())
    with TestClient(create_app(primary, replica=reads, replica_wait_s=1.0)) as client:
        yield Rig(pg_url, primary_schema, replica_schema, primary, proxy, reads, client, new_key(primary, "rep"))
    proxy.up()
    reads.close()
    primary.close()


@pytest.fixture
def healthy(rig: Rig) -> Rig:
    """The rig with its replica answering and in sync."""
    rig.proxy.up()
    rig.sync()
    _wait_until(lambda: rig.reads.up and rig.client.get("/readyz").json()["replica"] == "ok")
    return rig


def _wait_until(check: Any) -> None:
    """Poll `check` until it holds (each probe is a real request; bounded so a failure is a failure)."""
    event = threading.Event()
    for _ in range(100):
        if check():
            return
        event.wait(0.05)
    raise AssertionError("never held")


def fallbacks(rig: Rig, reason: str) -> float:
    return value(samples(rig.client), "turnstile_replica_fallbacks_total", reason=reason)


def test_reads_go_to_the_replica_and_details_to_the_primary(healthy: Rig) -> None:
    rig = healthy
    rng = random.Random(18)
    first = rig.finished_match(rng)
    rig.sync()
    board = rig.client.get(f"/v1/leaderboards/{GAME}").json()
    second = rig.finished_match(rng)  # on the primary only
    # Stats, lists and logs answer from the replica: the second match is not there.
    assert rig.client.get(f"/v1/leaderboards/{GAME}").json() == board
    assert rig.client.get(f"/v1/games/{GAME}/stats").json()["finished"] == 1
    listed = [m["id"] for m in rig.client.get("/v1/matches").json()["items"]]
    assert first["id"] in listed and second["id"] not in listed
    # ... something only the replica has is served too (the primary never had this player).
    with psycopg.connect(rig.admin_url, autocommit=True) as conn:
        conn.execute(f'UPDATE "{rig.replica_schema}".projection_docs SET doc = jsonb_set(doc, \'{{player}}\', '
                     "'\"only-on-replica\"') WHERE kind = 'rating' AND doc->>'player' = 'player-0'")
    assert "only-on-replica" in [e["player"] for e in rig.client.get(f"/v1/leaderboards/{GAME}").json()["items"]]
    # The match detail comes from the primary; its log and record fill in what the replica lacks.
    detail = rig.client.get(f"/v1/matches/{second['id']}").json()
    assert detail["status"] == "finished"
    events = rig.client.get(f"/v1/matches/{second['id']}/events", params={"limit": 500}).json()["items"]
    assert [e["version"] for e in events] == list(range(1, detail["version"] + 1))
    assert rig.client.get(f"/v1/matches/{second['id']}/export").status_code == 200
    rig.sync()
    assert rig.client.get(f"/v1/games/{GAME}/stats").json()["finished"] == 2


def test_min_position_beyond_the_replica_reads_the_primary(healthy: Rig) -> None:
    rig = healthy
    rig.finished_match(random.Random(1))
    head = rig.primary.head_position()
    before = fallbacks(rig, "min-position")
    board = rig.client.get(f"/v1/leaderboards/{GAME}", params={"min_position": head})
    assert board.status_code == 200 and board.json()["position"] >= head
    stats = rig.client.get(f"/v1/games/{GAME}/stats", params={"min_position": head}).json()
    assert stats["position"] >= head
    assert stats["finished"] == rig.client.get(f"/v1/games/{GAME}/stats").json()["finished"] + 1  # not the replica's
    assert fallbacks(rig, "min-position") == before + 2


def test_min_position_waits_for_a_replica_that_catches_up(healthy: Rig) -> None:
    rig = healthy
    rig.finished_match(random.Random(2))
    head = rig.primary.head_position()
    before = fallbacks(rig, "min-position")
    timer = threading.Timer(0.2, rig.sync)  # the replica gets there within the wait
    timer.start()
    board = rig.client.get(f"/v1/leaderboards/{GAME}", params={"min_position": head})
    timer.join()
    assert board.status_code == 200 and board.json()["position"] >= head
    assert fallbacks(rig, "min-position") == before


def test_moves_and_match_creation_never_touch_the_replica(healthy: Rig) -> None:
    rig = healthy
    sent = rig.proxy.sent
    created = create(rig.client, rig.key, GAME, 2, SHORT)
    assert play_moves(rig.client, created, random.Random(4), 5) == 5
    assert rig.client.get(f"/v1/matches/{created['id']}", headers=bearer(created["seats"][0]["token"])).status_code \
        == 200
    assert rig.proxy.sent == sent
    # And a write sent to the replica's store by mistake is refused by its read-only sessions.
    with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
        rig.reads.replica.create_app_key("nope", "0" * 64)  # type: ignore[attr-defined]


def test_lag_shows_in_readiness_and_metrics(healthy: Rig) -> None:
    rig = healthy
    ready = rig.client.get("/readyz").json()
    assert ready["replica"] == "ok" and ready["replica_lag"] == 0
    created = create(rig.client, rig.key, GAME, 2, SHORT)
    play_moves(rig.client, created, random.Random(5), 3)
    behind = rig.primary.head_position() - rig.reads.replica.head_position()
    assert behind > 0
    assert rig.client.get("/readyz").json()["replica_lag"] == behind
    scraped = samples(rig.client)
    assert value(scraped, "turnstile_replica_up") == 1
    assert value(scraped, "turnstile_replica_lag_positions") == behind


def test_a_match_the_replica_has_in_part_reads_whole(healthy: Rig) -> None:
    """A replica holding a match up to an older version: the log and a state at a newer version still answer."""
    rig = healthy
    created = create(rig.client, rig.key, GAME, 2, SHORT)
    play_moves(rig.client, created, random.Random(7), 2)
    rig.sync()
    play_moves(rig.client, created, random.Random(8), 2)
    latest = rig.client.get(f"/v1/matches/{created['id']}").json()["version"]
    assert rig.reads.replica.get_match(created["id"]).version < latest  # type: ignore[union-attr]
    events = rig.client.get(f"/v1/matches/{created['id']}/events", params={"limit": 500}).json()["items"]
    assert [e["version"] for e in events] == list(range(1, latest + 1))
    state = rig.client.get(f"/v1/matches/{created['id']}/state", params={"version": latest})
    assert state.status_code == 200 and state.json()["version"] == latest


@pytest.mark.parametrize("fault", ["down", "hung"])
def test_a_replica_down_or_hung_is_read_around(healthy: Rig, fault: str) -> None:
    rig = healthy
    rig.finished_match(random.Random(6))  # the primary has a match the replica has not
    finished = rig.primary.head_position()
    expected_finished = rig.client.get(f"/v1/games/{GAME}/stats", params={"min_position": finished}).json()["finished"]
    # A refused connection is "failed", or "hung" when the pool's wait for one outlasts the call's timeout.
    before = fallbacks(rig, "failed") + fallbacks(rig, "hung")
    getattr(rig.proxy, "down" if fault == "down" else "hang")()
    try:
        stats = rig.client.get(f"/v1/games/{GAME}/stats")
        assert stats.status_code == 200 and stats.json()["finished"] == expected_finished  # the primary's
        assert rig.client.get("/v1/matches").status_code == 200
        ready = rig.client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["replica"] == "unreachable"
        assert ready.json().get("replica_lag") is None
        scraped = samples(rig.client)
        assert value(scraped, "turnstile_replica_up") == 0
        assert sum(value(scraped, "turnstile_replica_fallbacks_total", reason=r) for r in ("failed", "hung")) \
            >= before + 1
    finally:
        rig.proxy.up()
    _wait_until(lambda: rig.client.get("/readyz").json()["replica"] == "ok")


def test_the_setting_opens_only_a_postgresql_replica(pg_url: str, tmp_path: Any) -> None:
    settings = Settings.from_env({"TURNSTILE_READ_DATABASE_URL": f"sqlite:///{tmp_path / 'r.db'}"})
    with pytest.raises(StoreUnavailable):
        open_replica(settings, None)  # type: ignore[arg-type]
    assert open_replica(Settings.from_env({}), None) is None  # type: ignore[arg-type]
    opened = open_replica(Settings.from_env({"TURNSTILE_READ_DATABASE_URL": pg_url}), None)  # type: ignore[arg-type]
    assert opened is not None
    opened.close()
