"""A real HTTP server for the live tests: streams need one (an in-memory test client buffers whole responses).

`server` (module): uvicorn serving the app over a SQLite file in a thread of this process, with 2 streams per
caller, so the tests can also turn its timers down (monkeypatching api.routes.live).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from api.app import create_app
from service.matches.matches import MatchService
from service.matches.simulate import play_random_moves
from service.matches.tokens import new_secret, secret_hash
from service.reads.live import Tails
from store.factory import open_store
from tests.workers.processes import free_port

STREAMS_PER_CALLER = 2


@dataclass
class Server:
    """A served app: its base URL, its store, and an app key of each of two apps."""

    url: str
    service: MatchService
    app_key: str
    other_app_key: str
    http: httpx.Client
    tails: Tails

    def create(self, key: str | None = None, max_turns: int = 10, seed: str | None = None) -> dict[str, Any]:
        """A new two-seat Expect Delays match of the app (`key`, default the first app): the POST's answer."""
        body: dict[str, Any] = {"game": "expect-delays", "seats": [{"player": "ann"}, {"player": "bob"}],
                                "options": {"max_turns": max_turns}}
        if seed:
            body["seed"] = seed
        answer = self.http.post(f"{self.url}/v1/matches", json=body,
                            headers={"Authorization": f"Bearer {key or self.app_key}"})
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    def move(self, match_id: str, rng: random.Random) -> int | None:
        """One random legal move, played in the server's process (as another client's POST would be): the new
        version, or None when the match has ended."""
        return self.version(match_id) if play_random_moves(self.service, match_id, rng, 1) else None

    def finish(self, match_id: str, rng: random.Random) -> int:
        """Random legal moves until the match ends: its final version."""
        play_random_moves(self.service, match_id, rng, 10_000)
        return self.version(match_id)

    def version(self, match_id: str) -> int:
        """The match's version now."""
        return self.service.load(match_id).record.version


def serve_in_thread(app: Any) -> tuple[uvicorn.Server, threading.Thread, str]:
    """Start uvicorn on a free port in a thread; returns it, its thread and its URL once it accepts requests."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "uvicorn did not start"
    return server, thread, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app over a SQLite file, served over real HTTP for the whole module."""
    path: Path = tmp_path_factory.mktemp("live") / "live.db"
    store = open_store(f"sqlite:///{path}")
    keys = []
    for name in ("app-one", "app-two"):
        key = new_secret("app")
        store.create_app_key(name, secret_hash(key))
        keys.append(key)
    app = create_app(store, streams_per_caller=STREAMS_PER_CALLER)
    uvicorn_server, thread, url = serve_in_thread(app)
    try:
        with httpx.Client(base_url=url) as http:
            yield Server(url, app.state.service, keys[0], keys[1], http, app.state.tails)
    finally:
        uvicorn_server.should_exit = True
        thread.join(15)
        store.close()
