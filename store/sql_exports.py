"""The bulk export's half of the SQL adapters (store/exports.py): one SQL shape, the log order per dialect."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, NamedTuple

from ledger.events import StoredEvent
from store.dialect import Dialect
from store.exports import ExportQuery, ExportSpan, Finished

# At most this many matches of a game or player (SQLite): read them and sort their ends rather than walk the log
# order testing each (reading one of them costs about what testing one walked event does, ≈ 10 µs, so 2,000 cost
# ≈ 20 ms; a page of a player in 2,000 of 10^5 matches walks ≈ 5,000 ended events).
FEW_MATCHES = 2000


class MatchesFirst(NamedTuple):
    """How a query reads the few matches of a filter first: the FROM items that give them (`matches` last, so that
    what follows joins to it), their conditions and those conditions' parameters."""

    matches: str
    where: list[str]
    params: list[Any]


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

    def _ended_up_to(self, last: int) -> tuple[str, list[Any]]:
        """(condition, parameters) of the events up to the one at `last` in log order."""
        return "events.position <= ?", [last]

    def _ended_unsettled(self, after: int, settled: int) -> tuple[str, list[Any]]:
        """(condition, parameters) of the events after the one at `after` that an `ExportSpan` read with `settled`
        had not settled: here those after the head position it saw."""
        return "events.position > max(?, ?)", [after, settled]

    def _span_of(self, times: list[str], params: list[Any], after: int) -> ExportSpan:
        """The span of the ended events meeting `times` (conditions on `events`, their `params`) after `after`, in
        one statement (one snapshot): their lowest and highest position, and the head position beside them."""
        ended = f"FROM events INDEXED BY events_ended_time_idx WHERE type = 'match.ended' AND {' AND '.join(times)}"
        sql = (f"SELECT (SELECT max(position) FROM events), (SELECT min(position) {ended} AND position > ?), "
               f"(SELECT max(position) {ended} AND position > ?)")
        with self._reading() as conn:
            settled, first, last = conn.execute(sql, [*params, after, *params, after]).fetchone()
        if first is None:
            return ExportSpan(after, None, settled or 0)
        return ExportSpan(first - 1, last, settled)

    def export_span(self, query: ExportQuery, after: int = 0) -> ExportSpan:
        """The stretch of the log order holding the ended events of `query`'s time range after `after` (read
        through the partial index on their `recorded_at`, which carries their log order)."""
        times, params = self._time_range(query, "")
        return self._span_of(times or ["TRUE"], params, after)

    def _time_range(self, query: ExportQuery, table: str) -> tuple[list[str], list[Any]]:
        """The conditions (and their parameters) of `query`'s `since` <= end time < `until` on the `match.ended`
        event's `recorded_at` (of `table`, a prefix such as "events.", or "")."""
        clauses, params = [], []
        for clause, moment in ((f"{table}recorded_at >= ?", query.since), (f"{table}recorded_at < ?", query.until)):
            if moment is not None:
                clauses.append(clause)
                params.append(self.dialect.time(moment))
        return clauses, params

    def finished_matches(self, query: ExportQuery, after: int = 0, limit: int = 200,
                         span: ExportSpan | None = None) -> list[Finished]:
        """Up to `limit` finished matches of `query` whose end comes after the event at `after`, in log order; with
        its `span`, those up to the span's last, then those the span had not settled (two reads when the first
        leaves the page short: each a keyset range of the ended events' log-order index)."""
        condition, params, order = self._ended_after(after)
        if span is None:
            return self._finished(query, [condition], params, order, limit)
        found = []
        if span.last is not None:
            up_to, last = self._ended_up_to(span.last)
            found = self._finished(query, [condition, up_to], [*params, *last], order, limit)
        if len(found) < limit:
            unsettled, later = self._ended_unsettled(after, span.settled)
            found += self._finished(query, [unsettled], later, order, limit - len(found))
        return found

    def _at_most_few(self, conn: Any, rows: str, value: Any) -> bool:
        """Whether the SELECT `rows` (one placeholder, for `value`) gives at most FEW_MATCHES rows. SQLite's planner
        cannot weigh a game's or a player's matches itself (no statistics of a column's values: without them it
        walks, with them it takes every game for as common as the average); PostgreSQL's can, and overrides this."""
        return bool(conn.execute(f"SELECT count(*) <= {FEW_MATCHES} FROM ({rows} LIMIT {FEW_MATCHES + 1})",
                                 [value]).fetchone()[0])

    def _player_first(self, conn: Any, player: str) -> MatchesFirst | None:
        """The player's own matches as a query's first read when the player is seated in at most FEW_MATCHES (SQLite's
        `match_players`, migration 0022); None: the query tests `seats_player` on each match it walks."""
        seated = self.dialect.player(player)
        if not self._at_most_few(conn, "SELECT 1 FROM match_players WHERE identity = ?", seated):
            return None
        return MatchesFirst("match_players AS seated CROSS JOIN matches",
                            ["seated.identity = ?", "matches.id = seated.match_id"], [seated])

    def _matches_first(self, conn: Any, query: ExportQuery) -> MatchesFirst | None:
        """The matches of a player or game filter that selects few, read first (an index lookup; then their ends,
        sorted), or None: walk the ended events in log order, each joined to its match, testing the filters (for a
        game or player with no match that walks every ended event: 868 ms and 1.6 s on SQLite at 10^5 finished
        matches)."""
        if query.player is not None and (first := self._player_first(conn, query.player)) is not None:
            return first
        if query.game is not None and self._at_most_few(conn, "SELECT 1 FROM matches WHERE game = ?", query.game):
            return MatchesFirst("matches INDEXED BY matches_game_created_idx", [], [])
        return None

    def _finished(self, query: ExportQuery, keyset: list[str], params: list[Any], order: str,
                  limit: int) -> list[Finished]:
        """Up to `limit` finished matches of `query` among the ended events meeting `keyset`, in `order`."""
        with self._reading() as conn:
            sql, params = self._finished_sql(query, keyset, params, order, self._matches_first(conn, query))
            rows = conn.execute(sql, [*params, limit]).fetchall()
        return [Finished(int(row[0]), self.dialect.stamp(row[1]), self.match_of(row[2:])) for row in rows]

    def _finished_sql(self, query: ExportQuery, keyset: list[str], params: list[Any], order: str,
                      first: MatchesFirst | None) -> tuple[str, list[Any]]:
        """The statement of `_finished` and its parameters (but the limit's). CROSS JOIN fixes SQLite's join order,
        the tables in the order written (PostgreSQL's planner reorders it freely)."""
        d = self.dialect
        tables = "events CROSS JOIN matches" if first is None else f"{first.matches} CROSS JOIN events"
        where = [*(first.where if first else []), "events.match_id = matches.id", "events.type = 'match.ended'",
                 *keyset]
        params = [*(first.params if first else []), *params]
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
        times, moments = self._time_range(query, "events.")
        where += times
        params += moments
        columns = ", ".join(f"matches.{name.strip()}" for name in self.match_columns.split(","))  # events has `version`
        return (d.sql(f"SELECT events.position, events.recorded_at, {columns} FROM {tables} "
                      f"WHERE {' AND '.join(where)} ORDER BY {order} LIMIT ?"), params)

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
