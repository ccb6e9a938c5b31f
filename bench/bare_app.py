"""The bare-stack peer of issue 32: the framework, server and driver Turnstile uses, doing one INSERT per POST.

Litestar, served like `turnstile serve` (uvicorn with httptools and uvloop, one worker per CPU), with an async
psycopg pool: `POST /rows` stores its JSON body as one row (autocommit) and answers 201 with the row's id. What a
request costs when it only stores a row is the ceiling Turnstile's moves are measured against (bench/throughput.py,
system `bare`).

    uvicorn --factory --app-dir bench bare_app:create   # TURNSTILE_DATABASE_URL names the database
"""

from __future__ import annotations

import os
from typing import Any

import msgspec
from litestar import Litestar, Request, get, post
from psycopg_pool import AsyncConnectionPool

TABLE = ("CREATE TABLE IF NOT EXISTS bench_rows (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
         "payload jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())")


class Stored(msgspec.Struct, frozen=True):
    """The answer: the new row's id."""

    id: int


def create() -> Litestar:
    """The app: one pool a process, opened at start-up."""
    pool = AsyncConnectionPool(os.environ["TURNSTILE_DATABASE_URL"], min_size=2, max_size=10, open=False,
                               kwargs={"autocommit": True})

    async def opened() -> None:
        await pool.open()
        # Every worker starts here at once, and two concurrent CREATE TABLE IF NOT EXISTS can fail (a unique
        # violation in PostgreSQL's catalogue: 18 of 30 tries on this machine). The worker that failed never
        # served, and the run met "connection refused" (bench/README.md). One at a time:
        async with pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(32)")
            await conn.execute(TABLE)

    async def closed() -> None:
        await pool.close()

    @post("/rows", status_code=201)
    async def store_row(request: Request[Any, Any, Any]) -> Stored:
        body = await request.body()
        async with pool.connection() as conn:
            cursor = await conn.execute("INSERT INTO bench_rows (payload) VALUES (%s::jsonb) RETURNING id",
                                        (body.decode(),))
            row = await cursor.fetchone()
        return Stored(id=int(row[0]) if row else 0)

    @get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    return Litestar([store_row, health], on_startup=[opened], on_shutdown=[closed],
                    openapi_config=None, logging_config=None)
