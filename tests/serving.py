"""`turnstile serve` as a child process of the test's own: on a free port, its output in a file, waited for until
ready, stopped (SIGTERM) or killed by its own process id. The one way tests start a real server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.workers.processes import ROOT, free_port, wait_until


class ApiProcess:
    """One `turnstile serve --workers N` with the given settings (`TURNSTILE_*=...`). Without a
    `TURNSTILE_REDIS_URL` of the test's own, the caller's is dropped: projections fold in the server's process."""

    def __init__(self, log: Path, workers: int = 1, **env: str) -> None:
        self.port = free_port()
        self.log = log
        self.workers = workers
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
        if "TURNSTILE_REDIS_URL" not in env:
            self.env.pop("TURNSTILE_REDIS_URL", None)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its base URL."""
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> ApiProcess:
        """Start it without waiting (several can start at once, then be waited for). Its output goes to a file, not
        a pipe: a pipe nobody reads fills up with request logs and stalls the server."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--workers", str(self.workers)],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        return self

    def wait_ready(self, seconds: float = 60) -> ApiProcess:
        """Wait until /readyz says ready (failing at once, with its log, if it exited)."""
        def answering() -> bool:
            assert self.alive(), self.log.read_text()
            return self.ready()

        wait_until(answering, seconds, f"the API on port {self.port} to be ready")
        return self

    def start(self) -> ApiProcess:
        """Start it and wait until it is ready."""
        return self.launch().wait_ready()

    def ready(self) -> bool:
        """Does /readyz say ready?"""
        try:
            return httpx.get(f"{self.url}/readyz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def alive(self) -> bool:
        """Is its process running?"""
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no clean-up; requests in flight are cut off."""
        if self.process is not None and self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, and its exit status (killed if it outlives `timeout`)."""
        assert self.process is not None
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise


@contextmanager
def serving(db: Path, **env: str) -> Iterator[tuple[str, dict[str, str]]]:
    """A server over the SQLite file `db` (no Redis, other settings in `env`) until the block ends: its base URL and
    the environment it reads."""
    api = ApiProcess(db.with_suffix(".log"), **{"TURNSTILE_DATABASE_URL": f"sqlite:///{db}", **env}).start()
    try:
        yield api.url, api.env
    finally:
        if api.alive():
            api.stop(10)
