"""An API client over each store adapter, with the app's transparency log at hand (the `store` fixture of
tests/conftest.py); its sequencer is run by the tests, when they say so."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from api.app import create_app
from store.base import EventStore
from tests.api.conftest import app_key  # noqa: F401  (the fixtures, shared)
from tests.store.conftest import harness  # noqa: F401


@pytest.fixture
def client(store: EventStore) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:  # type: ignore[arg-type]
        yield test_client
