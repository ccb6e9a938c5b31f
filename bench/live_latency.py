"""Live matches: how long a committed move takes to reach the streams following it, and what an idle stream costs.

    uv run python bench/live_latency.py                 # 100 streams, 8 players, 10 s; then 500 idle streams
    uv run python bench/live_latency.py --smoke         # 10 streams, 2 players, 2 s; 20 idle streams

A `turnstile serve --workers 2` on a throwaway PostgreSQL database (so most deliveries cross processes through
LISTEN/NOTIFY). Each player (a thread of a player process) creates an Expect Delays match and plays random legal
moves over HTTP as fast as it can; the streams (spectators, spread evenly over the players' matches, asyncio in a
reader process of their own) note when each event arrives. Latency is from the event's `recorded_at` (stamped by
the API process just before its commit, same machine clock) to its arrival at the reader. Then idle streams are
opened on a match nobody moves, and the server processes' resident memory is read before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import load  # noqa: E402
from bench.throughput import app_key  # noqa: E402

SEATS = [{"player": "ann"}, {"player": "bob"}]
READER_PROCESSES = 2


def create(base: str, key: str) -> dict[str, Any]:
    """A new two-seat Expect Delays match that lasts (300 turns at most)."""
    answer = httpx.post(f"{base}/v1/matches", headers={"Authorization": f"Bearer {key}"},
                        json={"game": "expect-delays", "seats": SEATS, "options": {"max_turns": 300}})
    answer.raise_for_status()
    return dict(answer.json())


def play(base: str, created: dict[str, Any], until: float, seed: int) -> int:
    """Random legal moves, one POST per move (`include=legal`), until the time or the match's end: moves made."""
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    rng, moves = random.Random(seed), 0
    with httpx.Client(base_url=base) as http:
        state = http.get(f"/v1/matches/{created['id']}", params={"include": "legal"},
                         headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        while time.monotonic() < until and state["status"] != "finished":
            seat = rng.choice(state["to_move"])
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = http.get(f"/v1/matches/{created['id']}/legal-moves", headers=auth).json()
            move = {"move": rng.choice(legal["moves"]), "expected_version": legal["version"]}
            http.post(f"/v1/matches/{created['id']}/moves", headers=auth, json=move).raise_for_status()
            state = http.get(f"/v1/matches/{created['id']}", headers=auth).json()
            moves += 1
    return moves


async def follow(base: str, match_id: str, since: float, until: float, arrivals: list[float]) -> None:
    """Follow one match's stream until the time; the delay of each event recorded after `since` (wall clock).

    A bare asyncio connection and a chunked-body parser, not an HTTP client library: the readers share the server's
    two CPUs, and what they spend on parsing would be measured as delivery delay."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"GET /v1/matches/{match_id}/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream answered {status!r}")
    while (await reader.readline()).strip():
        pass  # the headers
    pending = b""
    try:
        while time.monotonic() < until:
            size = int((await asyncio.wait_for(reader.readline(), until - time.monotonic())).split(b";")[0], 16)
            if size == 0:
                return
            pending += await reader.readexactly(size + 2)
            now = time.time()
            *lines, pending = pending.replace(b"\r\n", b"\n").split(b"\n")
            for line in lines:
                if line.startswith(b'data: {"version"'):
                    at = line.split(b'"recorded_at":"', 1)[1].split(b'"', 1)[0].decode()
                    recorded = datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
                    if recorded >= since:  # a live event, not the replay of what was there before the players began
                        arrivals.append(now - recorded)
    except TimeoutError:
        return
    finally:
        writer.close()


def readers(base: str, match_ids: list[str], streams: range, since: float, seconds: float, out: Any) -> None:
    """A reader process: its share of the streams, spread over the matches; sends back the delays and failures."""
    arrivals: list[float] = []

    async def main() -> list[Any]:
        until = time.monotonic() + seconds
        return await asyncio.gather(*(follow(base, match_ids[i % len(match_ids)], since, until, arrivals)
                                      for i in streams), return_exceptions=True)

    failures = [repr(result) for result in asyncio.run(main()) if isinstance(result, BaseException)]
    out.send((arrivals, failures))


def server_rss_kib(port: int) -> int:
    """Resident memory of the server on `port` and its worker processes (KiB, from /proc)."""
    processes: dict[str, tuple[bytes, dict[str, str]]] = {}  # pid -> (command line, status fields)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes() + b"\0"
            lines = Path(f"/proc/{pid}/status").read_text().splitlines()
        except OSError:  # gone meanwhile
            continue
        processes[pid] = (command, {k: v.strip() for k, _, v in (line.partition(":") for line in lines)})
    root = {pid for pid, (command, _) in processes.items() if f"--port\0{port}\0".encode() in command}
    family = root | {pid for pid, (_, status) in processes.items() if status.get("PPid") in root}
    return sum(int(processes[pid][1].get("VmRSS", "0 kB").split()[0]) for pid in family)


def idle_streams(base: str, key: str, count: int) -> int:
    """Open `count` streams on a match nobody moves; the server's memory growth per stream (bytes)."""
    port = int(base.rsplit(":", 1)[1])
    match_id = create(base, key)["id"]
    before = server_rss_kib(port)
    opened: list[Any] = []
    done = threading.Event()

    async def hold() -> None:
        async with httpx.AsyncClient(timeout=httpx.Timeout(10, read=None),
                                     limits=httpx.Limits(max_connections=count + 10)) as http:
            async def one() -> None:
                async with http.stream("GET", f"{base}/v1/matches/{match_id}/stream") as response:
                    opened.append(response.status_code)
                    await asyncio.get_running_loop().run_in_executor(None, done.wait)
            await asyncio.gather(*(one() for _ in range(count)), return_exceptions=True)

    thread = threading.Thread(target=lambda: asyncio.run(hold()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while len(opened) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(2)
    after = server_rss_kib(port)
    done.set()
    assert opened.count(200) == count, f"only {opened.count(200)} of {count} streams opened"
    return (after - before) * 1024 // count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="a few seconds, to see that it runs")
    parser.add_argument("--streams", type=int, help="streams following the players' matches (100)")
    parser.add_argument("--players", type=int, help="players moving at once, each in its own match (8)")
    args = parser.parse_args()
    streams, players, seconds, idle = (10, 2, 1.0, 20) if args.smoke else (100, 8, 10.0, 500)
    streams, players = args.streams or streams, args.players or players
    with load.throwaway_database() as url, \
            load.served(url, workers=2, env={"TURNSTILE_STREAMS_PER_CALLER": str(idle + streams)}) as base:
        key = app_key(url)
        matches = [create(base, key) for _ in range(players)]
        receiving, sending = multiprocessing.Pipe(duplex=False)
        since = time.time() + 3  # the streams connect and replay the matches' set-up first
        pipes, processes = [], []
        for share in range(READER_PROCESSES):
            receiving, sending = multiprocessing.Pipe(duplex=False)
            process = multiprocessing.get_context("spawn").Process(target=readers, args=(
                base, [m["id"] for m in matches], range(share, streams, READER_PROCESSES), since, seconds + 5,
                sending))
            process.start()
            pipes.append(receiving)
            processes.append(process)
        time.sleep(max(0.0, since - time.time()))
        until = time.monotonic() + seconds
        threads = [threading.Thread(target=play, args=(base, m, until, i)) for i, m in enumerate(matches)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        delays, failures = [], []
        for receiving, process in zip(pipes, processes, strict=True):
            got, failed = receiving.recv()
            delays += got
            failures += failed
            process.join(30)
        delays.sort()
        if failures:
            print(f"{len(failures)} of {streams} streams failed, e.g. {failures[0]}", file=sys.stderr)
        per_stream = idle_streams(base, key, idle)
    if not delays:
        print("no live event arrived", file=sys.stderr)
        return 1
    p50, p99 = statistics.median(delays), delays[min(len(delays) - 1, int(len(delays) * 0.99))]
    print(f"{streams} streams, {players} players, {seconds:.0f} s: {len(delays)} deliveries, "
          f"delay p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms; "
          f"load {load.load_average()}")
    print(f"{idle} idle streams: {per_stream / 1024:.1f} KiB of server memory each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
