"""One write per answer: uvicorn's httptools protocol with the writes of one loop iteration sent together.

uvicorn writes an answer's status line and headers, then its body, as two `transport.write` calls; uvloop sends each
at once, so every answer costs two `send` system calls, two segments on the wire and, on the client's side, a read
that finds the headers without the body and waits again. Profiled under load (bench/README.md) the first of the
two writes alone was the largest single line of the server's own time.

Here the connection's transport gathers what is written during one turn of the event loop and sends it as one
write at the end of that turn (`loop.call_soon`). An ordinary answer (Litestar sends its start and its body without
waiting in between) leaves in one piece; a stream's headers still leave at once, at the end of the turn in which
they were written, before its first event is waited for. Closing sends what is gathered first; aborting drops it.
`turnstile serve` runs uvicorn with this protocol (`http="api.one_write:OneWriteHttpToolsProtocol"`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

PROTOCOL = "api.one_write:OneWriteHttpToolsProtocol"
# Gathered bytes past this are sent at once: a stream that writes many chunks in one turn keeps the real transport's
# flow control (uvicorn pauses the app when that transport's buffer is full), and memory stays bounded.
SEND_AT = 64 * 1024


class GatheringTransport:
    """A transport that sends the writes of one event-loop turn together; everything else is the real one's."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._gathered: list[bytes] = []
        self._size = 0
        self.sends = 0  # writes handed to the real transport (what the tests count)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        """Gather `data`; the first write of a turn schedules the send at the turn's end."""
        if not data:
            return
        if not self._gathered:
            self._loop.call_soon(self.flush)
        self._gathered.append(bytes(data))
        self._size += len(data)
        if self._size >= SEND_AT:
            self.flush()

    def writelines(self, chunks: Any) -> None:
        """Gather every chunk."""
        for chunk in chunks:
            self.write(chunk)

    def flush(self) -> None:
        """Send what was gathered, as one write (nothing once the connection is closing)."""
        if not self._gathered:
            return
        data = self._gathered[0] if len(self._gathered) == 1 else b"".join(self._gathered)
        self._gathered.clear()
        self._size = 0
        if not self._transport.is_closing():
            self.sends += 1
            self._transport.write(data)

    def get_write_buffer_size(self) -> int:
        """Bytes not yet sent: gathered here and buffered by the real transport."""
        return self._size + self._transport.get_write_buffer_size()

    def write_eof(self) -> None:
        """Send what was gathered, then half-close."""
        self.flush()
        self._transport.write_eof()

    def close(self) -> None:
        """Send what was gathered, then close (the real transport sends its buffer before it closes)."""
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        """Drop what was gathered and the connection."""
        self._gathered.clear()
        self._size = 0
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class OneWriteHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol on a `GatheringTransport`."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        super().connection_made(GatheringTransport(transport, self.loop))  # type: ignore[arg-type]
