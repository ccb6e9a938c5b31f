-- Record scheme 2 (store/chain.py): each event keeps the form a spectator may see (only where it differs from
-- the payload) and a salted commitment to the full event; the chain hash covers those, so it is public at every
-- moment. Matches say which scheme their record uses (rows written before this migration keep scheme 1) and
-- who chose their seed.
ALTER TABLE events ADD COLUMN public_payload TEXT;
ALTER TABLE events ADD COLUMN commitment TEXT;
ALTER TABLE matches ADD COLUMN scheme INTEGER NOT NULL DEFAULT 1 CHECK (scheme IN (1, 2));
ALTER TABLE matches ADD COLUMN seed_source TEXT NOT NULL DEFAULT 'server'
    CHECK (seed_source IN ('server', 'server+client', 'caller'));
ALTER TABLE matches ADD COLUMN client_entropy TEXT;
ALTER TABLE matches ADD COLUMN server_seed TEXT;
