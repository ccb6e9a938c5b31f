"""The insights projection's fact rows in a table of their own (`insight_facts`), and the aggregates the insights
API asks of it: one SQL shape for both dialects.

Projections stay pure and write documents; the read-model batch (store/sql_read_models.py) sends the documents of
kind `fact` of the projection `insights` here instead of to `projection_docs`, in the same transaction, and reads
them back as the same documents (key `<match id>:<seat>`, group: the game, rank: the log position)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store import sql_insight_rollups as rollups
from store.dialect import Dialect
from store.read_models import DocChange, DocRow, FactQuery, FactSums

PROJECTION, KIND = "insights", "fact"
# The fields of a fact row (projections/insights.py), in its order: each one a column of the table.
FIELDS = ("match_id", "game", "edition", "seats", "seat", "player", "bot", "rating_before", "mu_after", "sigma_after",
          "rank", "score", "result", "moves", "seconds", "end_reason", "month", "ended_at", "opening", "cooperative",
          "position", "band", "reps")
INTEGERS = frozenset({"seats", "seat", "rank", "moves", "position", "reps"})
COLUMNS = ", ".join(FIELDS)
KEY_SQL = "match_id || ':' || CAST(seat AS TEXT)"


def is_fact(projection: str, kind: str) -> bool:
    """Whether documents of this kind are fact rows kept in `insight_facts`."""
    return projection == PROJECTION and kind == KIND


def _split(key: str) -> tuple[str, int]:
    match_id, _, seat = key.rpartition(":")
    return match_id, int(seat)


def _values(change: DocChange) -> tuple[Any, ...]:
    """The row of a fact document, checked: its fields are the table's, its key, group and rank what they derive
    from (the table keeps no other copy of them)."""
    doc = change.doc
    assert doc is not None
    if set(doc) != set(FIELDS):
        raise ValueError(f"a fact row has the fields {sorted(doc)}, the table {sorted(FIELDS)}: migrate it")
    if change.key != f"{doc['match_id']}:{doc['seat']}" or change.group != doc["game"] \
            or change.rank != float(doc["position"]):
        raise ValueError(f"fact {change.key}: key, group or rank is not its match, seat, game and position")
    return tuple(doc[name] for name in FIELDS)


def write(cursor: Any, dialect: Dialect, changes: Sequence[DocChange]) -> None:
    """Upsert and delete fact rows, and move the rollups' sums with them, in the caller's transaction."""
    upserts = [_values(c) for c in changes if c.doc is not None]
    deletes = [_split(c.key) for c in changes if c.doc is None]
    final = {c.key: c.doc for c in changes}  # a key changed twice in one batch ends as its last change
    replaced = _stored(cursor, dialect, list(final))
    if upserts:
        updates = ", ".join(f"{name} = excluded.{name}" for name in FIELDS if name not in ("match_id", "seat"))
        cursor.executemany(dialect.sql(
            f"INSERT INTO insight_facts ({COLUMNS}) VALUES ({', '.join('?' for _ in FIELDS)}) "
            f"ON CONFLICT (match_id, seat) DO UPDATE SET {updates}"), upserts)
    if deletes:
        cursor.executemany(dialect.sql("DELETE FROM insight_facts WHERE match_id = ? AND seat = ?"), deletes)
    rollups.apply(cursor, dialect, rollups.deltas(replaced, [doc for doc in final.values() if doc is not None]))


def _stored(cursor: Any, dialect: Dialect, keys: list[str], chunk: int = 500) -> list[dict[str, Any]]:
    """The stored fact rows of these keys (those that exist)."""
    wanted = {_split(key) for key in keys}
    found = []
    ids = sorted({match_id for match_id, _ in wanted})
    for first in range(0, len(ids), chunk):
        part = ids[first:first + chunk]
        rows = cursor.execute(dialect.sql(f"SELECT {COLUMNS} FROM insight_facts WHERE match_id IN "
                                          f"({', '.join('?' for _ in part)})"), part).fetchall()
        found += [doc for doc in map(_doc, rows) if (doc["match_id"], doc["seat"]) in wanted]
    return found


def _doc(row: Sequence[Any]) -> dict[str, Any]:
    doc = dict(zip(FIELDS, row, strict=True))
    doc["cooperative"] = bool(doc["cooperative"])
    return doc


def get(conn: Any, dialect: Dialect, key: str) -> dict[str, Any] | None:
    """A fact row by key, or None."""
    try:
        match_id, seat = _split(key)
    except ValueError:
        return None
    row = conn.execute(dialect.sql(f"SELECT {COLUMNS} FROM insight_facts WHERE match_id = ? AND seat = ?"),
                       (match_id, seat)).fetchone()
    return None if row is None else _doc(row)


def reset(conn: Any, dialect: Dialect) -> None:
    """Drop every fact row and the rollups' sums (the projection is rebuilt from position 0)."""
    for statement in dialect.emptying(("insight_facts", *rollups.KEPT_TABLES)):
        conn.execute(statement)


def query(conn: Any, dialect: Dialect, *, key: str | None, group: str | None, min_field: tuple[str, float] | None,
          after: tuple[float, str] | None, limit: int) -> list[DocRow]:
    """Fact rows as documents, as `query_docs` gives any other kind: by key or game, newest first, then key."""
    where: list[str] = []
    params: list[Any] = []
    if key is not None:
        try:
            match_id, seat = _split(key)
        except ValueError:
            return []
        where.append("match_id = ? AND seat = ?")
        params += [match_id, seat]
    if group is not None:
        where.append("game = ?")
        params.append(group)
    if min_field is not None:
        field, minimum = min_field
        if field not in FIELDS:
            raise ValueError(f"not a fact field: {field!r}")
        where.append(f"{field} >= ?")
        params.append(minimum)
    if after is not None:
        where.append(f"(position < ? OR (position = ? AND {KEY_SQL} > ?))")
        params += [after[0], after[0], after[1]]
    sql = (f"SELECT {COLUMNS} FROM insight_facts {'WHERE ' + ' AND '.join(where) if where else ''} "
           f"ORDER BY position DESC, {KEY_SQL} LIMIT ?")
    rows = conn.execute(dialect.sql(sql), (*params, limit)).fetchall()
    return [DocRow(kind=KIND, key=f"{doc['match_id']}:{doc['seat']}", doc=doc, group=doc["game"],
                   rank=float(doc["position"])) for doc in map(_doc, rows)]


def sums(conn: Any, dialect: Dialect, question: FactQuery) -> list[FactSums]:
    """Per group of `question.by`: rows, wins, and the count, sum and sum of squares of `question.value`; from the
    rollups when no player is asked, else from the fact rows (the player's index)."""
    for name in (*question.by, *(w[0] for w in question.where), *([question.value] if question.value else [])):
        if name not in FIELDS:
            raise ValueError(f"not a fact field: {name!r}")
    one_month = "month" not in question.by and any(name == "month" and len(values) + null == 1
                                                     for name, values, null in question.where)
    columns = rollups.covering([*question.by, *(w[0] for w in question.where)], one_month)
    if question.player is None and columns is not None and (question.value in (None, *rollups.AVERAGED)):
        return rollups.sums(conn, dialect, question, columns)
    where, params = rollups.conditions(question)
    if question.player is not None:
        where.append("player = ?")
        params.append(question.player)
    value = question.value
    if value is None:
        measured = "count(*), 0, 0"
    else:
        where.append(f"{value} IS NOT NULL")
        measured = rollups.aggregates(value, value in INTEGERS)
    by = ", ".join(question.by)
    sql = (f"SELECT {by}, count(*), sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END), {measured} "
           f"FROM insight_facts WHERE {' AND '.join(where)} GROUP BY {by}")
    width = len(question.by)
    return [FactSums(group=tuple(row[:width]), rows=row[width], wins=rollups.number(row[width + 1]),
                     n=row[width + 2], total=rollups.number(row[width + 3]), squares=rollups.number(row[width + 4]))
            for row in conn.execute(dialect.sql(sql), params).fetchall()]
