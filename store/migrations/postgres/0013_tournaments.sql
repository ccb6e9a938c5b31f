-- Tournaments (issue 30): one row each and a hash-chained stream of events beside the matches' (never in the
-- global log: projections fold matches only). Times and JSON are TEXT here (the store's ISO form, the canonical
-- encoding): what is hashed is exactly what is kept. `seed` stays secret until the tournament finishes;
-- `token_secret` never leaves the server (it derives the seat tokens the owning app is told of); `places` holds the
-- hash of each open place's join code. `tournament_matches` names the tournament, round and table of each match the
-- service creates for one, written before the match itself.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    format TEXT NOT NULL,
    owner TEXT,
    visibility TEXT NOT NULL,
    status TEXT NOT NULL,
    seed TEXT NOT NULL,
    token_secret TEXT NOT NULL,
    places TEXT NOT NULL,
    version INTEGER NOT NULL,
    head_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX tournaments_newest ON tournaments (created_at DESC, id DESC);
CREATE INDEX tournaments_running ON tournaments (status) WHERE status = 'running';
CREATE TABLE tournament_events (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (tournament_id, version)
);
CREATE TABLE tournament_matches (
    match_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    table_number INTEGER NOT NULL
);
CREATE INDEX tournament_matches_of ON tournament_matches (tournament_id);
