-- Snapshots: the newest folded state saved of a match (see postgres/0008_snapshots.sql). `state` is msgpack.
CREATE TABLE snapshots (
    match_id    TEXT PRIMARY KEY REFERENCES matches (id),
    version     INTEGER NOT NULL CHECK (version >= 1),
    fingerprint TEXT NOT NULL,
    head_hash   TEXT NOT NULL,
    state       BLOB NOT NULL,
    saved_at    TEXT NOT NULL
);
