"""An API client over each store adapter (the `store` fixture of tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.matches.tokens import new_secret, secret_hash
from store.base import EventStore


@pytest.fixture
def client(store: EventStore) -> Iterator[TestClient]:
    """A test client of the app over `store`."""
    with TestClient(create_app(store)) as test_client:
        yield test_client


@pytest.fixture
def app_key(store: EventStore) -> str:
    """A valid app key."""
    key = new_secret("app")
    store.create_app_key("tests", secret_hash(key))
    return key


@pytest.fixture
def other_key(store: EventStore) -> str:
    """The key of a second app."""
    key = new_secret("app")
    store.create_app_key("other-app", secret_hash(key))
    return key


def bearer(secret: str) -> dict[str, str]:
    """An Authorization header."""
    return {"Authorization": f"Bearer {secret}"}
