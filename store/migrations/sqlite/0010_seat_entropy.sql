-- Fair deals (issue 27): status `dealing` for a match that waits for its seats' entropy before the deal, and seed
-- source `server+seats` (see postgres/0011_seat_entropy.sql). SQLite cannot alter a CHECK constraint, so the table
-- is rebuilt as in 0006. The copy is `SELECT *` on purpose: should another step have added a column to `matches`
-- before this one runs, the column counts differ and this step fails loudly rather than drop that column (then
-- add the column here too). Numbered 0010: 0009 and 0011 are other changes'.
CREATE TABLE matches_new (
    id              TEXT PRIMARY KEY,
    game            TEXT NOT NULL,
    rules_version   TEXT NOT NULL,
    seats           TEXT NOT NULL,
    options         TEXT NOT NULL,
    seed            TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('open', 'dealing', 'active', 'finished')),
    version         INTEGER NOT NULL CHECK (version >= 0),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    head_hash       TEXT NOT NULL,
    scheme          INTEGER NOT NULL DEFAULT 1 CHECK (scheme IN (1, 2)),
    seed_source     TEXT NOT NULL DEFAULT 'server'
                    CHECK (seed_source IN ('server', 'server+client', 'caller', 'server+seats')),
    client_entropy  TEXT,
    server_seed     TEXT,
    owner           TEXT,
    visibility      TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'unlisted', 'private')),
    rematch_of      TEXT,
    rematch         TEXT,
    due_at          TEXT
);
INSERT INTO matches_new SELECT * FROM matches;
DROP TABLE matches;
ALTER TABLE matches_new RENAME TO matches;
CREATE INDEX matches_created_idx ON matches (created_at DESC, id DESC);
CREATE INDEX matches_game_created_idx ON matches (game, created_at DESC, id DESC);
CREATE INDEX matches_status_created_idx ON matches (status, created_at DESC, id DESC);
CREATE INDEX matches_owner_created_idx ON matches (owner, created_at DESC, id DESC);
CREATE INDEX matches_visibility_created_idx ON matches (visibility, created_at DESC, id DESC);
CREATE INDEX matches_due_idx ON matches (due_at, id) WHERE due_at IS NOT NULL;
