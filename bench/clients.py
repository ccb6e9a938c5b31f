"""Turnstile clients as steps for `load.run_clients`: one random legal move per call, in-process or over HTTP.

Every client plays its own matches (so no optimistic-concurrency conflicts between clients), of the games it was
given in turn, each at the game's first sample set-up; a finished match is replaced by a new one (its creation is
part of the step that needed it, and counted as a request, not a move).
"""

from __future__ import annotations

import random
import time
from itertools import cycle
from typing import Any

import msgspec

SEATS_PLAYER = "bench-{i}"


class InProcessMover:
    """`MatchService.play` on this process's store: the service's cost without HTTP."""

    def __init__(self, arg: tuple[str, list[str], int]) -> None:
        from domain.catalog import by_slug
        from domain.engine import setups
        from service.matches.matches import MatchService
        from store.factory import open_store

        url, games, seed = arg
        self.store = open_store(url)
        self.service = MatchService(self.store)
        self.rng = random.Random(seed)
        self.games = cycle([by_slug(g) for g in games])
        self.setups = setups
        self.moves = 0
        self._new()

    def _new(self) -> None:
        self.game = next(self.games)
        seats, options = self.setups(self.game)[0]
        created = self.service.create(self.game.slug, [SEATS_PLAYER.format(i=i) for i in range(seats)], options)
        self.match_id = created.record.id

    def __call__(self) -> None:
        from domain import match

        state = self.service.cached(self.match_id).state
        seats = match.to_move(self.game, state)
        if not seats:
            self._new()
            return self()
        seat = self.rng.choice(seats)
        command = self.rng.choice(match.legal(self.game, state, seat))
        self.service.play(self.match_id, seat, command, expected_version=state.version, command_id=None)
        self.moves += 1
        return None

    def counts(self) -> dict[str, Any]:
        return {"moves": self.moves}


class KeepAlive:
    """A minimal HTTP/1.1 client on one keep-alive connection: what a load generator needs and nothing more.

    The clients share the two CPUs with the server they measure, so what they spend is taken from it: the standard
    library's `http.client` parses every answer's headers with the email package, and httpx costs more still. This
    sends each request in one write and reads the answer by its Content-Length (the API answers moves and reads
    whole, never in chunks).
    """

    def __init__(self, host: str, port: int) -> None:
        import socket

        self.host = f"{host}:{port}".encode()
        self.sock = socket.create_connection((host, port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def request(self, method: str, path: str, token: str, body: bytes | None) -> tuple[int, bytes]:
        """(status, body) of one request."""
        head = [f"{method} {path} HTTP/1.1".encode(), b"Host: " + self.host, f"Authorization: Bearer {token}".encode()]
        if body is not None:
            head += [b"Content-Type: application/json", b"Content-Length: " + str(len(body)).encode()]
        self.sock.sendall(b"\r\n".join(head) + b"\r\n\r\n" + (body or b""))
        while (end := self.buffer.find(b"\r\n\r\n")) < 0:
            self._fill()
        lines = self.buffer[:end].split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length = next(int(line.split(b":", 1)[1]) for line in lines[1:] if line[:15].lower() == b"content-length:")
        start = end + 4
        while len(self.buffer) < start + length:
            self._fill()
        data, self.buffer = self.buffer[start:start + length], self.buffer[start + length:]
        return status, data

    def _fill(self) -> None:
        chunk = self.sock.recv(262144)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk


class HttpMover:
    """A client of the HTTP API on one keep-alive connection.

    `one` request per move: POST the move with `?include=legal` and choose the next from its answer; a GET
    `?include=legal` only when the turn passes to another seat (the answer lists the mover's legal moves). `three`:
    the loop the API needed before, GET the match, GET the legal moves, POST the move.
    """

    def __init__(self, arg: tuple[str, str, list[str], int, str]) -> None:
        from urllib.parse import urlsplit

        from domain.catalog import by_slug
        from domain.engine import setups

        base, app_key, games, seed, mode = arg
        where = urlsplit(base)
        self.http = KeepAlive(where.hostname or "127.0.0.1", where.port or 80)
        self.app_key = app_key
        self.mode = mode
        self.rng = random.Random(seed)
        self.games = cycle([(g, setups(by_slug(g))[0]) for g in games])  # type: ignore[arg-type]
        self.moves = self.requests = 0
        self.post_times: list[float] = []
        self._new()

    def _call(self, method: str, path: str, token: str, json: Any = None) -> dict[str, Any]:
        status, data = self.http.request(method, path, token, None if json is None else msgspec.json.encode(json))
        self.requests += 1
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
        return dict(msgspec.json.decode(data))

    def _new(self) -> None:
        slug, (seats, options) = next(self.games)
        body = {"game": slug, "seats": [{"player": SEATS_PLAYER.format(i=i)} for i in range(seats)],
                "options": options}
        created = self._call("POST", "/v1/matches", self.app_key, json=body)
        self.match_id = created["id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.seat: int | None = None
        self.legal: list[Any] = []
        self.to_move: list[int] = [0]
        self.version = created["version"]
        self.finished = False

    def _look(self, seat: int) -> None:
        body = self._call("GET", f"/v1/matches/{self.match_id}?include=legal", self.tokens[seat])
        self.seat, self.legal, self.to_move = seat, body["legal"] or [], body["to_move"]
        self.version, self.finished = body["version"], body["status"] == "finished"

    def __call__(self) -> None:
        if self.mode == "three":
            return self._three()
        while self.seat is None or not self.legal:
            if self.finished or not self.to_move:
                self._new()
            self._look(self.rng.choice(self.to_move))
        seat, move = self.seat, self.rng.choice(self.legal)
        began = time.perf_counter()
        body = self._call("POST", f"/v1/matches/{self.match_id}/moves?include=legal", self.tokens[seat],
                          json={"move": move, "expected_version": self.version})
        self.post_times.append(time.perf_counter() - began)
        self.moves += 1
        self.version, self.to_move, self.finished = body["version"], body["to_move"], body["status"] == "finished"
        self.legal = (body["legal"] or []) if seat in self.to_move and not self.finished else []
        if not self.legal:
            self.seat = None
        return None

    def _three(self) -> None:
        while True:
            state = self._call("GET", f"/v1/matches/{self.match_id}", self.tokens[0])
            if state["status"] != "finished" and state["to_move"]:
                break
            self._new()
        seat = self.rng.choice(state["to_move"])
        legal = self._call("GET", f"/v1/matches/{self.match_id}/legal-moves", self.tokens[seat])
        began = time.perf_counter()
        self._call("POST", f"/v1/matches/{self.match_id}/moves", self.tokens[seat],
                   json={"move": self.rng.choice(legal["moves"]), "expected_version": legal["version"]})
        self.post_times.append(time.perf_counter() - began)
        self.moves += 1

    def counts(self) -> dict[str, Any]:
        return {"moves": self.moves, "requests": self.requests, "post_times": self.post_times}


class BarePoster:
    """A client of the bare-stack peer (bench/bare_app.py): POST one event-sized JSON row per call, keep-alive."""

    BODY = msgspec.json.encode({"type": "bench.row", "seat": 1, "cards": ["T03", "T07", "T11"], "line": "U1",
                                "note": "x" * 160})

    def __init__(self, base: str) -> None:
        from urllib.parse import urlsplit

        where = urlsplit(base)
        self.http = KeepAlive(where.hostname or "127.0.0.1", where.port or 80)

    def __call__(self) -> None:
        status, data = self.http.request("POST", "/rows", "-", self.BODY)
        if status != 201:
            raise RuntimeError(f"POST /rows: {status} {data[:200]!r}")

    def counts(self) -> dict[str, Any]:
        return {}
