-- The life of a match (issue 19): status `open` for a match whose seats are not all taken, and the rematch links
-- (see postgres/0007_match_life.sql). SQLite cannot alter a CHECK constraint, so the table is rebuilt (the
-- runner turns foreign keys off around migrations, as SQLite's own procedure for this asks). Numbered 0006: 0005
-- is another change's.
CREATE TABLE matches_new (
    id              TEXT PRIMARY KEY,
    game            TEXT NOT NULL,
    rules_version   TEXT NOT NULL,
    seats           TEXT NOT NULL,
    options         TEXT NOT NULL,
    seed            TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('open', 'active', 'finished')),
    version         INTEGER NOT NULL CHECK (version >= 0),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    head_hash       TEXT NOT NULL,
    scheme          INTEGER NOT NULL DEFAULT 1 CHECK (scheme IN (1, 2)),
    seed_source     TEXT NOT NULL DEFAULT 'server' CHECK (seed_source IN ('server', 'server+client', 'caller')),
    client_entropy  TEXT,
    server_seed     TEXT,
    owner           TEXT,
    visibility      TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'unlisted', 'private')),
    rematch_of      TEXT,
    rematch         TEXT
);
INSERT INTO matches_new (id, game, rules_version, seats, options, seed, seed_commitment, status, version, created_at,
                         updated_at, head_hash, scheme, seed_source, client_entropy, server_seed, owner, visibility)
    SELECT id, game, rules_version, seats, options, seed, seed_commitment, status, version, created_at, updated_at,
           head_hash, scheme, seed_source, client_entropy, server_seed, owner, visibility FROM matches;
DROP TABLE matches;
ALTER TABLE matches_new RENAME TO matches;
CREATE INDEX matches_created_idx ON matches (created_at DESC, id DESC);
CREATE INDEX matches_game_created_idx ON matches (game, created_at DESC, id DESC);
CREATE INDEX matches_status_created_idx ON matches (status, created_at DESC, id DESC);
CREATE INDEX matches_owner_created_idx ON matches (owner, created_at DESC, id DESC);
CREATE INDEX matches_visibility_created_idx ON matches (visibility, created_at DESC, id DESC);
