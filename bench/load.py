"""Plumbing of the load benchmarks: client processes started together, throwaway databases, served processes.

A system is measured by N client processes (spawned, so no driver state is shared by fork). Each builds its
step (a callable doing one operation: one INSERT, one get+save, one move) outside the clock, waits at a barrier
with the others, then calls it for `seconds`, timing each call. Paced runs call it on a schedule instead (an
open-loop rate); their latency counts from the scheduled start, so a client that falls behind shows it.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
SERVER = os.environ.get("TURNSTILE_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


class Step(Protocol):
    """One operation of a client; `counts()` adds what it did besides (moves, requests, POST times)."""

    def __call__(self) -> None: ...

    def counts(self) -> dict[str, Any]: ...


@dataclass
class Measured:
    """What N clients did in one window."""

    seconds: float
    ops: int
    latencies: list[float]
    counts: dict[str, Any] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Operations per second (moves per second for move steps)."""
        return self.counts.get("moves", self.ops) / self.seconds

    def pct(self, q: float, key: str | None = None) -> float:
        """The q-quantile in ms of the step times (or of the list `counts[key]`)."""
        values = sorted(self.latencies if key is None else self.counts.get(key, []))
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(q * len(values)))] * 1000


def _child(make: Callable[[Any], Step], arg: Any, seconds: float, rate: float | None, barrier: Any,
           results: Any) -> None:
    try:
        step = make(arg)
        barrier.wait(timeout=300)
        times: list[float] = []
        cpu = time.process_time()
        began = time.perf_counter()
        end = began + seconds
        if rate is None:
            while (now := time.perf_counter()) < end:
                step()
                times.append(time.perf_counter() - now)
        else:
            planned = began
            while planned < end:
                while (now := time.perf_counter()) < planned:
                    time.sleep(min(planned - now, 0.005))
                step()
                times.append(time.perf_counter() - planned)  # from the scheduled start: queueing counts
                planned += 1.0 / rate
        elapsed = time.perf_counter() - began
        # The client's own CPU in the window: what the load generator took from the machine it shares.
        results.put(("ok", elapsed, times, {**step.counts(), "client_cpu_s": time.process_time() - cpu}))
    except BaseException as exc:  # noqa: BLE001  (reported by the parent, which stops the run)
        with contextlib.suppress(Exception):
            barrier.abort()
        results.put(("error", 0.0, [], {"error": f"{type(exc).__name__}: {exc}"}))


def session_cpu_s(session: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of a session (a server and its workers)."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == session:  # the session id (the 6th field; the 4th after the command)
                total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def process_cpu_s(pid: str) -> float:
    """CPU seconds (user + system) used so far by one process (0 once it is gone)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


class BackendsCpu:
    """The CPU of the PostgreSQL backends serving one database: the server processes whose title names it
    (`postgres: user database host(port) state`). Calling it gives the CPU seconds they have used so far, keeping a
    backend that has exited at its last reading, so the sum only grows. The cluster's own processes (WAL writer,
    checkpointer) are left out: they serve every database of the cluster, and other sessions share it."""

    def __init__(self, database: str) -> None:
        self.marker = f" {database} ".encode()
        self.seen: dict[str, float] = {}

    def __call__(self) -> float:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            with contextlib.suppress(OSError):
                title = Path(f"/proc/{pid}/cmdline").read_bytes()
                if title.startswith(b"postgres: ") and self.marker in title:
                    self.seen[pid] = max(self.seen.get(pid, 0.0), process_cpu_s(pid))
        return sum(self.seen.values())


def run_clients(make: Callable[[Any], Step], args: list[Any], seconds: float, rate: float | None = None,
                server: int | None = None, meters: Mapping[str, Callable[[], float]] | None = None) -> Measured:
    """Run one client process per arg for `seconds` (each at `rate` ops/s when paced); their combined result. With
    `server` (a session id), the CPU its processes used while the clients worked is `counts["server_cpu_s"]`; each
    of `meters` (a name and a reading that only grows, such as `BackendsCpu`) is read over the same window into
    `counts[name]`."""
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(len(args) + 1)
    results = ctx.Queue()
    procs = [ctx.Process(target=_child, args=(make, a, seconds, rate, barrier, results), daemon=True) for a in args]
    for proc in procs:
        proc.start()
    with contextlib.suppress(Exception):  # a client failed while setting up: its error is in the queue
        barrier.wait(timeout=300)
    cpu_began = session_cpu_s(server) if server is not None else 0.0
    read_began = {name: read() for name, read in (meters or {}).items()}
    out = [results.get(timeout=seconds + 300) for _ in procs]
    server_cpu = session_cpu_s(server) - cpu_began if server is not None else None
    metered = {name: read() - read_began[name] for name, read in (meters or {}).items()}
    for proc in procs:
        proc.join(timeout=30)
    errors = sorted((c["error"] for kind, _, _, c in out if kind == "error"), key=lambda e: "BrokenBarrier" in e)
    if errors:  # the first cause, not the clients that only saw the barrier broken by it
        raise RuntimeError(f"{len(errors)} client(s) failed: {errors[0]}")
    counts: dict[str, Any] = {}
    for _, _, _, c in out:
        for key, value in c.items():
            counts[key] = counts.get(key, 0 if not isinstance(value, list) else []) + value
    if server_cpu is not None:
        counts["server_cpu_s"] = server_cpu
    counts.update(metered)
    return Measured(seconds=max(e for _, e, _, _ in out), ops=sum(len(t) for _, _, t, _ in out),
                    latencies=[x for _, _, t, _ in out for x in t], counts=counts)


@contextlib.contextmanager
def throwaway_database(prefix: str = "turnstile_bench", server: str = SERVER) -> Iterator[str]:
    """A fresh PostgreSQL database on `server` (TURNSTILE_DATABASE_URL's by default), named `prefix` and a random
    part; its URL; dropped afterwards."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(server)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# Apps of bench/ served like Turnstile: bench/bare_app.py (one INSERT a POST: the stack's floor, issue 32) and
# bench/es_app.py (the eventsourcing library, one aggregate a match: a peer of issue 45).
BENCH_APPS = {"bare": "bare_app", "es": "es_app"}


def server_command(stack: str, port: int, workers: int) -> list[str]:
    """How to serve `api.asgi:create` with a stack: `turnstile serve` (uvicorn, httptools, uvloop), granian, or
    uvicorn as it was before (h11 in pure Python, the asyncio loop)."""
    if stack == "turnstile":
        return [sys.executable, "-m", "cli", "serve", "--port", str(port), "--workers", str(workers)]
    if stack == "granian":
        return [sys.executable, "-m", "granian", "--interface", "asgi", "--factory", "--host", "127.0.0.1",
                "--port", str(port), "--workers", str(workers), "--loop", "uvloop", "--no-access-log",
                "--log-level", "warning", "api.asgi:create"]
    if stack in BENCH_APPS:  # the same server settings as `turnstile serve`, an app of bench/
        return [sys.executable, "-m", "uvicorn", "--factory", "--app-dir", "bench", "--host", "127.0.0.1",
                "--port", str(port), "--workers", str(workers), "--http", "httptools", "--loop", "uvloop",
                "--no-access-log", "--log-level", "warning", f"{BENCH_APPS[stack]}:create"]
    if stack == "uvicorn-h11":
        return [sys.executable, "-m", "uvicorn", "--factory", "--host", "127.0.0.1", "--port", str(port),
                "--workers", str(workers), "--http", "h11", "--loop", "asyncio", "--log-level", "warning",
                "api.asgi:create"]
    raise ValueError(stack)


@contextlib.contextmanager
def served(database_url: str, stack: str = "turnstile", workers: int = 1,
           env: dict[str, str] | None = None, pids: list[int] | None = None) -> Iterator[str]:
    """A server process of our own on a free port; its base URL; stopped (SIGTERM, by its pid) afterwards. Its pid
    (the id of the session its workers run in) goes into `pids`."""
    import httpx

    port = free_port()
    # None of the caller's TURNSTILE_* settings: above all not TURNSTILE_REDIS_URL (CI sets it for the tests), which
    # would send the server's projection jobs to a shared Redis. Only what this run chooses.
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("TURNSTILE_")}
    environment = {**inherited, "TURNSTILE_DATABASE_URL": database_url, **(env or {})}
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed below; a pipe could fill and stall the server)
    proc = subprocess.Popen(server_command(stack, port, workers), cwd=ROOT, env=environment, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    if pids is not None:
        pids.append(proc.pid)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"{stack} server exited: {log.read().decode()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{stack} server did not answer within 60 s")
            time.sleep(0.2)
        time.sleep(0.5 if workers > 1 else 0)  # let every worker process finish starting
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the group we started (start_new_session), by its id
            proc.wait()
        log.close()


def load_average() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())
