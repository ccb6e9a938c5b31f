-- Matches: one row per match, updated in the same transaction as each append.
-- Times are ISO 8601 UTC text of one fixed width, so text order is time order.
CREATE TABLE matches (
    id              TEXT PRIMARY KEY,
    game            TEXT NOT NULL,
    rules_version   TEXT NOT NULL,
    seats           TEXT NOT NULL,  -- JSON array of {seat, player, token_hash}
    options         TEXT NOT NULL,  -- JSON object
    seed            TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('active', 'finished')),
    version         INTEGER NOT NULL CHECK (version >= 0),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    head_hash       TEXT NOT NULL
);
CREATE INDEX matches_created_idx ON matches (created_at DESC, id DESC);
CREATE INDEX matches_game_created_idx ON matches (game, created_at DESC, id DESC);
CREATE INDEX matches_status_created_idx ON matches (status, created_at DESC, id DESC);

-- Events: the global log. position is the rowid (read_all); (match_id, version) is unique (read_match).
CREATE TABLE events (
    position    INTEGER PRIMARY KEY,
    match_id    TEXT NOT NULL REFERENCES matches (id),
    version     INTEGER NOT NULL CHECK (version >= 1),
    type        TEXT NOT NULL,
    payload     TEXT NOT NULL,  -- JSON object
    seat        INTEGER,
    command     TEXT,           -- JSON object or NULL
    command_id  TEXT,
    recorded_at TEXT NOT NULL,
    prev_hash   TEXT NOT NULL,
    hash        TEXT NOT NULL,
    UNIQUE (match_id, version)
);

-- One row per command id: the (match_id, command_id) uniqueness behind idempotent retries.
CREATE TABLE commands (
    match_id      TEXT NOT NULL REFERENCES matches (id),
    command_id    TEXT NOT NULL,
    first_version INTEGER NOT NULL,
    last_version  INTEGER NOT NULL,
    PRIMARY KEY (match_id, command_id)
) WITHOUT ROWID;

CREATE TABLE app_keys (
    key_hash   TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;

-- Events are facts: never changed, never deleted.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'turnstile: UPDATE on events is not allowed, events are immutable');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'turnstile: DELETE on events is not allowed, events are immutable');
END;
CREATE TRIGGER commands_no_update BEFORE UPDATE ON commands
BEGIN
    SELECT RAISE(ABORT, 'turnstile: UPDATE on commands is not allowed');
END;
CREATE TRIGGER commands_no_delete BEFORE DELETE ON commands
BEGIN
    SELECT RAISE(ABORT, 'turnstile: DELETE on commands is not allowed');
END;
