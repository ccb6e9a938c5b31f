"""The event-loop paths of a move and a read (issue 32): the same answers and errors as the threaded ones, never a
held loop, and a database that is down or hung is a prompt, typed error."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import pytest

from domain import match
from domain.engine import Refusal
from service.matches.matches import MatchService
from service.matches.model import VersionMismatch
from store.async_connections import AsyncConnections
from store.base import ConflictError, StoreUnavailable
from store.factory import open_store
from store.postgres import _configure


def first_move(service: MatchService, match_id: str) -> tuple[int, Any]:
    loaded = service.load(match_id)
    seat = match.to_move(loaded.game, loaded.state)[0]
    return seat, match.legal(loaded.game, loaded.state, seat)[0]


def test_the_store_async_append_answers_as_append_does(store: Any) -> None:
    service = MatchService(store)
    mid = service.create("touched-on", ["a", "b"], {}, seed="async").record.id
    loaded = service.load(mid)
    seat, move = first_move(service, mid)
    new, _ = service._decided(loaded, seat, move, {"move": 1})
    version, head = loaded.state.version, loaded.record.head_hash

    async def both() -> tuple[Any, Any]:
        first = await store.append_async(mid, version, new, seat=seat, command={"move": 1}, command_id="c1",
                                         head_hash=head)
        again = await store.append_async(mid, version, new, seat=seat, command={"move": 1}, command_id="c1",
                                         head_hash=head)
        return first, again

    first, again = asyncio.run(both())
    assert not first.duplicate and again.duplicate and again.events == first.events  # the retry: the original
    assert [e.hash for e in store.read_match(mid, version + 1)] == [e.hash for e in first.events]
    with pytest.raises(ConflictError):  # a stale version, another command
        asyncio.run(store.append_async(mid, version, new, seat=seat, command={"move": 2}, command_id="c2",
                                       head_hash=head))
    record, events = asyncio.run(store.match_with_events_async(mid, version))
    assert record.version == first.events[-1].version and [e.version for e in events] == [
        e.version for e in first.events]


@pytest.mark.postgres
def test_a_cached_move_and_read_never_hand_the_store_to_a_thread(pg_clean_url: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """With the match cached and current, play_async and load_async use only the async connections: the
    threaded append and read fail if called."""
    store = open_store(pg_clean_url)
    try:
        service = MatchService(store)
        mid = service.create("touched-on", ["a", "b"], {}, seed="loop").record.id
        seat, move = first_move(service, mid)
        version = service.load(mid).state.version

        def threaded(*_: Any, **__: Any) -> Any:
            raise AssertionError("the loop path went to the threaded store")

        monkeypatch.setattr(store, "append", threaded)
        monkeypatch.setattr(store, "match_with_events", threaded)
        played = asyncio.run(service.play_async(mid, seat, move, expected_version=version, command_id=None))
        assert not played.result.duplicate and played.after.state.version == played.result.events[-1].version
        loaded = asyncio.run(service.load_async(mid))
        assert loaded.state == played.after.state
    finally:
        store.close()


def test_the_loop_path_refuses_and_conflicts_as_the_thread_path_does(store: Any) -> None:
    service = MatchService(store)
    mid = service.create("touched-on", ["a", "b"], {}, seed="refuse").record.id
    seat, move = first_move(service, mid)
    version = service.load(mid).state.version
    other = 1 - seat
    with pytest.raises(Refusal):  # not this seat's turn: refused on the state as stored
        asyncio.run(service.play_async(mid, other, move, expected_version=None, command_id=None))
    with pytest.raises(VersionMismatch):
        asyncio.run(service.play_async(mid, seat, move, expected_version=version + 5, command_id=None))
    elsewhere = MatchService(store)  # another process moves first: this one's cache is behind
    elsewhere.play(mid, seat, move, expected_version=version, command_id="first")
    with pytest.raises(VersionMismatch):
        asyncio.run(service.play_async(mid, seat, move, expected_version=version, command_id="second"))
    replay = asyncio.run(service.play_async(mid, seat, move, expected_version=version, command_id="first"))
    assert replay.result.duplicate  # the retry of the recorded command: its first answer


def test_a_move_on_the_loop_leaves_the_loop_free(store: Any) -> None:
    """While a move's append waits on the store, the loop runs other work (a ticker counts its turns)."""
    service = MatchService(store)
    mid = service.create("touched-on", ["a", "b"], {}, seed="free").record.id

    async def run() -> int:
        ticks = 0
        stop = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not stop.is_set():
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        for _ in range(10):
            loaded = await service.load_async(mid)
            seat = match.to_move(loaded.game, loaded.state)[0]
            await service.play_async(mid, seat, match.legal(loaded.game, loaded.state, seat)[0],
                                     expected_version=loaded.state.version, command_id=None)
        stop.set()
        await task
        return ticks

    assert asyncio.run(run()) >= 10  # the ticker ran while the moves were waiting


def silent_port() -> tuple[socket.socket, int]:
    """A listening socket that accepts and never answers: a hung database."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    return server, server.getsockname()[1]


def test_async_connections_to_a_database_that_is_down_or_hung_fail_promptly() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]  # nobody listens once the probe is closed
    down = AsyncConnections(f"postgresql://postgres@127.0.0.1:{closed_port}/x", _configure, timeout_s=1)
    server, port = silent_port()
    hung = AsyncConnections(f"postgresql://postgres@127.0.0.1:{port}/x", _configure, timeout_s=1)

    async def use(connections: AsyncConnections) -> None:
        async with connections.connection():
            pass

    try:
        for connections in (down, hung):
            began = time.monotonic()
            with pytest.raises(StoreUnavailable):
                asyncio.run(use(connections))
            assert time.monotonic() - began < 5
    finally:
        server.close()
    down.close()
    with pytest.raises(StoreUnavailable, match="closed"):
        asyncio.run(use(down))


@pytest.mark.postgres
def test_connections_are_kept_per_loop_and_closed_from_any_thread(pg_clean_url: str) -> None:
    connections = AsyncConnections(pg_clean_url, _configure, keep=2)

    async def pid() -> int:
        async with connections.connection() as conn:
            return int((await (await conn.execute("SELECT pg_backend_pid()")).fetchone())[0])

    async def twice() -> tuple[int, int]:
        return await pid(), await pid()

    first, second = asyncio.run(twice())
    assert first == second  # put back after use, taken again on the same loop
    third = asyncio.run(pid())  # a new loop: the ended loop's connection is closed, a new one opened
    assert third != first
    closer = threading.Thread(target=connections.close)
    closer.start()
    closer.join(5)
    assert not closer.is_alive()
