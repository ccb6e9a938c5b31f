"""POST /v1/verifications takes a record as its export gave it (application/x-ndjson), not only wrapped in JSON."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.catalog import by_slug
from store.factory import open_store
from tests.api.conftest import bearer
from tests.audit.conftest import play_moves
from tests.ops.conftest import new_key


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, bytes]]:
    """A client, and the export of a finished match."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('verify') / 'store.db'}")
    game = by_slug("expect-delays")
    assert game is not None
    with TestClient(create_app(store)) as client:
        created = client.post("/v1/matches", headers=bearer(new_key(store, "verify")), json={
            "game": "expect-delays", "seats": [{"player": "ada"}, {"player": "bob"}]}).json()
        play_moves(client.app.state.service, created["id"], game, "as-exported", 20_000)
        record = client.get(f"/v1/matches/{created['id']}/export")
        assert record.headers["content-type"].startswith("application/x-ndjson")
        yield client, record.content
    store.close()


@pytest.mark.parametrize("content_type", ["application/x-ndjson", "text/plain; charset=utf-8"])
def test_an_export_sent_as_is_is_verified(exported: tuple[TestClient, bytes], content_type: str) -> None:
    client, record = exported
    answer = client.post("/v1/verifications", content=record, headers={"Content-Type": content_type})
    assert answer.status_code == 200, answer.text
    assert answer.json()["code"] == "verified"


def test_a_tampered_export_sent_as_is_fails_its_check(exported: tuple[TestClient, bytes]) -> None:
    client, record = exported
    lines = record.decode().splitlines(keepends=True)
    answer = client.post("/v1/verifications", content="".join(lines[:1] + lines[2:]).encode(),
                         headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 200 and answer.json()["ok"] is False


@pytest.mark.parametrize(("body", "why"), [(b"\xff\xfe", "UTF-8"), (b'{"a": "\x00"}', "NUL")])
def test_a_text_record_that_is_not_utf8_or_holds_nul_is_bad_input(exported: tuple[TestClient, bytes], body: bytes,
                                                                  why: str) -> None:
    client, _ = exported
    answer = client.post("/v1/verifications", content=body, headers={"Content-Type": "application/x-ndjson"})
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid-request")


def test_the_openapi_document_says_the_ndjson_body_is_taken(exported: tuple[TestClient, bytes]) -> None:
    client, _ = exported
    body: dict[str, Any] = client.get("/schema/openapi.json").json()["paths"]["/v1/verifications"]["post"]
    assert "application/x-ndjson" in body["description"]
    other = client.post("/v1/verifications", content=b"<xml/>", headers={"Content-Type": "application/xml"})
    assert (other.status_code, other.json()["code"]) == (415, "unsupported-media-type")


