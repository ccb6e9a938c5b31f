"""The read-model half of the SQL adapters: documents and checkpoints, one SQL shape for both dialects."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from store import sql_facts
from store.dialect import Dialect
from store.read_models import Checkpoint, DocChange, DocRow

CHECKPOINT_COLUMNS = "projection, version, position, error, error_position, updated_at"
MANY = 500  # keys a statement of `get_many` names (SQLite's limit on parameters is far above)
_UPSERTED = ("ON CONFLICT (projection, kind, key) DO UPDATE SET doc = excluded.doc, grp = excluded.grp, "
             "rank = excluded.rank")


class SqlBatch:
    """One projection batch inside an open transaction on `conn`."""

    def __init__(self, conn: Any, dialect: Dialect, checkpoint: Checkpoint) -> None:
        self.conn = conn
        self.dialect = dialect
        self.checkpoint = checkpoint

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """A committed document."""
        if sql_facts.is_fact(self.checkpoint.projection, kind):
            return sql_facts.get(self.conn, self.dialect, key)
        row = self.conn.execute(
            self.dialect.sql("SELECT doc FROM projection_docs WHERE projection = ? AND kind = ? AND key = ?"),
            (self.checkpoint.projection, kind, key),
        ).fetchone()
        return None if row is None else self.dialect.decode(row[0])

    def get_many(self, kind: str, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The committed documents of `kind` among `keys`, by key (a key without one is left out)."""
        if sql_facts.is_fact(self.checkpoint.projection, kind):  # fact rows are read one at a time
            return {key: doc for key in keys if (doc := self.get(kind, key)) is not None}
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(keys), MANY):
            listed, params = self.dialect.one_of("key", keys[start:start + MANY])
            rows = self.conn.execute(self.dialect.sql(
                f"SELECT key, doc FROM projection_docs WHERE projection = ? AND kind = ? AND {listed}"),
                (self.checkpoint.projection, kind, *params)).fetchall()
            found.update((key, self.dialect.decode(doc)) for key, doc in rows)
        return found

    def commit(self, changes: Sequence[DocChange], checkpoint: Checkpoint) -> None:
        """Write documents and the checkpoint (the surrounding transaction commits them together): on a store whose
        statements are round trips, the upserts as one statement and the deletes as another."""
        d, name = self.dialect, self.checkpoint.projection
        facts = [c for c in changes if sql_facts.is_fact(name, c.kind)]
        changes = [c for c in changes if not sql_facts.is_fact(name, c.kind)]
        upserts = [c for c in changes if c.doc is not None]
        deletes = [c for c in changes if c.doc is None]
        cursor = self.conn.cursor()
        if facts:
            sql_facts.write(cursor, d, facts)
        if upserts and d.json_rows and all(math.isfinite(c.rank) for c in upserts):  # JSON has no infinity
            cursor.execute(d.sql(f"INSERT INTO projection_docs (projection, kind, key, doc, grp, rank) SELECT ?, "
                                 f"value->>0, value->>1, value->2, value->>3, CAST(value->>4 AS double precision) "
                                 f"FROM {d.json_rows} {_UPSERTED}"),
                           (name, d.encode([[c.kind, c.key, c.doc, c.group, c.rank] for c in upserts])))
        elif upserts:
            cursor.executemany(d.sql(f"INSERT INTO projection_docs (projection, kind, key, doc, grp, rank) VALUES "
                                     f"(?, ?, ?, ?, ?, ?) {_UPSERTED}"),
                               [(name, c.kind, c.key, d.encode(c.doc), c.group, c.rank) for c in upserts])
        if deletes and d.json_rows:
            cursor.execute(d.sql(f"DELETE FROM projection_docs WHERE projection = ? AND (kind, key) IN "
                                 f"(SELECT value->>0, value->>1 FROM {d.json_rows})"),
                           (name, d.encode([[c.kind, c.key] for c in deletes])))
        elif deletes:
            cursor.executemany(d.sql("DELETE FROM projection_docs WHERE projection = ? AND kind = ? AND key = ?"),
                               [(name, c.kind, c.key) for c in deletes])
        cursor.execute(d.sql("UPDATE projection_checkpoints SET position = ?, error = ?, error_position = ?, "
                             "updated_at = ? WHERE projection = ?"),
                       (checkpoint.position, checkpoint.error, checkpoint.error_position, d.now(), name))


@contextmanager
def open_batch(conn: Any, dialect: Dialect, projection: str, version: int) -> Iterator[SqlBatch]:
    """Lock (creating) the checkpoint row; a changed projection version starts it again from zero."""
    d = dialect
    locking = d.sql(f"SELECT {CHECKPOINT_COLUMNS} FROM projection_checkpoints WHERE projection = ?" + d.lock_row)
    row = conn.execute(locking, (projection,)).fetchone()
    if row is None:  # the projection's first batch (or the first after a reset): its row, then locked
        conn.execute(d.sql("INSERT INTO projection_checkpoints (projection, version, position, updated_at) "
                           "VALUES (?, ?, 0, ?) ON CONFLICT (projection) DO NOTHING"), (projection, version, d.now()))
        row = conn.execute(locking, (projection,)).fetchone()
    checkpoint = checkpoint_of(d, row)
    if checkpoint.version != version:
        conn.execute(d.sql("DELETE FROM projection_docs WHERE projection = ?"), (projection,))
        if projection == sql_facts.PROJECTION:
            sql_facts.reset(conn, d)
        conn.execute(d.sql("UPDATE projection_checkpoints SET version = ?, position = 0, error = NULL, "
                           "error_position = NULL WHERE projection = ?"), (version, projection))
        checkpoint = Checkpoint(projection=projection, version=version, position=0)
    yield SqlBatch(conn, d, checkpoint)


def checkpoint_of(dialect: Dialect, row: Sequence[Any]) -> Checkpoint:
    """A checkpoint row."""
    return Checkpoint(projection=row[0], version=row[1], position=row[2], error=row[3], error_position=row[4],
                      updated_at=dialect.stamp(row[5]))


def all_checkpoints(conn: Any, dialect: Dialect) -> list[Checkpoint]:
    """Every checkpoint."""
    rows = conn.execute(f"SELECT {CHECKPOINT_COLUMNS} FROM projection_checkpoints ORDER BY projection").fetchall()
    return [checkpoint_of(dialect, r) for r in rows]


def reset(conn: Any, dialect: Dialect, projection: str) -> None:
    """Drop a projection's documents and checkpoint."""
    conn.execute(dialect.sql("DELETE FROM projection_docs WHERE projection = ?"), (projection,))
    if projection == sql_facts.PROJECTION:
        sql_facts.reset(conn, dialect)
    conn.execute(dialect.sql("DELETE FROM projection_checkpoints WHERE projection = ?"), (projection,))


def query_docs(conn: Any, dialect: Dialect, projection: str, kind: str, *, key: str | None, group: str | None,
               min_field: tuple[str, float] | None, after: tuple[float, str] | None, limit: int) -> list[DocRow]:
    """Documents by key or group, best rank first, then key; keyset paging with `after` = (rank, key)."""
    if sql_facts.is_fact(projection, kind):
        return sql_facts.query(conn, dialect, key=key, group=group, min_field=min_field, after=after, limit=limit)
    where: list[str] = ["projection = ?", "kind = ?"]
    params: list[Any] = [projection, kind]
    if key is not None:
        where.append("key = ?")
        params.append(key)
    if group is not None:
        where.append("grp = ?")
        params.append(group)
    if min_field is not None:
        field, minimum = min_field
        if not field.isidentifier():
            raise ValueError(f"not a field name: {field!r}")
        where.append(f"{dialect.json_number.format(field=field)} >= ?")
        params.append(minimum)
    if after is not None:
        where.append("(rank < ? OR (rank = ? AND key > ?))")
        params += [after[0], after[0], after[1]]
    sql = ("SELECT kind, key, doc, grp, rank FROM projection_docs WHERE " + " AND ".join(where)
           + " ORDER BY rank DESC, key LIMIT ?")
    rows = conn.execute(dialect.sql(sql), (*params, limit)).fetchall()
    return [DocRow(kind=r[0], key=r[1], doc=dialect.decode(r[2]), group=r[3], rank=r[4]) for r in rows]
