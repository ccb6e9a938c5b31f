-- When the deadline sweep (service/deadlines.py) may next have something to do for a match: a hint, never later
-- than the truth (an earlier one costs the sweep one look, which then sets the exact time); NULL: nothing (no
-- `move_deadline` nor `abandon_after`, or the match has ended). Appends keep the earlier of the row's and their
-- own; the sweep reads only the rows due, through the partial index. Every open or active match with either
-- option is due at once after the upgrade, so the first sweep looks at each one and sets its exact hint.
ALTER TABLE matches ADD COLUMN due_at timestamptz;
UPDATE matches SET due_at = now()
    WHERE status IN ('open', 'active') AND (options ? 'move_deadline' OR options ? 'abandon_after');
CREATE INDEX matches_due_idx ON matches (due_at, id) WHERE due_at IS NOT NULL;
