"""`turnstile serve` in a child process: started on a free port, waited for, stopped or killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.workers.processes import ROOT, free_port


class ApiProcess:
    """One API process (`turnstile serve --workers 1`) on the given store; its output goes to `log`."""

    def __init__(self, database_url: str, log: Path, **extra_env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = {**os.environ, "TURNSTILE_DATABASE_URL": database_url, "PYTHONPATH": str(ROOT), **extra_env}
        env.pop("TURNSTILE_REDIS_URL", None)  # projections fold in-process: nothing here needs a worker
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--workers", "1"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    def ready(self) -> ApiProcess:
        """Wait until it answers (several can start at once, then be waited for): itself."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
            assert self.process.poll() is None, self.log.read_text()
        raise AssertionError(f"turnstile serve did not answer: {self.log.read_text()}")

    def terminate(self, seconds: float = 30) -> int:
        """SIGTERM, and wait for it to exit: its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(seconds)

    def kill(self) -> None:
        """SIGKILL (if still running)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
