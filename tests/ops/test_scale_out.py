"""The scale-out drill: two API processes and two workers on one PostgreSQL and one Redis; 50 matches played at
random through both APIs; one API process and one worker SIGKILLed in the middle. Then: every acknowledged move is
in the log once, every record verifies, projections equal a rebuild, and both APIs serve the same leaderboard."""

from __future__ import annotations

import random
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from projections.catalog import PROJECTIONS
from service.reads.audit import Audit
from store.factory import open_store
from tests.ops.conftest import new_key
from tests.serving import ApiProcess
from tests.workers.helpers import assert_tables_equal_a_fresh_fold
from tests.workers.processes import WorkerProcess, wait_until

MATCHES = 50
KILL_AFTER = 20  # finished matches before one API process and one worker are killed
GAME = {"game": "expect-delays", "options": {"max_turns": 4}}  # a few dozen events: the drill stays short


@dataclass
class Drill:
    """The processes, and what the clients were told."""

    apis: list[ApiProcess]
    acknowledged: dict[str, list[tuple[str, int, int]]] = field(default_factory=dict)  # match -> (key, seat, ver)
    finished: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    halfway: threading.Event = field(default_factory=threading.Event)

    clients: threading.local = field(default_factory=threading.local)

    def call(self, rng: random.Random, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The request through a live API chosen at random; on another one if that one dies meanwhile."""
        if not hasattr(self.clients, "by_url"):  # keep-alive connections, one set per client thread
            self.clients.by_url = {api.url: httpx.Client(base_url=api.url, timeout=30) for api in self.apis}
        for _ in range(20):
            api = rng.choice([api for api in self.apis if api.alive()])
            try:
                return self.clients.by_url[api.url].request(method, path, **kwargs)
            except httpx.TransportError:
                continue  # killed under us: the same request (same Idempotency-Key) goes to another API
        raise AssertionError(f"{method} {path}: no API answered")

    def play(self, number: int, key: str) -> None:
        """Create a match and play it to the end with random legal moves, each with its own Idempotency-Key."""
        rng = random.Random(number)
        players = [{"player": name} for name in rng.sample(["ada", "bob", "cy", "di", "eve"], 2)]
        created = self.call(rng, "POST", "/v1/matches", json={**GAME, "seats": players},
                            headers={"Authorization": f"Bearer {key}"})
        assert created.status_code == 201, created.text
        match_id, tokens = created.json()["id"], {s["seat"]: s["token"] for s in created.json()["seats"]}
        to_move = self.call(rng, "GET", f"/v1/matches/{match_id}").json()["to_move"]
        moves, version, last_seat = [], 0, None
        while to_move:
            seat = to_move[0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            if seat != last_seat:  # else the last answer carried this seat's legal moves
                legal = self.call(rng, "GET", f"/v1/matches/{match_id}/legal-moves", headers=auth).json()
                moves, version = legal["moves"], legal["version"]
            idempotency = str(uuid.uuid4())
            answer = self.call(rng, "POST", f"/v1/matches/{match_id}/moves?include=legal",
                               headers={**auth, "Idempotency-Key": idempotency},
                               json={"move": rng.choice(moves), "expected_version": version})
            assert answer.status_code == 201, answer.text
            body = answer.json()
            with self.lock:
                self.acknowledged.setdefault(match_id, []).append((idempotency, seat, body["version"]))
            to_move = body["to_move"] if body["status"] == "active" else []
            moves, version, last_seat = body["legal"], body["version"], seat
        with self.lock:
            self.finished += 1
            if self.finished == KILL_AFTER:
                self.halfway.set()


def test_two_apis_and_two_workers_survive_losing_one_of_each(pg_clean_url: str, redis_url: str, rq_queue: str,
                                                             tmp_path: Path) -> None:
    queue = rq_queue
    env = {"TURNSTILE_DATABASE_URL": pg_clean_url, "TURNSTILE_REDIS_URL": redis_url, "TURNSTILE_QUEUE": queue}
    store = open_store(pg_clean_url)
    key = new_key(store, "drill")
    apis = [ApiProcess(tmp_path / f"api{n}.log", **env) for n in range(2)]
    workers = [WorkerProcess(pg_clean_url, redis_url, queue) for _ in range(2)]
    try:
        for api in apis:
            api.start()
        for worker in workers:
            worker.start()
        drill = Drill(apis)
        with ThreadPoolExecutor(4) as pool:
            played = [pool.submit(drill.play, number, key) for number in range(MATCHES)]
            assert drill.halfway.wait(90), "half the matches were not played in time"
            apis[0].kill()
            workers[0].kill()
            for future in played:
                future.result()
        assert drill.finished == MATCHES
        assert_every_acknowledged_move_is_in_the_log_once(store, drill.acknowledged)
        audit = Audit(store)
        for match_id in drill.acknowledged:
            verdict = audit.verify(match_id)
            assert verdict.ok and verdict.code == "verified", (match_id, verdict.message)
        head = store.head_position()
        wait_until(lambda: all(c.position >= head for c in store.checkpoints())
                   and len(store.checkpoints()) == len(PROJECTIONS), 60, "the surviving worker to fold the whole log")
        assert_tables_equal_a_fresh_fold(store)
        apis[0] = ApiProcess(tmp_path / "api0-again.log", **env).start()  # the killed one, restarted
        path = f"/v1/leaderboards/expect-delays?min_matches=1&limit=200&min_position={head}"
        boards = [httpx.get(api.url + path, timeout=10).json() for api in apis]
        assert boards[0] == boards[1] and len(boards[0]["items"]) == 5
    finally:
        for api in apis:
            api.kill()
        for worker in workers:
            worker.kill()
        store.close()


def assert_every_acknowledged_move_is_in_the_log_once(store: Any, acknowledged: dict[str, list[Any]]) -> None:
    """Each acknowledged move's command is recorded once, its events end at the version the client was told, and
    the log holds no move nobody asked for twice."""
    for match_id, moves in acknowledged.items():
        events = store.read_match(match_id)
        assert [e.version for e in events] == list(range(1, len(events) + 1))
        last_of: dict[str, int] = {}
        groups: list[str] = []
        for event in events:
            if event.command_id is not None:
                last_of[event.command_id] = event.version
                if not groups or groups[-1] != event.command_id:
                    groups.append(event.command_id)
        assert len(groups) == len(set(groups)), f"{match_id}: a command's events are split or repeated"
        for idempotency, seat, version in moves:
            assert last_of.get(f"key:{seat}:{idempotency}") == version, f"{match_id}: move {idempotency} lost"
        assert len(groups) == len(moves), f"{match_id}: the log holds moves no client was told of"
