"""Links in the OpenAPI document: how one answer leads to the next call, so tools (and readers) can follow a match
from its creation: read it, list the seat's legal moves, play one of them, read the log, export it.

A link says which value of an answer fills which parameter of the next operation; the seat token a move needs
comes from the same creation answer (`seats[i].token`) and goes in the Authorization header, which OpenAPI links
cannot set: the link's description says so.
"""

from __future__ import annotations

from litestar.openapi.spec import Link, OpenAPI, OpenAPIResponse, Operation, PathItem

# (link name, operation id) of what a created match leads to: every operation on one match that a seat or a
# spectator calls while it is played.
FROM_CREATION = (("GetMatch", "getMatch"), ("GetLegalMoves", "getLegalMoves"), ("PlayMove", "playMove"),
                 ("GetEvents", "getEvents"), ("GetStateAt", "getStateAt"), ("ExportRecord", "exportRecord"))
SEAT_TOKEN = " (as a seat: `Authorization: Bearer` one of the creation answer's `seats[].token`)"


def _operations(openapi: OpenAPI) -> dict[str, Operation]:
    """Every operation by its id."""
    out: dict[str, Operation] = {}
    for item in (openapi.paths or {}).values():
        assert isinstance(item, PathItem)
        for operation in (item.get, item.post, item.put, item.delete, item.patch):
            if operation is not None and operation.operation_id:
                out[operation.operation_id] = operation
    return out


def _response(operation: Operation, status: str) -> OpenAPIResponse:
    """An operation's answer of this status (written out, not a reference)."""
    answer = (operation.responses or {})[status]
    assert isinstance(answer, OpenAPIResponse), (operation.operation_id, status)
    return answer


def add_links(openapi: OpenAPI) -> OpenAPI:
    """Link a created match to the calls that follow it, and legal moves to playing one of them."""
    operations = _operations(openapi)
    created = _response(operations["createMatch"], "201")
    created.links = {name: Link(operation_id=target, parameters={"path.match_id": "$response.body#/id"},
                                description=f"{operations[target].summary} of the created match"
                                            f"{SEAT_TOKEN if target in ('getLegalMoves', 'playMove') else ''}")
                     for name, target in FROM_CREATION}
    legal = _response(operations["getLegalMoves"], "200")
    legal.links = {"PlayMove": Link(operation_id="playMove", parameters={"path.match_id": "$request.path.match_id"},
                                    request_body={"move": "$response.body#/moves/0",
                                                  "expected_version": "$response.body#/version"},
                                    description="Play the first of the listed moves, at the version it was listed at"
                                                " (with the same seat token)")}
    return openapi
