"""The docs page works offline (its assets are served here, not by a CDN), and CORS is the operator's choice."""

from __future__ import annotations

import re

from litestar.testing import TestClient

from api.app import create_app
from store.factory import open_store


def test_the_docs_page_loads_nothing_from_elsewhere() -> None:
    """Every script, style and icon the page names is a path of this service, and is served."""
    with TestClient(create_app(open_store("sqlite:///:memory:"))) as client:
        page = client.get("/schema")
        assert page.status_code == 200 and "SwaggerUIBundle" in page.text
        sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert sources and all(source.startswith("/schema/") for source in sources), sources
        for source in sources:
            assert client.get(source).status_code == 200, source
        assert client.get("/schema/openapi.json").json()["openapi"].startswith("3.1")


def test_cors_is_off_by_default() -> None:
    """No origin is trusted unless the operator lists it."""
    with TestClient(create_app(open_store("sqlite:///:memory:"))) as client:
        answer = client.get("/v1/games", headers={"Origin": "https://app.example"})
        assert "access-control-allow-origin" not in answer.headers


def test_cors_allows_the_listed_origins_only() -> None:
    """TURNSTILE_CORS_ORIGINS (comma-separated) lets those browser apps call the API, preflight included."""
    app = create_app(open_store("sqlite:///:memory:"), cors_origins="https://app.example, https://other.example")
    with TestClient(app) as client:
        preflight = client.options("/v1/matches", headers={"Origin": "https://app.example",
                                                           "Access-Control-Request-Method": "POST",
                                                           "Access-Control-Request-Headers": "authorization"})
        assert preflight.status_code == 204
        assert preflight.headers["access-control-allow-origin"] == "https://app.example"
        assert "authorization" in preflight.headers["access-control-allow-headers"].lower()
        assert client.get("/v1/games", headers={"Origin": "https://other.example"}).headers[
            "access-control-allow-origin"] == "https://other.example"
        assert "access-control-allow-origin" not in client.get(
            "/v1/games", headers={"Origin": "https://evil.example"}).headers
