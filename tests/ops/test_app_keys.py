"""`turnstile keys list` and `keys revoke`: an operator sees each app key's name and dates (never the key) and can
revoke one; a revoked key is answered 403 `unknown-app-key`. Over each store kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

import cli
from api.app import create_app
from store.factory import open_store
from tests.api.conftest import bearer
from tests.ops.conftest import new_key

GAME = {"game": "expect-delays", "seats": [{"player": "ada"}, {"player": "bob"}]}


@pytest.fixture(params=["sqlite", "postgres"])
def keyed(request: pytest.FixtureRequest, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A fresh store of each kind, its URL also the command line's (TURNSTILE_DATABASE_URL)."""
    url = f"sqlite:///{tmp_path / 'keys.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_clean_url")
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", url)
    opened = open_store(url)
    yield opened
    opened.close()


def test_keys_list_shows_name_and_dates_never_the_key(keyed: Any,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    store = keyed
    ada, bob = new_key(store, "ada-app"), new_key(store, "bob-app")
    with TestClient(create_app(store)) as client:
        assert client.post("/v1/matches", json=GAME, headers=bearer(ada)).status_code == 201
    assert cli.main(["keys", "list"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[1]: line.split() for line in out.splitlines()[1:]}
    assert out.splitlines()[0].split() == ["ID", "NAME", "CREATED", "LAST", "USED", "REVOKED"]
    assert set(lines) == {"ada-app", "bob-app"}
    assert ada not in out and bob not in out
    assert lines["ada-app"][3] != "-" and lines["bob-app"][3] == "-"  # ada's key was used, bob's never
    assert lines["ada-app"][4] == "-"


def test_a_revoked_key_is_an_unknown_app_key(keyed: Any, capsys: pytest.CaptureFixture[str]) -> None:
    store = keyed
    ada, bob = new_key(store, "ada-app"), new_key(store, "bob-app")
    with TestClient(create_app(store)) as client:
        assert client.post("/v1/matches", json=GAME, headers=bearer(ada)).status_code == 201
        assert cli.main(["keys", "revoke", "ada-app"]) == 0
        refused = client.post("/v1/matches", json=GAME, headers=bearer(ada))
        assert (refused.status_code, refused.json()["code"]) == (403, "unknown-app-key")
        assert client.get("/v1/matches?mine=true", headers=bearer(ada)).status_code == 403
        assert client.post("/v1/matches", json=GAME, headers=bearer(bob)).status_code == 201
        bob_id = next(k.id for k in store.app_keys() if k.name == "bob-app")
        assert cli.main(["keys", "revoke", bob_id]) == 0
        assert client.post("/v1/matches", json=GAME, headers=bearer(bob)).status_code == 403
    capsys.readouterr()
    assert cli.main(["keys", "revoke", "ada-app"]) == 1  # nothing left to revoke
    assert "no unrevoked app key" in capsys.readouterr().err
    assert cli.main(["keys", "list"]) == 0
    listed = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert all(row[-1] != "-" for row in listed), "both stay listed, with when they were revoked"
