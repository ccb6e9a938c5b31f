"""A served Turnstile with a finished match of every game, an active match with its seat tokens, and a match whose
player name is crafted markup: what the browser tests open."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from domain.catalog import GAMES
from service.matches import MatchService
from service.simulate import play_random_match, play_random_moves
from store.factory import open_store

ROOT = Path(__file__).resolve().parents[2]
CRAFTED = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'


@dataclass
class Site:
    """The server's base URL and what was put in its store."""

    base: str
    finished: dict[str, str] = field(default_factory=dict)  # game slug → a finished match
    active: str = ""  # an Expect Delays match in play
    tokens: list[str] = field(default_factory=list)  # its seat tokens, by seat
    crafted: str = ""  # a match one of whose players is named CRAFTED


def fill(url: str, site: Site) -> None:
    """Plays the matches the tests look at, straight through the match service."""
    store = open_store(url)
    try:
        service = MatchService(store)
        rng = random.Random(16)
        for game in GAMES:
            site.finished[game.slug] = play_random_match(service, game, ["ada", "grace"], rng)
        created = service.create("expect-delays", ["ada", "grace"], None)
        site.active, site.tokens = created.record.id, list(created.tokens)
        play_random_moves(service, site.active, rng, 6)
        crafted = service.create("mass-transit", [CRAFTED, "grace"], None)
        site.crafted = crafted.record.id
        play_random_moves(service, site.crafted, rng, 3)
    finally:
        store.close()


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(db: Path) -> Iterator[Site]:
    """`turnstile serve` over a filled SQLite file, until the generator is closed."""
    url = f"sqlite:///{db}"
    port = free_port()
    site = Site(base=f"http://127.0.0.1:{port}")
    fill(url, site)
    env = {**os.environ, "TURNSTILE_DATABASE_URL": url}
    env.pop("TURNSTILE_REDIS_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{site.base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None, server.stderr.read() if server.stderr else "the server exited"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield site
    finally:
        server.terminate()
        server.wait(10)
