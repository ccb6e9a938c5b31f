"""A small Server-Sent Events client for the tests: a reader thread per stream, what it received, and waits."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx


@dataclass
class Message:
    """One SSE event, or a comment (`comment` set, the rest empty)."""

    id: str = ""
    event: str = ""
    data: str = ""
    comment: str = ""

    @property
    def body(self) -> Any:
        """The decoded JSON of `data`."""
        return json.loads(self.data)


def parse(lines: Any) -> Any:
    """SSE messages from an iterator of lines (the text/event-stream format: fields, a blank line ends each)."""
    current = Message()
    for line in lines:
        if line == "":
            if current.id or current.event or current.data:
                yield current
            current = Message()
        elif line.startswith(":"):
            yield Message(comment=line[1:].strip())
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                current.data = f"{current.data}\n{value}" if current.data else value
            elif name in ("id", "event"):
                setattr(current, name, value)


@dataclass
class Stream:
    """An open stream read by a thread: `messages` grows as they arrive; `ended` when the server closed it.

    Read over a plain socket (HTTP/1.1, chunked), so `close()` hangs up at once even while the reader waits, as a
    client that goes away does."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    status: int | None = None
    problem: Any = None
    ended: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def __post_init__(self) -> None:
        address = urlsplit(self.url)
        self._socket = socket.create_connection((address.hostname, address.port), timeout=60)
        target = f"{address.path}?{address.query}" if address.query else address.path
        head = [f"GET {target} HTTP/1.1", f"Host: {address.netloc}", "Accept: text/event-stream", "Connection: close",
                *(f"{name}: {value}" for name, value in self.headers.items())]
        self._socket.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        self._opened = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        assert self._opened.wait(10), f"no answer from {self.url}"

    def _read(self) -> None:
        try:
            reader = self._socket.makefile("rb")
            self.status = int(reader.readline().split()[1])
            headers = {}
            while (line := reader.readline().decode().strip()):
                name, _, value = line.partition(":")
                headers[name.lower()] = value.strip()
            chunked = headers.get("transfer-encoding") == "chunked"
            body = chunks(reader) if chunked else iter([reader.read(int(headers.get("content-length", "0")))])
            if self.status != 200:
                self.problem = json.loads(b"".join(body))
                return
            self._opened.set()
            for message in parse(lines(body)):
                self.messages.append(message)
        except (OSError, ValueError) as exc:  # hung up by close(), or cut by the server
            self.error = exc
        finally:
            self._opened.set()
            self.ended.set()

    @property
    def events(self) -> list[Message]:
        """The events received so far (comments left out)."""
        return [m for m in self.messages if not m.comment]

    def wait_for(self, last_id: int, seconds: float = 10) -> list[Message]:
        """Wait until an event with id `last_id` arrived (fail after `seconds`); the events so far."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(m.id == str(last_id) for m in self.events):
                return self.events
            if self.ended.is_set():
                break
            time.sleep(0.005)
        raise AssertionError(f"event {last_id} did not arrive on {self.url} in {seconds} s; got "
                             f"{[m.id for m in self.events]} (status {self.status}, {self.problem or self.error})")

    def wait_until_ended(self, seconds: float = 10) -> list[Message]:
        """Wait until the server closes the stream; the events received."""
        assert self.ended.wait(seconds), f"{self.url} did not end in {seconds} s"
        return self.events

    def close(self) -> None:
        """Hang up, and wait for the reader to stop."""
        with contextlib.suppress(OSError):  # the server closed it already
            self._socket.shutdown(socket.SHUT_RDWR)
        self._socket.close()
        self._thread.join(5)


def chunks(reader: Any) -> Iterator[bytes]:
    """The pieces of a chunked HTTP/1.1 body, as they arrive."""
    while True:
        size = int(reader.readline().split(b";")[0], 16)
        if size == 0:
            return
        piece = reader.read(size)
        reader.readline()
        yield piece


def lines(pieces: Iterator[bytes]) -> Iterator[str]:
    """Text lines from byte pieces that may cut lines anywhere."""
    pending = b""
    for piece in pieces:
        pending += piece
        *complete, pending = pending.split(b"\n")
        for line in complete:
            yield line.decode().rstrip("\r")


def read_whole(http: httpx.Client, url: str, headers: dict[str, str] | None = None) -> list[Message]:
    """The events of a stream the server closes by itself (a finished match's), read to its end."""
    answer = http.get(url, headers=headers or {}, timeout=30)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/event-stream")
    return [m for m in parse(answer.text.splitlines()) if not m.comment]
