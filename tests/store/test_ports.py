"""The narrow ports (issue 38): each service takes the protocol it uses, and both adapters fulfil every protocol, method
by method, with the same parameters. Each port has its contract suite run on both stores: EventStore and AppKeyStore
tests/store/test_contract.py, TransparencyStore tests/store/test_transparency_contract.py, TournamentStore
tests/tournament_service/test_store.py, WebhookStore tests/webhooks/test_fold.py and test_delivery.py, ReadModelStore
tests/projections/."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from service.log.transparency import Transparency
from service.outbox.notifications import Follower, FollowerStore
from service.outbox.webhooks import OutboxStore, Webhooks
from service.tournaments.tournaments import TournamentPorts, TournamentService
from store.base import AppKeyStore, EventStore, MoveListener
from store.factory import open_store
from store.postgres import PostgresStore
from store.read_models import ReadModelStore, Store
from store.sqlite import SqliteStore
from store.tournaments import TournamentStore
from store.transparency import TransparencyStore
from store.webhooks import WebhookStore

PORTS = [EventStore, AppKeyStore, ReadModelStore, WebhookStore, TransparencyStore, TournamentStore]
ADAPTERS = [SqliteStore, PostgresStore]


def methods(protocol: type) -> dict[str, inspect.Signature]:
    """The methods a protocol declares itself (not those of `Protocol` or `object`)."""
    return {name: inspect.signature(member) for name, member in vars(protocol).items()
            if callable(member) and not name.startswith("_")}


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda a: a.__name__)
@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.__name__)
def test_each_adapter_fulfils_each_port_with_the_same_parameters(adapter: type, port: type) -> None:
    declared = methods(port)
    assert declared, f"{port.__name__} declares no method"
    for name, signature in declared.items():
        found = getattr(adapter, name, None)
        assert callable(found), f"{adapter.__name__} lacks {port.__name__}.{name}"
        assert list(inspect.signature(found).parameters) == list(signature.parameters), (
            f"{adapter.__name__}.{name}{inspect.signature(found)} differs from {port.__name__}.{name}{signature}")


def test_the_union_is_every_port_and_nothing_else() -> None:
    """`Store` (where everything is wired) adds no method of its own to the ports."""
    assert set(methods(Store)) == set()
    assert set(Store.__mro__) >= set(PORTS)


@pytest.mark.parametrize(("service", "port"), [
    (Transparency, TransparencyStore), (TournamentService, TournamentPorts), (Webhooks, OutboxStore),
    (Follower, FollowerStore),
], ids=lambda v: getattr(v, "__name__", str(v)))
def test_services_take_their_own_port_not_the_union(service: type, port: type) -> None:
    hint = inspect.signature(service.__init__).parameters["store"].annotation
    assert hint in (port.__name__, port), f"{service.__name__} takes {hint}"
    assert hint not in ("Store", Store)


def test_only_postgresql_says_when_other_processes_append(tmp_path: Any, pg_clean_url: str) -> None:
    """The live streams follow other processes through a store that is a MoveListener (not `hasattr(store, ...)`)."""
    sqlite, postgres = open_store(f"sqlite:///{tmp_path / 'a.db'}"), open_store(pg_clean_url)
    try:
        assert not isinstance(sqlite, MoveListener)
        assert isinstance(postgres, MoveListener)
    finally:
        sqlite.close()
        postgres.close()
