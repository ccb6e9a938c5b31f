"""Webhook tests: a local receiver (module-wide), a store of each kind with a dispatcher folding and sending."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from service.matches.matches import MatchService
from service.outbox.webhook_fold import WebhookDispatcher
from service.outbox.webhooks import Webhooks
from settings import Settings
from store.read_models import Store
from tests.webhooks.receiver import Receiver

# Quick retries and short holds, loopback receivers allowed: what the tests run with.
FAST = Settings(webhook_allow_private=True, webhook_poll_s=0.05, webhook_retry_s=0.05, webhook_timeout_s=3.0,
                webhook_lease_s=4.0, webhook_max_attempts=5, webhook_senders=3, sweep_seconds=0.5)


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    """A receiver on 127.0.0.1 shared by a module's tests (each uses paths of its own)."""
    server = Receiver()
    yield server
    server.close()


@dataclass
class Hooked:
    """A store with matches played through a service whose appends wake a running webhook dispatcher."""

    store: Store
    service: MatchService
    hooks: Webhooks
    dispatcher: WebhookDispatcher

    def subscribe(self, app: str, url: str, kinds: list[str], **filters: Any) -> Any:
        """A webhook of `app` (its key created on the way)."""
        self.store.create_app_key(app, f"hash-of-{app}")
        return self.hooks.create(app, url, kinds, **filters)


def hooked_store(store: Store, settings: Settings = FAST) -> Hooked:
    """Wire a dispatcher to a store (close it with `.dispatcher.close()`)."""
    dispatcher = WebhookDispatcher(store, settings)
    service = MatchService(store, watchers=[dispatcher.moved])
    return Hooked(store, service, Webhooks(store, allow_private=True), dispatcher)


@pytest.fixture
def hooked(store: Store) -> Iterator[Hooked]:
    """A store of each kind with a running dispatcher."""
    wired = hooked_store(store)
    yield wired
    wired.dispatcher.close()


def path() -> str:
    """A receiver path nobody else uses."""
    return f"/{uuid.uuid4().hex[:12]}"
