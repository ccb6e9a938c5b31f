-- The bulk export's time filters (issue 42): the `match.ended` events by `recorded_at`, carrying their log order
-- (xid, position), so an export with `since`/`until` reads once, by an index-only range scan of its range, where in
-- the log order that range lies (store/postgres.py `_span_of`), and walks only that stretch of
-- events_ended_log_order_idx instead of every ended event between its cursor and its page.
CREATE INDEX events_ended_time_idx ON events (recorded_at) INCLUDE (xid, position) WHERE type = 'match.ended';
