"""The witness's own HTTP app (c2sp.org/tlog-witness), apart from the API: one route, `POST <prefix>/add-checkpoint`.

`turnstile witness serve` runs it; service/witness.py decides every answer. Plain text in and out (no JSON, no
OpenAPI document): the body is the spec's, the answer a cosignature line, a size (409, `text/x.tlog.size`) or one
line saying what was refused.
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from litestar import Litestar, Request, Response, post

from service.witness import MAX_BODY_BYTES, Witness


def create_witness_app(witness: Witness, prefix: str = "/") -> Litestar:
    """The witness app: `POST <prefix>/add-checkpoint` answered by `witness`."""
    path = "/" + "/".join(part for part in (*prefix.split("/"), "add-checkpoint") if part)

    @post(path, status_code=200)
    async def add_checkpoint(request: Request[Any, Any, Any]) -> Response[bytes]:
        body = await request.body()
        # The state is read and moved by blocking database calls: a worker thread, never the event loop.
        answer = await anyio.to_thread.run_sync(witness.add_checkpoint, body)
        # The content type exactly as given: Litestar would add `; charset=utf-8` to a text/ media type, and clients
        # compare text/x.tlog.size as a whole.
        return Response(answer.body.encode(), status_code=answer.status, headers={"content-type": answer.content_type})

    return Litestar(route_handlers=[add_checkpoint], openapi_config=None, request_max_body_size=MAX_BODY_BYTES)
