-- When the deadline sweep may next have something to do for a match (see postgres/0009_due_at.sql), in the store's
-- one ISO form (2026-11-23T09:00:00.123456Z), so text order is time order. Numbered 0008: 0007 is the snapshots'.
ALTER TABLE matches ADD COLUMN due_at TEXT;
UPDATE matches SET due_at = replace(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'Z', '000Z')
    WHERE status IN ('open', 'active')
      AND (json_extract(options, '$.move_deadline') IS NOT NULL OR json_extract(options, '$.abandon_after') IS NOT NULL);
CREATE INDEX matches_due_idx ON matches (due_at, id) WHERE due_at IS NOT NULL;
