"""The eventsourcing peer of issue 45 as an HTTP server: the `eventsourcing` library (its PostgreSQL recorder, one
aggregate per match) behind the stack Turnstile and bench/bare_app.py use (Litestar, uvicorn with httptools and
uvloop, one worker per CPU).

The game is the boardgame.io peer's (bench/peers/boardgameio/game.js): 30 cards dealt 15 and 15, secret hands; on its
turn a seat plays one card of its hand; the match ends when both hands are empty (30 moves).

- `POST /matches` creates a match (one aggregate, its creation event holding the deal) and answers its id.
- `POST /matches/{id}/moves` with `{"seat": s, "card": c}`: get the aggregate, check the move, add one event, save;
  answers the version and the mover's hand (its view: the other hand is never sent). 409 on a bad move.

`TURNSTILE_ES_CACHE` set to a size turns on the library's aggregate cache (`AGGREGATE_CACHE_MAXSIZE`, fast-forwarded
from the store on each get, so the workers stay right); unset, the library's default: no cache, every get reads and
replays the match's events.

    uvicorn --factory --app-dir bench es_app:create   # TURNSTILE_DATABASE_URL names the database
"""

from __future__ import annotations

import os
import random
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from litestar import Litestar, get, post
from litestar.exceptions import HTTPException

CARDS = 30


class Match(Aggregate):
    """Two secret hands and whose turn it is."""

    @event("Dealt")
    def __init__(self, hands: list[list[int]]) -> None:
        self.hands = hands
        self.turn = 0

    @event("Played")
    def play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.turn = 1 - seat


class Cards(Application[Any]):
    """The library's application: a repository over its PostgreSQL recorder."""

    def deal(self, seed: int) -> UUID:
        deck = list(range(CARDS))
        random.Random(seed).shuffle(deck)
        match = Match([sorted(deck[: CARDS // 2]), sorted(deck[CARDS // 2:])])
        self.save(match)
        return match.id

    def move(self, match_id: UUID, seat: int, card: int) -> tuple[int, list[int]]:
        match: Match = self.repository.get(match_id)
        if seat != match.turn or card not in match.hands[seat]:
            raise ValueError("not this seat's turn or card")
        match.play(seat, card)
        self.save(match)
        return match.version, match.hands[seat]


class Move(msgspec.Struct, frozen=True):
    seat: int
    card: int


class Created(msgspec.Struct, frozen=True):
    id: str
    hands: list[list[int]]  # the bench client plays both seats; a real lobby would give each seat its own


class Moved(msgspec.Struct, frozen=True):
    version: int
    hand: list[int]


def environment(url: str, cache: str | None) -> dict[str, str]:
    """The library's settings for the database at `url`, with its aggregate cache of size `cache` (or none)."""
    parts = urlsplit(url)
    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": parts.path.lstrip("/"),
           "POSTGRES_HOST": parts.hostname or "127.0.0.1", "POSTGRES_PORT": str(parts.port or 5432),
           "POSTGRES_USER": parts.username or "postgres", "POSTGRES_PASSWORD": parts.password or "",
           "CREATE_TABLE": "n"}
    if cache:
        env["AGGREGATE_CACHE_MAXSIZE"] = cache
    return env


def setup(url: str) -> None:
    """Create the library's tables once, before the workers start (concurrent CREATEs collide in the catalogue)."""
    Cards(env={**environment(url, None), "CREATE_TABLE": "y"}).close()


def create() -> Litestar:
    """The app: one library application (and its connection pool) a worker process."""
    app = Cards(env=environment(os.environ["TURNSTILE_DATABASE_URL"], os.environ.get("TURNSTILE_ES_CACHE")))
    seeds = random.Random()

    @post("/matches", status_code=201, sync_to_thread=True)
    def new_match() -> Created:
        match_id = app.deal(seeds.randrange(2**32))
        match: Match = app.repository.get(match_id)
        return Created(id=str(match_id), hands=match.hands)

    @post("/matches/{match_id:uuid}/moves", status_code=200, sync_to_thread=True)
    def move(match_id: UUID, data: Move) -> Moved:
        try:
            version, hand = app.move(match_id, data.seat, data.card)
        except (ValueError, IndexError, IntegrityError) as exc:
            raise HTTPException(status_code=409, detail=str(exc)) from exc
        except AggregateNotFoundError as exc:
            raise HTTPException(status_code=404, detail="no such match") from exc
        return Moved(version=version, hand=hand)

    @get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    return Litestar([new_match, move, health], on_shutdown=[app.close], openapi_config=None, logging_config=None)
