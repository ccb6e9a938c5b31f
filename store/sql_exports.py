"""The bulk export's half of the SQL adapters (store/exports.py): one SQL shape, the log order per dialect."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from ledger.events import StoredEvent
from store.dialect import Dialect
from store.exports import ExportQuery, Finished


class SqlExports:
    """Finished matches in log order over the connections an adapter holds (mixed into `store.sql.SqlStore`)."""

    dialect: Dialect
    match_columns: str  # the columns `match_of` reads (store.sql.MATCH_COLUMNS)

    def _reading(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def match_of(self, row: tuple[Any, ...]) -> Any:
        raise NotImplementedError

    def event_of(self, row: tuple[Any, ...]) -> StoredEvent:
        raise NotImplementedError

    event_columns: str  # the columns `event_of` reads (store.sql.EVENT_COLUMNS)
    export_event_columns: str  # the same as `events_of` reads them (an adapter may have the server format some)

    def _ended_after(self, after: int) -> tuple[str, list[Any], str]:
        """(condition, parameters, ORDER BY) of the `match.ended` events after the one at `after` in log order:
        position order here (one writer at a time commits in position order); PostgreSQL overrides it."""
        return "events.position > ?", [after], "events.position"

    def finished_matches(self, query: ExportQuery, after: int = 0, limit: int = 200) -> list[Finished]:
        """Up to `limit` finished matches of `query` whose end comes after the event at `after`, in log order."""
        d = self.dialect
        condition, params, order = self._ended_after(after)
        where = ["events.type = 'match.ended'", condition]
        if query.app is None:
            where.append("matches.visibility = 'public'")
        else:
            where.append("(matches.visibility = 'public' OR matches.owner = ?)")
            params.append(query.app)
        for clause, value in (("matches.game = ?", query.game), ("matches.rules_version = ?", query.edition)):
            if value is not None:
                where.append(clause)
                params.append(value)
        if query.player is not None:
            where.append(d.seats_player)
            params.append(d.player(query.player))
        for clause, moment in (("events.recorded_at >= ?", query.since), ("events.recorded_at < ?", query.until)):
            if moment is not None:
                where.append(clause)
                params.append(d.time(moment))
        columns = ", ".join(f"matches.{name.strip()}" for name in self.match_columns.split(","))  # events has `version`
        sql = (f"SELECT events.position, events.recorded_at, {columns} FROM events "
               f"JOIN matches ON matches.id = events.match_id WHERE {' AND '.join(where)} ORDER BY {order} LIMIT ?")
        with self._reading() as conn:
            rows = conn.execute(d.sql(sql), [*params, limit]).fetchall()
        return [Finished(int(row[0]), d.stamp(row[1]), self.match_of(row[2:])) for row in rows]

    def events_of(self, match_ids: Sequence[str]) -> dict[str, list[StoredEvent]]:
        """The events of these matches, each match's in version order (one read)."""
        found: dict[str, list[StoredEvent]] = {match_id: [] for match_id in match_ids}
        if not match_ids:
            return found
        sql, params = self.dialect.each_of("events", self.export_event_columns, {"match_id": "text"},
                                           [(match_id,) for match_id in match_ids], "version")
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql(sql), params).fetchall()
        for row in rows:
            event = self.event_of(row)
            found[event.match_id].append(event)
        return found
