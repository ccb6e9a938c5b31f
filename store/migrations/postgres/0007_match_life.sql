-- The life of a match (issue 19). A match with open seats is `open` until its last seat is taken (its events say
-- so: match.opened, match.seat-joined, match.started); the row follows them in the same statement as each append.
-- A rematch names the match it replays (`rematch_of`, also in its match.started) and the finished match names its
-- rematch (`rematch`, set once, in the rematch's creating transaction). Numbered 0007: 0006 is another change's.
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check CHECK (status IN ('open', 'active', 'finished'));
ALTER TABLE matches ADD COLUMN rematch_of text;
ALTER TABLE matches ADD COLUMN rematch text;
