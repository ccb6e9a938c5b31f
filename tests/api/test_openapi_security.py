"""Each operation declares what credential it takes, so that docs pages and generated clients offer the right one:
optional (`[{}, {"bearer": []}]`: anyone, or a seat token or the app's key), required, or none at all."""

from __future__ import annotations

from typing import Any

import pytest

from api.app import create_app
from store.factory import open_store

DOCUMENT: dict[str, Any] = create_app(open_store("sqlite:///:memory:")).openapi_schema.to_schema()
SECURITY = {op["operationId"]: op.get("security") for ops in DOCUMENT["paths"].values() for op in ops.values()}
OPTIONAL = ["getMatch", "getEvents", "exportRecord", "getStateAt", "streamMatch", "listMatches", "getLogInclusion",
            "listTournaments", "getTournament", "exportTournament", "getMatchTournament", "exportMatches"]
REQUIRED = ["createMatch", "playMove", "getLegalMoves", "cancelMatch", "rematchMatch", "followFeed", "listWebhooks",
            "createWebhook", "getWebhook", "deleteWebhook", "listDeliveries", "redeliver", "addEntropy",
            "createTournament", "startTournament", "withdrawFromTournament"]


@pytest.mark.parametrize("operation", OPTIONAL)
def test_an_operation_whose_token_is_optional_says_anonymous_access_is_one_alternative(operation: str) -> None:
    assert SECURITY[operation] == [{}, {"bearer": []}]


@pytest.mark.parametrize("operation", REQUIRED)
def test_an_operation_that_needs_a_token_says_so(operation: str) -> None:
    assert SECURITY[operation] == [{"bearer": []}]


def test_every_other_operation_takes_no_credential_and_declares_none() -> None:
    """`[{}]` alone means "no credential" yet makes generators (openapi-python-client) demand an authenticated
    client: the join, which takes a join code in its body, declared it."""
    others = sorted(set(SECURITY) - set(OPTIONAL) - set(REQUIRED))
    assert "joinMatch" in others and "verifyRecord" in others and "joinTournament" in others
    assert {operation: SECURITY[operation] for operation in others} == dict.fromkeys(others)
