"""`turnstile serve` as a subprocess on a free port over a SQLite file, for tests that need a real server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(db: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """The server over `db` (no Redis: projections fold in-process) until the block ends: its base URL and the
    environment it reads."""
    port = free_port()
    env = {**os.environ, "TURNSTILE_DATABASE_URL": f"sqlite:///{db}"}
    env.pop("TURNSTILE_REDIS_URL", None)
    # Its output goes to a file, not a pipe: a pipe nobody reads fills up with request logs and stalls the server.
    log = db.with_suffix(".log").open("w+")
    server = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None, db.with_suffix(".log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield base, env
    finally:
        server.terminate()
        server.wait(10)
        log.close()
