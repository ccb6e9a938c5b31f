"""The peers Turnstile is measured against, as client steps for `load.run_clients`.

- Raw PostgreSQL: one durable single-row INSERT per commit (psycopg 3, autocommit): what the database can commit.
- python `eventsourcing` on PostgreSQL: get an aggregate of 100 events, add one event, save (no snapshots, no
  cache), which is what an event-sourced command costs with a general-purpose library.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

PAYLOAD = '{"type": "bench.row", "seat": 1, "cards": ["T03", "T07", "T11"], "line": "U1", "note": "' + "x" * 160 + '"}'


def raw_setup(url: str) -> None:
    """The peer's table: an identity key and a jsonb payload, like an event row's essentials."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_rows (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                     "payload jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())")


class RawInsert:
    """One INSERT, committed on its own (autocommit: the statement is the transaction)."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)

    def __call__(self) -> None:
        self.conn.execute("INSERT INTO bench_rows (payload) VALUES (%s::jsonb)", (PAYLOAD,))

    def counts(self) -> dict[str, Any]:
        return {}


class RawInsertNotify(RawInsert):
    """The same INSERT with a NOTIFY in its statement, as Turnstile's append sends one (store/postgres.py). At commit
    PostgreSQL serialises notifying transactions on one cluster-wide lock, held through the commit's flush: what
    that costs a database that commits thousands of transactions a second is this row beside the plain one."""

    def __call__(self) -> None:
        self.conn.execute("WITH row AS (INSERT INTO bench_rows (payload) VALUES (%s::jsonb) RETURNING id) "
                          "SELECT pg_notify('bench_rows', id::text) FROM row", (PAYLOAD,))


def _es_env(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parts.path.lstrip("/"),
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": parts.username or "postgres",
        "POSTGRES_PASSWORD": parts.password or "",
        "POSTGRES_POOL_SIZE": "2",
    }


class Tally(Aggregate):
    """An aggregate whose events carry a payload of the size of a Turnstile event."""

    def __init__(self) -> None:
        self.count = 0

    @event("Added")
    def add(self, note: str) -> None:
        self.count += 1


class Tallies(Application[Any]):
    """The library's application: a repository over its PostgreSQL recorder."""

    def create(self, events: int) -> Any:
        tally = Tally()
        for _ in range(events - 1):  # the creation is the first event
            tally.add(PAYLOAD)
        self.save(tally)
        return tally.id

    def step(self, tally_id: Any) -> None:
        tally = self.repository.get(tally_id)
        tally.add(PAYLOAD)
        self.save(tally)


def _app(url: str, create_table: bool = False) -> Tallies:
    # Tables are created once, before the clients start: concurrent CREATEs collide in the catalog.
    return Tallies(env={**_es_env(url), "CREATE_TABLE": "y" if create_table else "n"})


def es_setup(url: str) -> None:
    """Create the library's tables once, before the clients start together."""
    _app(url, create_table=True).close()


class EsGetSave:
    """Get one of this client's aggregates (100 events when created), add one event, save."""

    def __init__(self, arg: tuple[str, int]) -> None:
        url, aggregates = arg
        self.app = _app(url)
        self.ids = [self.app.create(100) for _ in range(aggregates)]  # spread, so each grows only a little
        self.i = 0

    def __call__(self) -> None:
        self.app.step(self.ids[self.i % len(self.ids)])
        self.i += 1

    def counts(self) -> dict[str, Any]:
        return {"aggregates": len(self.ids)}
