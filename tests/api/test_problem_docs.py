"""A problem's `type` URI points at the API itself, which documents every code there (from the same table as
`turnstile problems` and the README)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urljoin

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.problem_codes import CODES, RULES
from store.factory import open_store


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app over an in-memory store."""
    with TestClient(create_app(open_store("sqlite:///:memory:"))) as test_client:
        yield test_client


def test_a_problems_type_is_documented_by_the_api_itself(client: TestClient) -> None:
    """Found: `type` pointed at an outside domain nobody serves."""
    answer = client.get("/v1/matches/no-such-match")
    problem = answer.json()
    assert problem["type"] == "/problems/unknown-match"
    doc = client.get(urljoin(str(answer.url), problem["type"]))
    assert doc.status_code == 200
    assert doc.json() == {"code": "unknown-match", "statuses": [404], "titles": ["Not Found"],
                          "meaning": CODES["unknown-match"][1]}


@pytest.mark.parametrize("code", [code for code in CODES if code != RULES])
def test_every_code_of_the_table_is_served(client: TestClient, code: str) -> None:
    doc = client.get(f"/problems/{code}").json()
    assert (doc["code"], doc["statuses"], doc["meaning"]) == (code, list(CODES[code][0]), CODES[code][1])


def test_a_browser_gets_a_page_and_a_rules_code_its_kind(client: TestClient) -> None:
    page = client.get("/problems/seat-taken", headers={"Accept": "text/html"})
    assert page.headers["content-type"].startswith("text/html") and "<code>seat-taken</code>" in page.text
    rule = client.get("/problems/not-your-turn").json()
    assert rule["statuses"] == [422] and "a game's rules refused" in rule["meaning"]
    assert client.get("/problems/%3Cscript%3E").status_code == 404
    assert len(client.get("/problems").json()) == len(CODES)
