"""An app on a SQLite store with an app key, and a log capture of the formatted lines the operators would read."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.matches.tokens import new_secret, secret_hash
from service.ops.logs import JsonFormatter
from store.factory import open_store


def new_key(store: Any, name: str) -> str:
    """A fresh app key of the app `name`."""
    key = new_secret("app")
    store.create_app_key(name, secret_hash(key))
    return key


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Any]:
    """A fresh SQLite store."""
    opened = open_store(f"sqlite:///{tmp_path / 'ops.db'}")
    yield opened
    opened.close()


@pytest.fixture
def client(sqlite_store: Any) -> Iterator[TestClient]:
    """A test client of the app, default limits."""
    with TestClient(create_app(sqlite_store)) as test_client:
        yield test_client


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """Every record of the `turnstile` loggers, formatted as JSON lines the way a served process writes them."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("turnstile")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield out
    logger.removeHandler(handler)
    logger.setLevel(level)
