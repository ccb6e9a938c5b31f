"""An API client over each store adapter, with the app's transparency log at hand (the `store` fixture of
tests/conftest.py); its sequencer is run by the tests, when they say so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.log import log_client
from store.base import EventStore
from tests.api.conftest import app_key  # noqa: F401  (the fixtures, shared)
from tests.store.conftest import harness  # noqa: F401


@pytest.fixture
def client(store: EventStore) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:  # type: ignore[arg-type]
        yield test_client


@pytest.fixture
def over_http(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> str:
    """The CLI's HTTP calls answered by the test client (base URL http://turnstile.test)."""
    base = "http://turnstile.test"

    def fetch(url: str, timeout_s: float = 10.0) -> Any:
        answer = client.get(url.removeprefix(base))
        if answer.status_code != 200:
            raise log_client.Unreachable(f"{url}: HTTP {answer.status_code}")
        return answer.json()

    monkeypatch.setattr(log_client, "_get", fetch)
    return base
