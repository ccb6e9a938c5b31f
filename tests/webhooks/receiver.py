"""A webhook receiver for tests: an http.server on 127.0.0.1 in a thread, recording what arrives, per path.

Each path behaves as told: answer 204, fail its first N requests with 500, or hang (hold the request unanswered
until released). Every request is recorded (path, headers, body) in arrival order.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import msgspec


@dataclass
class Received:
    """One request as it arrived."""

    path: str
    headers: dict[str, str]
    body: bytes
    at: float

    @property
    def json(self) -> Any:
        """The body, decoded."""
        return msgspec.json.decode(self.body)


@dataclass
class Behaviour:
    """How a path answers."""

    fail_first: int = 0  # answer 500 to this many requests first
    hang: bool = False  # hold requests until `release` is set
    release: threading.Event = field(default_factory=threading.Event)
    seen: int = 0


class Receiver:
    """The server, its recorded requests, and the behaviour of each path."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.behaviours: dict[str, Behaviour] = {}
        self.lock = threading.RLock()
        self.arrived = threading.Condition(self.lock)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    behaviour = receiver.behaviours.setdefault(self.path, Behaviour())
                    behaviour.seen += 1
                    failing = behaviour.seen <= behaviour.fail_first
                    receiver.received.append(Received(self.path, dict(self.headers.items()), body, time.monotonic()))
                    receiver.arrived.notify_all()
                if behaviour.hang:
                    behaviour.release.wait(30)
                self.send_response(500 if failing else 204)
                self.end_headers()
                if failing:
                    self.wfile.write(b"not now")

            def log_message(self, *args: Any) -> None:
                """Quiet."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False  # a hung request never holds up the tests
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, name="webhook-receiver", daemon=True)
        self.thread.start()

    def url(self, path: str, **behaviour: Any) -> str:
        """The URL of a path that behaves as told."""
        with self.lock:
            self.behaviours[path] = Behaviour(**behaviour)
        return f"http://127.0.0.1:{self.port}{path}"

    def at(self, path: str) -> list[Received]:
        """What arrived at a path, in order."""
        with self.lock:
            return [r for r in self.received if r.path == path]

    def wait_for(self, condition: Callable[[], bool], seconds: float, what: str) -> None:
        """Wait until `condition` holds (checked whenever a request arrives, and every 0.1 s)."""
        deadline = time.monotonic() + seconds
        with self.arrived:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {seconds} s waiting for {what}")
                self.arrived.wait(min(left, 0.1))

    def close(self) -> None:
        """Release hung requests and stop."""
        with self.lock:
            for behaviour in self.behaviours.values():
                behaviour.release.set()
        self.server.shutdown()
        self.server.server_close()


def verify(secret: str, received: Received, tolerance_s: int = 300) -> bool:
    """What a receiver does (the README's way): the signature matches the body, and its time is recent."""
    fields = dict(part.split("=", 1) for part in received.headers["Turnstile-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + received.body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(time.time() - int(fields["t"])) <= tolerance_s
