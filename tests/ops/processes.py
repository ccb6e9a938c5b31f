"""`turnstile serve` in a child process of the test's own, on a free port, stopped or killed by its process id."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from tests.workers.processes import ROOT, free_port, wait_until


class ApiProcess:
    """One `turnstile serve` (its own process tree), its output kept in a file."""

    def __init__(self, log: Path, workers: int = 1, **env: str) -> None:
        self.port = free_port()
        self.log = log
        self.workers = workers
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ApiProcess:
        """Start it and wait until it is ready."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--workers", str(self.workers)],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        wait_until(self.ready, 60, f"the API on port {self.port} to be ready")
        return self

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
        """SIGTERM, and its exit status."""
        assert self.process is not None
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
