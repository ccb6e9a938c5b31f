-- Fair deals (issue 27). A match created with option `entropy: "seats"` is `dealing` from its `match.started` until
-- its deal (`match.entropy-closed` and the set-up, in one append): it waits for each seat's entropy. Its seed source
-- is `server+seats`: the server's committed part mixed with the seats' entropy. Numbered 0011: 0010 and 0012 are
-- other changes'.
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check CHECK (status IN ('open', 'dealing', 'active', 'finished'));
ALTER TABLE matches DROP CONSTRAINT matches_seed_source_check;
ALTER TABLE matches ADD CONSTRAINT matches_seed_source_check
    CHECK (seed_source IN ('server', 'server+client', 'caller', 'server+seats'));
