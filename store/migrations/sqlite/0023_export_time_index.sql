-- The bulk export's time filters (issue 42): the `match.ended` events by `recorded_at`, with their log order
-- (position), so an export with `since`/`until` reads once where in the log its range lies (store/sql_exports.py
-- `export_span`: a range scan of this index) and walks only that stretch, instead of every ended event between its
-- cursor and its page.
CREATE INDEX events_ended_time_idx ON events (recorded_at, position) WHERE type = 'match.ended';
