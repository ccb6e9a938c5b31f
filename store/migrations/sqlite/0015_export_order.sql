-- Open data (issue 42): the bulk export lists finished matches in the position order of their `match.ended` event
-- (commit order: SQLite has one writer at a time). This partial index holds only those events.
CREATE INDEX events_ended_idx ON events (position) WHERE type = 'match.ended';
