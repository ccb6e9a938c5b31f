"""One write per answer (api/one_write.py), and moves of matches nobody follows skip the event loop (Hub.awaited)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn

from api.one_write import SEND_AT, GatheringTransport, OneWriteHttpToolsProtocol
from service.reads.live import Hub


class Peer(asyncio.Protocol):
    """The far end of a socket pair: keeps what arrives, read by read."""

    def __init__(self) -> None:
        self.reads: list[bytes] = []
        self.closed = asyncio.Event()

    def data_received(self, data: bytes) -> None:
        self.reads.append(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


async def pair() -> tuple[GatheringTransport, Peer]:
    loop = asyncio.get_running_loop()
    ours, theirs = socket.socketpair()
    transport, _ = await loop.create_connection(asyncio.Protocol, sock=ours)
    peer = Peer()
    await loop.create_connection(lambda: peer, sock=theirs)
    return GatheringTransport(transport, loop), peer  # type: ignore[arg-type]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0.01)


def test_the_writes_of_one_turn_leave_as_one_send_and_a_later_write_leaves_in_its_own_turn() -> None:
    async def main() -> None:
        gathering, peer = await pair()
        gathering.write(b"HTTP/1.1 200 OK\r\n\r\n")
        gathering.write(bytearray(b"body"))
        gathering.write(b"")
        assert gathering.get_write_buffer_size() == len(b"HTTP/1.1 200 OK\r\n\r\nbody")
        await settle()
        assert (gathering.sends, b"".join(peer.reads)) == (1, b"HTTP/1.1 200 OK\r\n\r\nbody")
        gathering.write(b"data: 1\n\n")  # a stream's event, written after a wait: sent in its own turn
        await settle()
        assert gathering.sends == 2 and b"".join(peer.reads).endswith(b"data: 1\n\n")
        gathering.write(b"last")
        gathering.close()  # sent before the connection closes, not dropped
        await asyncio.wait_for(peer.closed.wait(), 5)
        assert b"".join(peer.reads).endswith(b"last")

    asyncio.run(main())


def test_many_chunks_in_one_turn_are_sent_as_they_pass_the_threshold_not_held_to_the_end() -> None:
    """A stream writing chunk after chunk without yielding keeps the real transport's flow control: past SEND_AT
    gathered bytes go out at once, so nothing unbounded waits in memory for the end of the turn."""
    async def main() -> None:
        gathering, peer = await pair()
        chunk = b"x" * 1000
        for _ in range(3 * SEND_AT // len(chunk)):
            gathering.write(chunk)
        assert gathering.sends == 2, "sent within the turn, each time SEND_AT bytes had gathered"
        await settle()
        assert len(b"".join(peer.reads)) == 3 * SEND_AT // len(chunk) * len(chunk)

    asyncio.run(main())


def test_an_aborted_connection_sends_nothing_of_what_was_gathered() -> None:
    async def main() -> None:
        gathering, peer = await pair()
        gathering.write(b"never")
        gathering.abort()
        await asyncio.wait_for(peer.closed.wait(), 5)
        await settle()
        assert peer.reads == [] and gathering.sends == 0

    asyncio.run(main())


def test_uvicorn_with_the_protocol_answers_in_one_send_and_keeps_the_connection() -> None:
    """A real uvicorn server on the protocol: three requests on one connection, each answer one segment."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"5")]})
        await send({"type": "http.response.body", "body": b"hello"})

    async def main() -> None:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        config = uvicorn.Config(app, http=OneWriteHttpToolsProtocol, loop="asyncio", log_level="warning",
                                lifespan="off")
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.01)
        reader, writer = await asyncio.open_connection(*sock.getsockname())
        answers = []
        for _ in range(3):
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            answers.append(await asyncio.wait_for(reader.read(65536), 5))  # the whole answer in the first read
        writer.close()
        server.should_exit = True
        await task
        assert all(a.startswith(b"HTTP/1.1 200 OK\r\n") and a.endswith(b"\r\n\r\nhello") for a in answers), answers

    asyncio.run(main())


class Following:
    def __init__(self, followed: set[str]) -> None:
        self.followed = followed
        self.signals: list[str] = []

    def follows(self, match_id: str) -> bool:
        return match_id in self.followed

    def signalled(self, match_id: str) -> None:
        self.signals.append(match_id)


def test_a_move_nobody_waits_for_does_not_wake_the_loop_and_one_that_is_awaited_does() -> None:
    async def main() -> None:
        hub = Hub()
        hub.bind(asyncio.get_running_loop())
        tails = Following({"followed"})
        hub.listeners.append(tails)
        assert not hub.awaited("nobody") and hub.awaited("followed")
        waiter = asyncio.create_task(hub.wait("waited", 5))
        await asyncio.sleep(0)
        assert hub.awaited("waited") and not hub.awaited("nobody")
        await asyncio.to_thread(hub.moved, "nobody")  # from a move's thread, as appends signal
        await asyncio.to_thread(hub.moved, "followed")
        await asyncio.to_thread(hub.moved, "waited")
        assert await asyncio.wait_for(waiter, 5) is True
        await asyncio.sleep(0.05)
        assert tails.signals == ["followed", "waited"], "a move nobody awaits reaches no one"
        feed = asyncio.create_task(hub.wait(None, 5))  # the feed waits for any match
        await asyncio.sleep(0)
        assert hub.awaited("nobody")
        await asyncio.to_thread(hub.moved, "nobody")
        assert await asyncio.wait_for(feed, 5) is True

    asyncio.run(main())
