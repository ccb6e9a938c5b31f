"""Helpers for the life-of-a-match tests: an API client per store, created once per module."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.matches.matches import MatchService
from service.matches.tokens import new_secret, secret_hash
from store.factory import open_store


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def life(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One app per store kind for the whole module: its client, its service, and two apps' keys."""
    if request.param == "sqlite":
        url = f"sqlite:///{Path(tmp_path_factory.mktemp('life')) / 'store.db'}"
    else:
        url = pg_schema(str(request.getfixturevalue("pg_url")))
    store = open_store(url)
    keys = {}
    for name in ("owner", "other"):
        keys[name] = new_secret("app")
        store.create_app_key(name, secret_hash(keys[name]))
    with TestClient(create_app(store)) as client:
        service: MatchService = client.app.state.service
        yield {"client": client, "service": service, "store": store, "url": url, **keys}
    store.close()


def pg_schema(pg_url: str) -> str:
    """The session database's URL with search_path set to a new empty schema (dropped with the database)."""
    import psycopg

    schema = f"life_{secrets.token_hex(6)}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return f"{pg_url}{'&' if '?' in pg_url else '?'}options={quote(f'-c search_path={schema}')}"


def bearer(secret: str) -> dict[str, str]:
    """An Authorization header."""
    return {"Authorization": f"Bearer {secret}"}
