"""Webhook SSRF through IPv6 forms that carry an IPv4 address: refused at subscription and at delivery."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.matches.tokens import new_secret, secret_hash
from service.outbox.webhook_http import post
from store.factory import open_store
from store.read_models import Store
from tests.api.conftest import bearer

# Each reaches a loopback, private or link-local IPv4 address through a gateway or a tunnel.
EMBEDDING_PRIVATE = [
    "::127.0.0.1",  # IPv4-compatible
    "::7f00:1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "64:ff9b::7f00:1",  # NAT64, RFC 6052
    "64:ff9b::a9fe:a9fe",  # ... 169.254.169.254, the cloud metadata service
    "64:ff9b::a00:1",
    "64:ff9b:1::a00:1",  # local-use NAT64, RFC 8215
    "::ffff:0:7f00:1",  # IPv4-translated
    "::ffff:0:a00:1",
    "2002:7f00:1::1",  # 6to4
    "2002:a00:1::1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1 (last 32 bits inverted)
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """A SQLite store for the module."""
    opened = open_store(f"sqlite:///{tmp_path_factory.mktemp('ssrf') / 'store.db'}")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def client(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The app with the default webhooks: public receivers only."""
    with TestClient(create_app(store)) as test_client:
        yield test_client


@pytest.mark.parametrize("address", EMBEDDING_PRIVATE)
def test_a_subscription_to_an_ipv6_form_of_a_private_ipv4_address_is_refused(client: TestClient, store: Store,
                                                                             address: str) -> None:
    secret = new_secret("app")
    store.create_app_key(f"attacker-{secret_hash(secret)[:8]}", secret_hash(secret))
    answer = client.post("/v1/webhooks", json={"url": f"http://[{address}]:8080/hook", "kinds": ["turn"]},
                         headers=bearer(secret))
    assert (answer.status_code, answer.json()["code"]) == (422, "bad-webhook-url"), answer.text
    assert client.get("/v1/webhooks", headers=bearer(secret)).json() == {"items": []}


@pytest.mark.parametrize("address", EMBEDDING_PRIVATE)
def test_a_delivery_to_an_ipv6_form_of_a_private_ipv4_address_is_refused(address: str) -> None:
    """A subscription stored before this check (or a name resolving there later) is refused when it is sent."""
    answer = post(f"http://[{address}]:9/hook", b"{}", {}, timeout_s=1, allow_private=False)
    assert answer.status is None and (answer.error or "").startswith("refused:"), answer.error


@pytest.mark.parametrize("address", ["64:ff9b::808:808", "2002:808:808::1", "2606:4700:4700::1111"])
def test_an_ipv6_form_of_a_global_ipv4_address_stays_allowed(address: str, tmp_path: Path) -> None:
    from service.outbox.webhook_http import target

    assert target(f"http://[{address}]/hook", allow_private=False).address == address
