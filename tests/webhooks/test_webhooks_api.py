"""The webhook endpoints over each store: an app's own subscriptions only, secrets shown once, bad input refused."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.matches.tokens import new_secret, secret_hash
from service.outbox.webhook_http import RefusedTarget, target
from service.outbox.webhooks import BadWebhookUrl, Webhooks
from store.factory import open_store
from store.read_models import Store
from tests.api.conftest import bearer

HOOK = {"url": "http://127.0.0.1:9/hook", "kinds": ["turn", "match.ended"]}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """One store of each kind for the module (tests use apps of their own): building the app is the slow part."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('hooks') / 'store.db'}"
    else:
        import psycopg

        base, schema = request.getfixturevalue("pg_url"), f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        url = f"{base}?options=-c%20search_path%3D{schema}"
    opened = open_store(url)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def client(store: Store) -> Iterator[TestClient]:
    """The app over `store`, loopback receivers allowed, at most three webhooks an app."""
    with TestClient(create_app(store, webhooks=Webhooks(store, allow_private=True, per_app=3))) as test_client:
        yield test_client


def key(store: Store, app: str) -> dict[str, str]:
    """The Authorization header of a new key of a new app named after `app`."""
    secret = new_secret("app")
    store.create_app_key(f"{app}-{uuid.uuid4().hex[:8]}", secret_hash(secret))
    return bearer(secret)


def test_an_app_creates_reads_lists_and_deletes_its_webhooks(client: TestClient, store: Store) -> None:
    ada = key(store, "ada-app")
    made = client.post("/v1/webhooks", json={**HOOK, "game": "terminus"}, headers=ada)
    assert made.status_code == 201, made.text
    body = made.json()
    assert made.headers["location"] == f"/v1/webhooks/{body['id']}" and body["secret"].startswith("whsec_")
    assert (body["kinds"], body["game"], body["status"], body["failures"]) == (["turn", "match.ended"], "terminus",
                                                                              "active", 0)
    read = client.get(f"/v1/webhooks/{body['id']}", headers=ada).json()
    assert "secret" not in read and read == {k: v for k, v in body.items() if k != "secret"}
    listed = client.get("/v1/webhooks", headers=ada).json()["items"]
    assert listed == [read] and body["secret"] not in client.get("/v1/webhooks", headers=ada).text
    assert client.get(f"/v1/webhooks/{body['id']}/deliveries", headers=ada).json() == {"items": []}
    assert client.delete(f"/v1/webhooks/{body['id']}", headers=ada).status_code == 204
    assert client.get(f"/v1/webhooks/{body['id']}", headers=ada).json()["code"] == "unknown-webhook"


def test_another_apps_webhook_does_not_exist_for_an_app(client: TestClient, store: Store) -> None:
    ada, bob = key(store, "ada-app"), key(store, "bob-app")
    hook = client.post("/v1/webhooks", json=HOOK, headers=ada).json()["id"]
    for method, url in (("GET", f"/v1/webhooks/{hook}"), ("DELETE", f"/v1/webhooks/{hook}"),
                        ("GET", f"/v1/webhooks/{hook}/deliveries"),
                        ("POST", f"/v1/webhooks/{hook}/deliveries/{hook}/redeliver")):
        answer = client.request(method, url, headers=bob)
        assert (answer.status_code, answer.json()["code"]) == (404, "unknown-webhook"), (method, url)
        assert answer.headers["content-type"] == "application/problem+json"
    assert client.get("/v1/webhooks", headers=bob).json() == {"items": []}
    assert client.get(f"/v1/webhooks/{hook}", headers=ada).status_code == 200  # untouched
    nobody = client.get("/v1/webhooks")
    assert (nobody.status_code, nobody.json()["code"]) == (401, "app-key-required")
    assert client.get("/v1/webhooks", headers=bearer("app_unknown")).json()["code"] == "unknown-app-key"
    unknown = client.post(f"/v1/webhooks/{hook}/deliveries/no-such-delivery/redeliver", headers=ada)
    assert unknown.json()["code"] == "unknown-webhook"


@pytest.mark.parametrize(("body", "status", "code"), [
    ({**HOOK, "url": "ftp://127.0.0.1/hook"}, 400, "invalid-request"),
    ({**HOOK, "url": "http://user:pw@127.0.0.1/hook"}, 422, "bad-webhook-url"),
    ({**HOOK, "url": "http://no-such-host.invalid/hook"}, 422, "bad-webhook-url"),
    ({**HOOK, "url": "http://[::1/hook"}, 422, "bad-webhook-url"),  # an unclosed IPv6 bracket: found as a 500
    ({**HOOK, "kinds": []}, 400, "invalid-request"),
    ({**HOOK, "kinds": ["moved"]}, 400, "invalid-request"),
    ({**HOOK, "secret": "mine"}, 400, "invalid-request"),
    ({**HOOK, "game": "chess"}, 404, "unknown-game"),
    ({**HOOK, "match_id": "no-such-match"}, 404, "unknown-match"),
])
def test_bad_input_is_refused_and_changes_nothing(client: TestClient, store: Store, body: dict[str, Any],
                                                  status: int, code: str) -> None:
    ada = key(store, "ada-app")
    answer = client.post("/v1/webhooks", json=body, headers=ada)
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert client.get("/v1/webhooks", headers=ada).json() == {"items": []}


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/hook", "http://10.1.2.3/hook", "http://169.254.169.254/x",
                                 "http://[::1]/hook", "http://localhost/hook", "http://0.0.0.0/hook"])
def test_private_addresses_are_refused_unless_the_operator_allows_them(store: Store, url: str) -> None:
    strict = Webhooks(store)  # the default: public receivers only
    with pytest.raises(BadWebhookUrl, match="private, loopback and link-local"):
        strict.create("strict-app", url, ["turn"])
    assert strict.of("strict-app") == []
    if "0.0.0.0" in url:  # "any address" is never a receiver
        with pytest.raises(RefusedTarget):
            target(url, allow_private=True)
    else:  # the operator's TURNSTILE_WEBHOOK_ALLOW_PRIVATE=1
        assert target(url, allow_private=True).port in (80, 8080)


def test_a_match_filter_takes_only_the_apps_own_matches(client: TestClient, store: Store) -> None:
    ada, bob = key(store, "ada-app"), key(store, "bob-app")
    created = client.post("/v1/matches", json={"game": "metro-x", "seats": [{"player": "a"}]}, headers=bob).json()
    others = client.post("/v1/webhooks", json={**HOOK, "match_id": created["id"]}, headers=ada)
    assert (others.status_code, others.json()["code"]) == (404, "unknown-match")
    mine = client.post("/v1/webhooks", json={**HOOK, "match_id": created["id"]}, headers=bob).json()
    assert (mine["match_id"], mine["game"]) == (created["id"], "metro-x")


def test_concurrent_creations_stop_at_the_limit_and_a_webhook_is_deleted_once(client: TestClient,
                                                                             store: Store) -> None:
    ada = key(store, "ada-app")
    with ThreadPoolExecutor(6) as pool:
        made = list(pool.map(lambda _: client.post("/v1/webhooks", json=HOOK, headers=ada), range(6)))
    assert sorted(r.status_code for r in made) == [201, 201, 201, 409, 409, 409]
    assert {r.json()["code"] for r in made if r.status_code == 409} == {"too-many-webhooks"}
    assert len(client.get("/v1/webhooks", headers=ada).json()["items"]) == 3
    hook = next(r.json()["id"] for r in made if r.status_code == 201)
    with ThreadPoolExecutor(4) as pool:
        gone = list(pool.map(lambda _: client.delete(f"/v1/webhooks/{hook}", headers=ada), range(4)))
    assert sorted(r.status_code for r in gone) == [204, 404, 404, 404]


def test_the_openapi_document_describes_each_webhook_and_its_payload(client: TestClient) -> None:
    document = client.get("/schema/openapi.json").json()
    assert set(document["webhooks"]) == {"turn", "match.created", "match.timed-out", "match.ended",
                                         "tournament.match-ready"}
    for hook in document["webhooks"].values():
        schema = hook["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/WebhookPayload"}
        assert {p["name"] for p in hook["post"]["parameters"]} >= {"Turnstile-Signature", "Turnstile-Delivery"}
    event = document["components"]["schemas"]["WebhookEvent"]["properties"]["event"]
    assert event["discriminator"]["propertyName"] == "type" and len(event["oneOf"]) > 20
