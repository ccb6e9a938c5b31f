"""An API client over each store adapter: SQLite (embedded default) and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.tokens import new_secret, secret_hash
from store.base import EventStore
from store.factory import open_store


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """A fresh store of each kind."""
    url = f"sqlite:///{tmp_path / 'api.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_clean_url")
    opened = open_store(url)
    yield opened
    opened.close()


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


def bearer(secret: str) -> dict[str, str]:
    """An Authorization header."""
    return {"Authorization": f"Bearer {secret}"}
