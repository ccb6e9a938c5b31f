"""What the worker tests start and stop themselves: a private redis-server, a hung socket, `turnstile worker`."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll `condition` until true, or fail saying `what` did not happen."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


class RedisServer:
    """A redis-server of the test's own, on a free port, stopped only by its own process id."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            if os.environ.get("TURNSTILE_REQUIRE_SERVICES") == "1":
                pytest.fail("redis-server is not installed, and this test must stop its own Redis")
            pytest.skip("redis-server is not installed: the Redis outage test needs its own server")
        self.binary, self.workdir, self.port = binary, workdir, free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its URL."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it (again, on the same port) and wait until it answers."""
        import redis

        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        wait_until(answers, 10, "redis-server to answer")

    def stop(self) -> None:
        """Stop it (this process only)."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGCONT)  # a frozen server cannot act on SIGTERM
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def freeze(self) -> None:
        """SIGSTOP: the kernel still accepts connections on its port, and nothing answers (a hung Redis)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT: it answers again, commands sent meanwhile included."""
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)


class HungListener:
    """A local TCP port that accepts connections and never reads or answers; counts the connections."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.05)  # so the accepting thread notices `close()`
        self.port = int(self.server.getsockname()[1])
        self.connections: list[socket.socket] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._accept, name="hung-listener", daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        """A Redis URL pointing at it."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def accepted(self) -> int:
        """How many connections it has accepted so far."""
        return len(self.connections)

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                connection, _ = self.server.accept()
            except TimeoutError:
                continue
            self.connections.append(connection)  # kept open and never read: the client waits for an answer

    def close(self) -> None:
        """Stop accepting and close every connection."""
        self.stopping.set()
        self.thread.join(5)
        self.server.close()
        for connection in self.connections:
            connection.close()


class WorkerProcess:
    """`turnstile worker` in a child process, with the given store, Redis and queue."""

    def __init__(self, database_url: str, redis_url: str, queue: str, **extra_env: str) -> None:
        # The bot turns' queue is the test's own too (`<queue>-bots`, which `rq_queue` forgets with its queue).
        self.env = {**os.environ, "TURNSTILE_DATABASE_URL": database_url, "TURNSTILE_REDIS_URL": redis_url,
                    "TURNSTILE_QUEUE": queue, "TURNSTILE_BOT_QUEUE": f"{queue}-bots", "PYTHONPATH": str(ROOT),
                    **extra_env}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the worker, sweeping every half second."""
        self.process = subprocess.Popen([sys.executable, "-m", "cli", "worker", "--sweep-seconds", "0.5"],
                                        cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill(self) -> None:
        """SIGKILL: no clean-up, a batch in flight is cut off."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        """SIGTERM, then wait."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None
