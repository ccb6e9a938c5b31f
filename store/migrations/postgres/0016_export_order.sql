-- Open data (issue 42): the bulk export lists finished matches in the log order of their `match.ended` event, which
-- is commit order below the log's horizon (store/postgres.py), so a client resuming after one never skips a match
-- that finished while it was reading. This partial index holds only those events.
CREATE INDEX events_ended_log_order_idx ON events (xid, position) WHERE type = 'match.ended';
